/** The live data behind the panes: a bounded request log, throttled publishing, session totals. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {EventBus, type RequestFinished} from '../../source/base/events.js';
import {ExternalStore} from '../../source/ui/external-store.js';
import {createRequestLog} from '../../source/ui/request-log.js';
import {fullTime, logTime} from '../../source/ui/text.js';
import {Store} from '../../source/store/index.js';
import {openRequestLog, type OpenLogOptions} from '../../source/store/usage-summary.js';
import {UsageRecorder} from '../../source/proxy/usage-recorder.js';
import {eventually} from '../helpers/sdks.js';
import {RedrawFrames} from '../../source/ui/redraw-frames.js';
import {SessionUsage} from '../../source/ui/session-usage.js';
import {createLimitView, liveLimitUse} from '../../source/ui/limit-view.js';
import {openLogFile} from '../../source/ui/log-file.js';
import {fieldWindow} from '../../source/ui/components/form-window.js';
import {KeyLimiter} from '../../source/proxy/limits.js';
import type {KeyRecord} from '../../source/base/records.js';
import {tempHome} from '../helpers/gateway.js';
import {delay} from './helpers.js';

/** A time in the middle of a minute, a day and a month, for a limiter whose windows must not turn over during a test. */
const midMinute = new Date(2026, 5, 15, 12, 0, 30).getTime();

const event = (id: string, extra: Partial<RequestFinished> = {}): RequestFinished => ({
	id, time: new Date().toISOString(), method: 'POST', path: '/v1/chat/completions', keyId: 'key_a', keyName: 'a', model: 'm', upstreamModel: 'm', channelId: 'ch', channelName: 'c',
	inboundFormat: 'openai', outboundFormat: 'openai', stream: false, status: 200, outcome: 'ok', latencyMs: 1, ttfbMs: 1, usage: {inputTokens: 10, outputTokens: 2}, error: null, warnings: [], eventType: 'routed', attempts: ['c'], costUsd: 0, unpriced: false, ...extra,
});

test('the request log keeps the newest entries only, and counts all of them', async () => {
	const events = new EventBus();
	const log = createRequestLog(events, {limit: 3, intervalMs: 0});
	const off = log.subscribe(() => {});
	for (let index = 1; index <= 5; index++) events.emit('request:finished', event(String(index), index === 2 ? {status: 500, outcome: 'error'} : {}));
	await delay(5);
	const snapshot = log.getSnapshot();
	assert.deepEqual(snapshot.entries.map(entry => entry.id), ['5', '4', '3']);
	assert.deepEqual([snapshot.total, snapshot.failed], [5, 1]);
	off();
});

/** A store in a temp home, and a recorder writing to it as another gateway process would (its own connection). */
async function withLoggedStore(run: (store: Store, other: UsageRecorder) => Promise<void>): Promise<void> {
	const home = tempHome();
	const store = await Store.open(home);
	const otherStore = await Store.open(home);
	const other = new UsageRecorder(otherStore, {adopt: false});
	try {
		await run(store, other);
	} finally {
		await other.close();
		await Promise.all([store.close(), otherStore.close()]);
		rmSync(home, {recursive: true, force: true});
	}
}

