/** @jsxRuntime automatic @jsxImportSource react */
/** Traffic at a glance: per-minute counts of real events, drawn as sparklines in the Usage and Channels panes. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup} from 'ink-testing-library';
import type {RequestFinished} from '../../source/base/events.js';
import type {ChannelRecord} from '../../source/base/records.js';
import {sparkline} from '../../source/ui/components/sparkline.js';
import {ChannelsPane} from '../../source/ui/panes/channels-pane.js';
import {UsagePane} from '../../source/ui/panes/usage-pane.js';
import {emptyRow} from '../../source/ui/session-usage.js';
import {TrafficCounter} from '../../source/ui/traffic.js';
import {frameWith, keys, loggedRequest, press, renderTui} from './helpers.js';

afterEach(() => cleanup());

const event = (extra: Partial<RequestFinished> = {}): RequestFinished =>
	loggedRequest('r', {channelId: 'ch_openai', latencyMs: 100, ttfbMs: 50, usage: {inputTokens: 1000, outputTokens: 500, cachedTokens: 0, reasoningTokens: 0}, ...extra});

const now = Date.parse('2026-03-04T10:59:30.000Z');
const minutesAgo = (minutes: number) => now - minutes * 60_000;

function busyHour(): TrafficCounter {
	const counter = new TrafficCounter();
	for (let minute = 59; minute >= 0; minute--) {
		const count = minute < 10 ? 8 : 1;
		for (let index = 0; index < count; index++) counter.record(event({latencyMs: 100 + index * 100}), minutesAgo(minute));
	}
	counter.record(event({status: 502, outcome: 'error', latencyMs: 3000}), minutesAgo(1));
	return counter;
}

test('sparkline: scaled to its own top, squeezed into the columns there are, blank where nothing happened', () => {
	assert.equal(sparkline([0, 1, 2, 4, 8], 5), ' ▁▂▄█');
	assert.equal(sparkline([1, 1, 0, 0, 8, 8], 3), '▁ █', 'pairs summed into three columns');
	assert.equal(sparkline([null, 100, 900], 3, 'max'), ' ▁█');
});

test('the counter keeps the last hour per minute and per channel; percentiles of the latencies', () => {
	const snapshot = busyHour().snapshot(now);
	assert.equal(snapshot.lastHour.requests.length, 60);
	assert.equal(snapshot.lastHour.requests.at(-1), 8);
	assert.equal(snapshot.lastHour.requests[0], 1);
	assert.equal(snapshot.lastHour.total.requests, 50 + 80 + 1);
	assert.equal(snapshot.lastHour.total.errors, 1);
	assert.equal(snapshot.lastHour.p95.at(-2), 3000, 'the slow failure is the p95 of its minute');
	assert.equal(snapshot.channels.get('ch_openai')?.total.requests, 131);
	const later = busyHour();
	later.record(event(), now + 2 * 3_600_000);
	assert.equal(later.snapshot(now + 2 * 3_600_000).lastHour.total.requests, 1, 'older minutes are dropped');
});

test('the charts count what the totals count: requests refused before they named a model are apart, as "+N refused"', () => {
	const counter = new TrafficCounter();
	const at = minutesAgo(2);
	for (let index = 0; index < 3; index++) counter.record(event(), at);
	counter.record(event({status: 404, outcome: 'error', channelId: null, model: 'nope'}), at);
	// An unknown key, a GET of the model list, a token count: in the live log, not in the usage totals.
	for (let index = 0; index < 9; index++) counter.record(event({status: 401, outcome: 'error', channelId: null, model: null, keyId: null}), at);
	counter.record(event({status: 200, channelId: null, model: null, path: '/v1/models'}), at);
	counter.record(event({path: '/v1/messages/count_tokens'}), at);
	const {total} = counter.snapshot(now).lastHour;
	assert.deepEqual({requests: total.requests, errors: total.errors, refused: total.refused}, {requests: 4, errors: 1, refused: 9});
	const usage = {today: {byKey: [{...emptyRow('laptop'), requests: 4, failed: 1}], byModel: []}, all: {byKey: [], byModel: []}, lastDay: [], error: null};
	const frame = renderTui(<UsagePane usage={usage} log={[]} traffic={counter.snapshot(now)} source="session" active width={80} height={19} />).lastFrame()!;
	assert.match(frame, /req\/min [ ▁-█]+ 4 in 1h/);
	assert.match(frame, /errors\/min [ ▁-█]+ 1 \+9 refused/);
});

test('a client that hung up is a request, not an error: errors/min agrees with the totals’ FAIL', () => {
	const counter = new TrafficCounter();
	const at = minutesAgo(1);
	counter.record(event(), at);
	counter.record(event({stream: true, outcome: 'aborted'}), at);
	counter.record(event({stream: true, outcome: 'aborted'}), at);
	counter.record(event({status: 502, outcome: 'error'}), at);
	const {total} = counter.snapshot(now).lastHour;
	assert.deepEqual({requests: total.requests, errors: total.errors}, {requests: 4, errors: 1});
	assert.equal(counter.snapshot(now).channels.get('ch_openai')?.total.errors, 1, 'nor an error of its channel');
});

test('the Usage pane draws requests, errors, tokens and latency; the Channels pane a sparkline per channel and its last hour in the details', async () => {
	const traffic = busyHour().snapshot(now);
	// The tokens per hour are the usage totals' hours: this one's, and one five hours back (before this TUI started, say).
	const hour = (back: number) => {
		const at = new Date(Date.now() - back * 3_600_000);
		const pad = (value: number) => String(value).padStart(2, '0');
		return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:00`;
	};
	const lastDay = [{...emptyRow(hour(5)), requests: 10, inputTokens: 80_000, outputTokens: 20_000}, {...emptyRow(hour(0)), requests: 131, inputTokens: 131 * 1000, outputTokens: 131 * 500}];
	const usage = {today: {byKey: [{...emptyRow('laptop'), requests: 131}], byModel: [{...emptyRow('gpt-4o-mini'), requests: 131}]}, all: {byKey: [], byModel: []}, lastDay, error: null};
	const frame = renderTui(<UsagePane usage={usage} log={[]} traffic={traffic} source="session" active width={80} height={19} />).lastFrame()!;
	assert.match(frame, /req\/min [ ▁-█]+ 131 in 1h/);
	assert.match(frame, /errors\/min [ ▁-█]+ 1/);
	assert.match(frame, /tokens\/h [ ▁-█]+ 297k in 24h/);
	assert.match(frame, /p50 200ms p95 [ ▁-█]+█ 800ms/, 'the slow minute peaks in the p95 line');
	assert.match(frame, /▁+[▁-█]*█/, 'the busy last minutes stand out');
	cleanup();

	const channel: ChannelRecord = {v: 1, id: 'ch_openai', name: 'openai', format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: null, models: [{name: 'gpt-4o-mini', upstream: 'gpt-4o-mini'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'};
	const {stdin, lastFrame} = renderTui(<ChannelsPane channels={[channel]} traffic={traffic} actions={{} as never} onStatus={() => {}} onCapture={() => {}} active width={120} height={20} />);
	assert.match(lastFrame()!, /LAST HOUR/);
	assert.match(lastFrame()!, /openai .*[▁-█]{3,}/);
	await press(stdin, keys.enter);
	await frameWith(lastFrame, /last hour\s+[ ▁-█]+\s+131 requests \(2\.2\/min\), 1% errors, p50 \d+ms/);
});

test('with the gateway in its worker, the charts keep the core\'s numbers: the idle tick never replaces them with an empty count', async () => {
	const {EventBus} = await import('../../source/base/events.js');
	const {createTraffic} = await import('../../source/ui/traffic.js');
	const events = new EventBus();
	const store = createTraffic(events, {intervalMs: 5, tickMs: 20});
	const off = store.subscribe(() => {});
	try {
		events.emit('traffic:snapshot', busyHour().snapshot(now));
		await new Promise(resolve => setTimeout(resolve, 80));
		assert.equal(store.current.lastHour.total.requests, 131, 'several ticks later, still the core\'s snapshot');
		assert.equal(store.current.channels.get('ch_openai')?.total.requests, 131, 'and its channels (the Channels pane\'s sparklines)');
	} finally {
		off();
	}
});

test('a channel\'s last hour says "1 request", not "1 requests"', async () => {
	const {trafficText} = await import('../../source/ui/panes/channel-views.js');
	const counter = new TrafficCounter();
	counter.record(event(), minutesAgo(3));
	assert.match(trafficText(counter.snapshot(now).channels.get('ch_openai')), /\s1 request \(0\.0\/min\), 0% errors, p50 100ms$/);
	assert.equal(trafficText(undefined), 'no requests in the last hour');
});

test('a snapshot that draws the charts already on screen is dropped (each one published redraws the whole screen); one that moved is not', async () => {
	const {EventBus} = await import('../../source/base/events.js');
	const {createTraffic} = await import('../../source/ui/traffic.js');
	const events = new EventBus();
	const store = createTraffic(events, {intervalMs: 0});
	let published = 0;
	const off = store.subscribe(() => published++);
	try {
		const counter = busyHour();
		events.emit('traffic:snapshot', counter.snapshot(now));
		await new Promise(resolve => setTimeout(resolve, 20));
		assert.equal(published, 1);
		events.emit('traffic:snapshot', counter.snapshot(now + 20_000));
		events.emit('traffic:snapshot', busyHour().snapshot(now));
		await new Promise(resolve => setTimeout(resolve, 20));
		assert.equal(published, 1, 'the same minute again, from the same counter and from another with the same requests: not published');
		events.emit('traffic:snapshot', counter.snapshot(now + 60_000));
		await new Promise(resolve => setTimeout(resolve, 20));
		assert.equal(published, 2, 'a minute on, the hour moved: published');
		const quiet = new TrafficCounter();
		events.emit('traffic:snapshot', quiet.snapshot(now));
		await new Promise(resolve => setTimeout(resolve, 20));
		assert.equal(published, 3);
		events.emit('traffic:snapshot', quiet.snapshot(now + 5 * 60_000));
		await new Promise(resolve => setTimeout(resolve, 20));
		assert.equal(published, 3, 'an hour without requests, minutes later: still nothing to draw');
	} finally {
		off();
	}
});

test('a request read from the store after another gateway recorded it counts in the minute it finished, not the minute it was read', () => {
	const counter = new TrafficCounter();
	// Arrived 5 minutes ago and took 61 s: it finished in the fourth minute back.
	counter.recordStored(event({time: new Date(minutesAgo(5)).toISOString(), latencyMs: 61_000}), now);
	counter.recordStored(event({time: new Date(minutesAgo(5)).toISOString(), latencyMs: 61_000, status: 502, outcome: 'error'}), now);
	// Before the last hour's window (its tokens are the usage totals' hours), or with no time that reads: left out.
	counter.recordStored(event({time: new Date(minutesAgo(120)).toISOString()}), now);
	counter.recordStored(event({time: 'not a time'}), now);
	// A clock ahead of this one: counted now.
	counter.recordStored(event({time: new Date(now + 120_000).toISOString()}), now);
	const snapshot = counter.snapshot(now);
	assert.equal(snapshot.lastHour.requests.at(-5), 2, 'in the minute it finished');
	assert.equal(snapshot.lastHour.errors.at(-5), 1);
	assert.equal(snapshot.lastHour.p50.at(-5), 61_000);
	assert.equal(snapshot.lastHour.requests.at(-1), 1, 'the one from a clock ahead, now');
	assert.equal(snapshot.lastHour.total.requests, 3);
	assert.equal(snapshot.channels.get('ch_openai')?.total.requests, 3);
});

test('the charts count the requests the log reads from the store (other gateways\', and the history it opens with): here, or by the core that serves here', async () => {
	const {EventBus} = await import('../../source/base/events.js');
	const {createTraffic} = await import('../../source/ui/traffic.js');
	const stored = (id: string) => event({id, time: new Date(Date.now() - 1500).toISOString()});
	// No gateway here (its port taken by another): counted on this thread.
	const events = new EventBus();
	const alone = createTraffic(events, {intervalMs: 5});
	const offAlone = alone.subscribe(() => {});
	// A gateway here: its core counts them (its snapshots are the charts' only source).
	const handed: string[] = [];
	const coreEvents = new EventBus();
	const withCore = createTraffic(coreEvents, {intervalMs: 5, countStored: records => handed.push(...records.map(record => record.id))});
	const offCore = withCore.subscribe(() => {});
	try {
		events.emit('requests:stored', {recent: [stored('a'), stored('b')], count: 2, failed: 0});
		coreEvents.emit('requests:stored', {recent: [stored('a'), stored('b')], count: 2, failed: 0});
		// The stored requests the log opened with (from before this TUI started) count the same way.
		events.emit('requests:history', [stored('h')]);
		coreEvents.emit('requests:history', [stored('h')]);
		await new Promise(resolve => setTimeout(resolve, 40));
		assert.equal(alone.current.lastHour.total.requests, 3);
		assert.equal(alone.current.channels.get('ch_openai')?.total.requests, 3);
		assert.deepEqual(handed, ['a', 'b', 'h']);
		assert.equal(withCore.current.lastHour.total.requests, 0, 'not counted twice: the core\'s next snapshot has them');
	} finally {
		offAlone();
		offCore();
	}
});

test('stored requests that arrive while the core is starting wait for it: handed to it once it serves, counted here once it cannot', async () => {
	const {EventBus} = await import('../../source/base/events.js');
	const {createTraffic} = await import('../../source/ui/traffic.js');
	const stored = (id: string) => event({id, time: new Date(Date.now() - 1500).toISOString()});
	const handed: string[] = [];
	let serves!: (count: ((records: readonly RequestFinished[]) => void) | undefined) => void;
	let cannot!: (count: undefined) => void;
	const servingEvents = new EventBus();
	const serving = createTraffic(servingEvents, {intervalMs: 5, countStored: new Promise(resolve => (serves = resolve))});
	const notServingEvents = new EventBus();
	const notServing = createTraffic(notServingEvents, {intervalMs: 5, countStored: new Promise(resolve => (cannot = resolve))});
	const offs = [serving.subscribe(() => {}), notServing.subscribe(() => {})];
	try {
		servingEvents.emit('requests:history', [stored('h')]);
		notServingEvents.emit('requests:history', [stored('h')]);
		await new Promise(resolve => setTimeout(resolve, 40));
		assert.equal(handed.length, 0, 'nobody counts them yet');
		assert.equal(notServing.current.lastHour.total.requests, 0);
		serves(records => handed.push(...records.map(record => record.id)));
		cannot(undefined);
		await new Promise(resolve => setTimeout(resolve, 40));
		assert.deepEqual(handed, ['h']);
		assert.equal(serving.current.lastHour.total.requests, 0, 'the core counts them, not this thread');
		assert.equal(notServing.current.lastHour.total.requests, 1);
		// From then on at once.
		servingEvents.emit('requests:stored', {recent: [stored('s')], count: 1, failed: 0});
		assert.deepEqual(handed, ['h', 's']);
	} finally {
		for (const off of offs) off();
	}
});