test('the request log opens with the stored history behind the live requests: newest first, none twice, within its limit', async () => {
	await withLoggedStore(async (store, other) => {
		const events = new EventBus();
		const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
		// 'live' was recorded and flushed before the history was read, and is seen live too.
		for (const [id, minutes] of [['old3', 30], ['old2', 20], ['old1', 10], ['live', 0]] as const) other.record(event(id, {time: at(minutes)}));
		await other.flush();
		let release = () => {};
		const gate = new Promise<void>(resolve => (release = resolve));
		let opened = 0;
		const log = createRequestLog(events, {
			limit: 4,
			intervalMs: 0,
			stored: {
				open: async want => {
					opened++;
					await gate;
					return openRequestLog(store, want);
				},
			},
		});
		const off = log.subscribe(() => {});
		const history: string[] = [];
		events.on('requests:history', records => history.push(...records.map(record => record.id)));
		events.emit('request:finished', event('live', {time: at(0)}));
		await delay(5);
		assert.deepEqual(log.getSnapshot().entries.map(entry => entry.id), ['live'], 'live requests show before the history is read');
		release();
		await eventually(() => log.getSnapshot().entries.length === 4, 3000, 'the history');
		assert.deepEqual(log.getSnapshot().entries.map(entry => entry.id), ['live', 'old1', 'old2', 'old3']);
		assert.deepEqual(history.sort(), ['old1', 'old2', 'old3'], 'announced for the charts, without the one seen live (counted already)');
		assert.deepEqual([log.getSnapshot().total, log.getSnapshot().failed], [1, 0], 'counts are this session\'s');
		events.emit('request:finished', event('new'));
		await delay(5);
		assert.deepEqual(log.getSnapshot().entries.map(entry => entry.id), ['new', 'live', 'old1', 'old2'], 'the oldest leave first');
		off();
		const again = log.subscribe(() => {});
		await delay(5);
		assert.equal(opened, 1, 'the history is read once, not on every subscription');
		again();
	});
});

test('the log opens with its newest few, and announces the last hour\'s stored requests beyond them for the charts, up to its history limit', async () => {
	await withLoggedStore(async (store, other) => {
		const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
		for (let index = 0; index < 3; index++) other.record(event(`old_${index}`, {time: at(120 + index)}));
		for (let index = 0; index < 12; index++) other.record(event(`hour_${index}`, {time: at(50 - index)}));
		await other.flush();
		const events = new EventBus();
		const announced: string[] = [];
		events.on('requests:history', records => announced.push(...records.map(record => record.id)));
		const {createTraffic} = await import('../../source/ui/traffic.js');
		const traffic = createTraffic(events, {intervalMs: 0});
		const log = createRequestLog(events, {limit: 4, historyLimit: 10, intervalMs: 0, stored: {open: want => openRequestLog(store, want)}});
		const offs = [traffic.subscribe(() => {}), log.subscribe(() => {})];
		try {
			await eventually(() => announced.length > 0, 3000, 'the history announced');
			assert.deepEqual(log.getSnapshot().entries.map(entry => entry.id), ['hour_11', 'hour_10', 'hour_9', 'hour_8'], 'the log keeps its newest four');
			assert.deepEqual(announced, Array.from({length: 10}, (_, index) => `hour_${index + 2}`), 'the last hour\'s newest ten, not the older ones');
			await eventually(() => traffic.current.lastHour.total.requests === 10, 3000, 'the charts count all ten');
		} finally {
			for (const off of offs) off();
		}
	});
});

test('an unreadable history leaves the log to the live requests', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	await store.close();
	try {
		const events = new EventBus();
		const log = createRequestLog(events, {intervalMs: 0, stored: {open: want => openRequestLog(store, want), followMs: 10}});
		const off = log.subscribe(() => {});
		events.emit('request:finished', event('1'));
		await delay(50);
		assert.deepEqual(log.getSnapshot().entries.map(entry => entry.id), ['1']);
		off();
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('a store log unreadable when the TUI starts is tried again: its history and what other gateways record show once it answers', async () => {
	await withLoggedStore(async (store, other) => {
		other.record(event('before'));
		await other.flush();
		const events = new EventBus();
		let attempts = 0;
		const open = async (want: OpenLogOptions) => {
			attempts++;
			if (attempts === 1) throw new Error('the store is restarting');
			return openRequestLog(store, want);
		};
		const log = createRequestLog(events, {intervalMs: 0, stored: {open, followMs: 20}});
		const off = log.subscribe(() => {});
		try {
			events.emit('request:finished', event('live'));
			await eventually(() => log.getSnapshot().entries.some(entry => entry.id === 'before'), 3000, 'the history, on the second try');
			other.record(event('after'));
			await other.flush();
			await eventually(() => log.getSnapshot().entries.some(entry => entry.id === 'after'), 3000, 'what the other gateway records next');
			assert.deepEqual(log.getSnapshot().entries.map(entry => entry.id).sort(), ['after', 'before', 'live']);
			assert.equal(attempts, 2);
		} finally {
			off();
		}
	});
});

test('a log that follows the store shows what other gateways record as it lands, never its own gateway\'s twice; one that does not, only its own', async () => {
	await withLoggedStore(async (store, other) => {
		other.record(event('before'));
		await other.flush();
		// This process's gateway records to the same store; its requests reach the log live.
		const mine = new UsageRecorder(store, {adopt: false});
		mine.start();
		const skip = await mine.claimedInstance();
		const events = new EventBus();
		const following = createRequestLog(events, {intervalMs: 0, stored: {open: want => openRequestLog(store, {...want, skip}), followMs: 20}});
		// Another TUI's log (its own bus: what a following log reads is announced on its bus, for the other views).
		const otherEvents = new EventBus();
		const notFollowing = createRequestLog(otherEvents, {intervalMs: 0, stored: {open: want => openRequestLog(store, want)}});
		const offs = [following.subscribe(() => {}), notFollowing.subscribe(() => {})];
		const ids = (log: typeof following) => log.getSnapshot().entries.map(entry => entry.id);
		let announced = 0;
		events.on('requests:stored', batch => (announced += batch.count));
		try {
			await eventually(() => ids(following).length === 1 && ids(notFollowing).length === 1, 3000, 'the history');
			const own = event('own_1');
			events.emit('request:finished', own);
			otherEvents.emit('request:finished', own);
			mine.record(own);
			await mine.flush();
			other.record(event('elsewhere_1'));
			other.record(event('elsewhere_2', {status: 502, outcome: 'error'}));
			await other.flush();
			await eventually(() => ids(following).includes('elsewhere_2'), 3000, 'the other gateway\'s requests');
			await delay(100);
			assert.deepEqual(ids(following), ['elsewhere_2', 'elsewhere_1', 'own_1', 'before']);
			assert.equal(following.getSnapshot().failed, 1);
			// A record appended to a chunk already read shows alone, once.
			other.record(event('elsewhere_3'));
			await other.flush();
			await eventually(() => ids(following).includes('elsewhere_3'), 3000, 'the next one');
			await delay(100);
			assert.deepEqual(ids(following), ['elsewhere_3', 'elsewhere_2', 'elsewhere_1', 'own_1', 'before']);
			assert.deepEqual(ids(notFollowing), ['own_1', 'before']);
			assert.equal(announced, 3, 'what it read is announced on the bus, for the totals and the other views');
		} finally {
			for (const off of offs) off();
			await mine.close();
		}
	});
});

test('the log says when a request ran: the time of day for today\'s, the date for an earlier day\'s', () => {
	const now = new Date(2026, 10, 28, 9, 5, 0);
	assert.equal(logTime(new Date(2026, 10, 28, 0, 0, 1).toISOString(), now), '00:00:01');
	assert.equal(logTime(new Date(2026, 10, 27, 23, 59, 59).toISOString(), now), 'Nov 27');
	assert.equal(logTime(new Date(2025, 10, 28, 9, 0, 0).toISOString(), now), 'Nov 28', 'a year ago is not today');
	assert.ok(logTime(new Date(2026, 8, 30).toISOString(), now).length <= 8, 'within the TIME column');
});

test('a request\'s details say its time in full, local, and in UTC where the zone differs', () => {
	const zone = process.env.TZ;
	try {
		process.env.TZ = 'Europe/Berlin';
		assert.equal(fullTime('2026-11-27T13:03:07.250Z'), '2026-11-27 14:03:07.250 (13:03:07.250 UTC)');
		assert.equal(fullTime('2026-11-27T23:30:00.005Z'), '2026-11-28 00:30:00.005 (2026-11-27 23:30:00.005 UTC)', 'the UTC date where it is another day');
		process.env.TZ = 'UTC';
		assert.equal(fullTime('2026-11-27T13:03:07.250Z'), '2026-11-27 13:03:07.250 UTC');
		assert.equal(fullTime('garbled'), 'garbled');
	} finally {
		if (zone === undefined) delete process.env.TZ;
		else process.env.TZ = zone;
	}
});

test('changes reach React at most once per interval, the last one always', async () => {
	let notified = 0;
	const store = new ExternalStore(0, {intervalMs: 50});
	store.subscribe(() => notified++);
	for (let value = 1; value <= 100; value++) store.set(value);
	assert.equal(notified, 1, 'the first change at once');
	await delay(80);
	assert.equal(notified, 2, 'then one for the rest of the burst');
	assert.equal(store.getSnapshot(), 100);
});

/** A request log drawn in frames of `frameMs` on a clock the test moves (`clock.now`), counting its redraws. */
function framedLog(frameMs: number, clock: {now: number}) {
	const events = new EventBus();
	const frames = new RedrawFrames({busyPerSecond: 20, frameMs, now: () => clock.now});
	const stop = frames.listen(events);
	const log = createRequestLog(events, {intervalMs: 0, frames});
	const counted = {redraws: 0};
	const off = log.subscribe(() => counted.redraws++);
	return {events, frames, log, counted, dispose: () => (off(), stop())};
}

test('the live log redraws at its quick pace for a few requests a second, and at the next frame under load', async () => {
	const clock = {now: 0};
	const {events, frames, log, counted, dispose} = framedLog(200, clock);
	events.emit('request:finished', event('1'));
	await delay(10);
	assert.equal(counted.redraws, 1, 'one request: shown at once');
	// Batches 100 ms apart, as the worker sends them, from `from` to `to` on the fake clock.
	const load = (from: number, to: number, count: number) => {
		for (clock.now = from; clock.now <= to; clock.now += 100) events.emit('requests:batch', {recent: [event(`b${clock.now}`)], count, failed: 0});
		clock.now = to;
	};
	load(100, 1000, 50);
	assert.ok(frames.busy);
	await delay(30);
	const beforeFrame = counted.redraws;
	clock.now = 1050;
	events.emit('requests:batch', {recent: [event('2')], count: 50, failed: 0});
	await delay(30);
	assert.equal(counted.redraws, beforeFrame, 'under load the redraw waits for the frame');
	await delay(250);
	assert.equal(counted.redraws, beforeFrame + 1);
	assert.equal(log.getSnapshot().total, 551);
	// Load that goes on, then stops: the first request after a quiet second shows at once, though
	// the window it ends was busy.
	load(1100, 2500, 100);
	assert.ok(frames.busy);
	await delay(250);
	const before = counted.redraws;
	clock.now = 4000;
	events.emit('request:finished', event('3'));
	await delay(10);
	assert.equal(counted.redraws, before + 1, 'after a quiet spell the first request is shown at once again');
	assert.equal(frames.busy, false);
	dispose();
});

test('a burst is drawn at the frame pace from its second batch, not from the end of its first second', async () => {
	const clock = {now: 10_000};
	const {events, frames, log, counted, dispose} = framedLog(200, clock);
	// A person's pace: one request every 60 ms is 16 a second, under the threshold — every one shows at once.
	for (let index = 0; index < 16; index++, clock.now += 60) {
		events.emit('request:finished', event(`p${index}`));
		await delay(5);
		assert.equal(frames.busy, false, `request ${index + 1} of 16 in a second`);
	}
	assert.equal(counted.redraws, 16);
	// A quiet second, then the worker's first batch of a burst: shown at once, as the first request after quiet always is.
	clock.now += 1500;
	events.emit('requests:batch', {recent: [event('b1')], count: 300, failed: 0});
	await delay(10);
	assert.equal(frames.busy, false);
	assert.equal(counted.redraws, 17, 'the burst\'s first batch is shown at once');
	// Its second batch, 100 ms later: busy at once (300 + 300 in 100 ms), so this batch waits for the frame.
	clock.now += 100;
	events.emit('requests:batch', {recent: [event('b2')], count: 300, failed: 0});
	assert.ok(frames.busy, 'busy from the second batch, not after a whole second of redraws at the quiet pace');
	await delay(30);
	assert.equal(counted.redraws, 17, 'the second batch waits for the frame');
	await delay(250);
	assert.equal(counted.redraws, 18);
	assert.equal(log.getSnapshot().entries[0]!.id, 'b2');
	dispose();
});

test('requests read from the store by the score (a busy gateway elsewhere) wait for the frame; a few a second show at once', async () => {
	const clock = {now: 20_000};
	const {events, frames, log, counted, dispose} = framedLog(200, clock);
	const stored = (count: number, id: string) => events.emit('requests:stored', {recent: [event(id)], count, failed: 0});
	// A read of the store's log every second, as the TUI follows it: each one after a "quiet second"
	// of this gateway's own, yet each holding a second of another gateway's 300 requests.
	stored(300, 's1');
	assert.ok(frames.busy, 'busy from the first busy read');
	await delay(30);
	assert.equal(counted.redraws, 0, 'its redraw waits for the frame');
	await delay(250);
	assert.equal(counted.redraws, 1);
	clock.now += 1000;
	stored(300, 's2');
	assert.ok(frames.busy, 'still busy a second later, though nothing of its own arrived in between');
	await delay(30);
	assert.equal(counted.redraws, 1);
	await delay(250);
	assert.equal(counted.redraws, 2);
	// The gateway elsewhere slows down: a read of a few requests shows at once.
	clock.now += 1000;
	stored(3, 's3');
	assert.equal(frames.busy, false);
	await delay(10);
	assert.equal(counted.redraws, 3);
	assert.equal(log.getSnapshot().total, 603);
	dispose();
});

test('under load every view with a change publishes in the same frame, once; setNow does not wait', async () => {
	let now = 0;
	const frames = new RedrawFrames({busyPerSecond: 20, frameMs: 100, now: () => now});
	for (now = 0; now <= 1000; now += 100) frames.arrived(50);
	now = 1000;
	assert.ok(frames.busy);
	const order: string[] = [];
	const views = ['log', 'traffic', 'usage'].map(name => {
		const view = new ExternalStore(0, {intervalMs: 0, frames});
		view.subscribe(() => order.push(`${name}=${view.getSnapshot()}`));
		return view;
	});
	views[0]!.set(1);
	await delay(20);
	views[1]!.set(1);
	views[0]!.set(2);
	await delay(20);
	views[2]!.set(1);
	assert.deepEqual(order, [], 'nothing is published before the frame');
	// The fake clock reads 1000: the next frame (a multiple of 100 ms) is 100 ms away.
	await delay(150);
	assert.deepEqual(order, ['log=2', 'traffic=1', 'usage=1'], 'one turn, each view once with its newest value');
	const urgent = new ExternalStore('a', {intervalMs: 0, frames});
	let seen = '';
	urgent.subscribe(() => (seen = urgent.getSnapshot()));
	urgent.setNow('b');
	assert.equal(seen, 'b', 'what the user just did shows at once');
	frames.stop();
});

test('quiet, a view with frames publishes at once', async () => {
	const frames = new RedrawFrames({busyPerSecond: 20, frameMs: 1000});
	assert.equal(frames.busy, false);
	let notified = 0;
	const view = new ExternalStore(0, {intervalMs: 0, frames});
	view.subscribe(() => notified++);
	view.set(1);
	assert.equal(notified, 1);
});

test('a store drops a value its equals calls the same as the newest one', async () => {
	let notified = 0;
	const store = new ExternalStore({n: 1}, {intervalMs: 0, equals: (a, b) => a.n === b.n});
	store.subscribe(() => notified++);
	const first = store.current;
	store.set({n: 1});
	assert.equal(store.current, first, 'an equal value is not taken');
	assert.equal(notified, 0);
	store.set({n: 2});
	assert.deepEqual([notified, store.getSnapshot().n], [1, 2]);
});

test('session usage answers UsageRow queries by key (with its id) and by model, today and since', async () => {
	const usage = new SessionUsage();
	usage.record(event('1'));
	usage.record(event('2', {status: 429, outcome: 'error', usage: null}));
	usage.record(event('3', {keyId: 'key_b', keyName: 'b', model: 'n', time: '2020-01-01T10:00:00.000Z'}));
	const byKey = await usage.summary({by: 'key'});
	assert.deepEqual(byKey.map(row => [row.group, row.id, row.requests, row.failed, row.inputTokens, row.outputTokens]), [['a', 'key_a', 2, 1, 10, 2], ['b', 'key_b', 1, 0, 10, 2]]);
	const today = await usage.summary({by: 'model', since: new Date(new Date().setHours(0, 0, 0, 0))});
	assert.deepEqual(today.map(row => [row.group, row.requests]), [['m', 2]]);
});

const limitedKey: KeyRecord = {v: 1, id: 'key_agent', name: 'agent', description: '', secret: 'sk-gtui-x', hash: '0', models: [], channels: [], expiresAt: null, revokedAt: null, createdAt: '2026-01-01T00:00:00.000Z', limits: {rpm: 10}};

test('limit use is read from the limiter a moment after a request finishes, and published only when it changed', async () => {
	const events = new EventBus();
	// A fixed time in the middle of a minute and of a month: on the wall clock, a window turning over between two reads changed the numbers.
	const limiter = new KeyLimiter(undefined, () => midMinute);
	const view = createLimitView(events, () => [limitedKey, {...limitedKey, id: 'key_free', limits: undefined}], liveLimitUse(limiter), {delayMs: 5, pollMs: 60_000});
	let published = 0;
	const off = view.subscribe(() => published++);
	await delay(20);
	assert.deepEqual([...view.getSnapshot()], [['key_agent', {rpm: 0, rpd: 0, tpm: 0, tpd: 0, spendUsd: 0}]]);
	limiter.admit(limitedKey);
	limiter.record(limitedKey, 30, 0.25);
	events.emit('request:finished', event('1'));
	events.emit('request:finished', event('2'));
	await delay(30);
	assert.deepEqual(view.getSnapshot().get('key_agent'), {rpm: 1, rpd: 1, tpm: 30, tpd: 30, spendUsd: 0.25});
	const count = published;
	events.emit('request:finished', event('3'));
	await delay(30);
	assert.equal(published, count, 'the same numbers are not published again');
	off();
});

test('limit use polled at a rate known late (the core starting) is read every so often once it is known', async () => {
	const events = new EventBus();
	let reads = 0;
	let every!: (ms: number) => void;
	const view = createLimitView(events, () => [limitedKey], () => (reads++, new Map()), {delayMs: 5, pollMs: new Promise(resolve => (every = resolve))});
	const off = view.subscribe(() => {});
	try {
		await delay(60);
		assert.equal(reads, 1, 'read once when watched, not polled before the rate is known');
		every(10);
		await delay(100);
		assert.ok(reads >= 4, `polled every 10 ms once known (${reads} reads)`);
	} finally {
		off();
	}
});

test('budget warnings go to the log file', async () => {
	const home = tempHome();
	const events = new EventBus();
	const log = openLogFile(home);
	const release = log.capture(events);
	try {
		events.emit('key:budget', {keyId: 'key_agent', keyName: 'agent', spentUsd: 16.5, budgetUsd: 20, period: 'monthly', percent: 83});
	} finally {
		release();
	}
	assert.match(readFileSync(join(home, 'gateway-tui.log'), 'utf8'), /^\S+ budget key agent: 83% of its \$20\.00 budget spent this month \(\$16\.50\)$/m);
	rmSync(home, {recursive: true, force: true});
});

test('a form taller than its space shows a window of fields that keeps the focused one in sight', () => {
	const ones = Array.from({length: 10}, () => 1);
	assert.deepEqual(fieldWindow(ones, 0, 10), {start: 0, end: 10}, 'all fit');
	assert.deepEqual(fieldWindow(ones, 2, 6), {start: 0, end: 5}, 'from the top, a line left for "more below"');
	assert.deepEqual(fieldWindow(ones, 7, 6), {start: 4, end: 8}, 'scrolled: a line each for "more above" and "more below"');
	assert.deepEqual(fieldWindow(ones, 10, 6), {start: 5, end: 10}, 'on the button: the last fields');
	assert.deepEqual(fieldWindow([1, 1, 1, 6, 1], 3, 9), {start: 2, end: 5}, 'a focused list takes its lines');
});
