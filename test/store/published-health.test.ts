/**
 * The channel health the running gateways publish: a record each, in every kind of store. A reader
 * sees the running gateways only (a record not rewritten for three heartbeats is a gateway gone);
 * a gateway that starts removes those and the one record older versions shared; one that stops
 * withdraws its own.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventBus, type ChannelHealthView} from '../../source/base/events.js';
import {Store} from '../../source/store/index.js';
import {HealthPublisher} from '../../source/proxy/health-publisher.js';
import {allPublishedHealth, channelHealthAcross, legacyHealthKey, publishedHealth, publishedHealthKey, readPublishedHealth, staleAfterMs} from '../../source/store/published-health.js';
import {eventually} from '../helpers/sdks.js';
import {storeKinds, tempDir} from './stores.js';

const {kinds} = storeKinds();

const view = (state: ChannelHealthView['state'], reason: string | null = null): ChannelHealthView => ({channelId: 'ch_1', channelName: 'one', state, reason, since: '2026-11-28T10:00:00.000Z', retryAt: null});

for (const kind of kinds) {
	test(`${kind.name}: each gateway's record, fresh ones read, stale ones and the old shared one removed at start, its own withdrawn at stop`, {skip: kind.skip}, async () => {
		const store = await Store.open(await kind.freshUrl(), {home: tempDir()});
		const [a, b] = [new EventBus(), new EventBus()];
		const publishers = [new HealthPublisher(store, a, {delayMs: 5, heartbeatMs: 40}), new HealthPublisher(store, b, {delayMs: 5, heartbeatMs: 40})];
		try {
			// A gateway killed an hour ago, and the record versions before this one shared.
			const longAgo = new Date(Date.now() - 3_600_000).toISOString();
			await publishedHealth(store).set(publishedHealthKey('killed'), {v: 1, updatedAt: longAgo, pid: 1, channels: {ch_1: view('unavailable', 'from a gateway long gone')}});
			await publishedHealth(store).set(legacyHealthKey, {v: 1, updatedAt: new Date().toISOString(), pid: 2, channels: {}});
			// And one another version wrote in a form this one cannot read: left out, never an error.
			await store.raw('meta').set(publishedHealthKey('future'), {v: 2, updatedAt: new Date().toISOString(), gateways: 'elsewhere'});
			assert.deepEqual(await readPublishedHealth(store), [], 'stale, old-style and unreadable records are not running gateways');
			assert.equal(channelHealthAcross(await readPublishedHealth(store), 'ch_1'), null);
			// Not started (not listening yet): a change publishes nothing.
			a.emit('channel:health', view('degraded'));
			await new Promise(resolve => setTimeout(resolve, 30));
			assert.deepEqual(await readPublishedHealth(store), []);
			for (const publisher of publishers) publisher.start();
			await eventually(async () => (await readPublishedHealth(store)).length === 2, 3000, 'both records');
			await eventually(async () => (await allPublishedHealth(store)).length === 2 && (await publishedHealth(store).get(legacyHealthKey)) === undefined, 3000, 'the stale records removed');
			assert.equal(await store.raw('meta').has(publishedHealthKey('future')), true, 'a record this version cannot read is not its to remove');
			assert.deepEqual(channelHealthAcross(await readPublishedHealth(store), 'ch_1'), {state: 'degraded', reason: null, since: '2026-11-28T10:00:00.000Z', retryAt: null, gateways: 2, affected: 1, lacking: []});
			b.emit('channel:health', view('unavailable', 'HTTP 500'));
			await eventually(async () => channelHealthAcross(await readPublishedHealth(store), 'ch_1')?.state === 'unavailable', 3000, 'the worst view');
			assert.equal(channelHealthAcross(await readPublishedHealth(store), 'ch_1')?.affected, 2);
			// The heartbeat rewrites a record with no change: a reader an hour on would call it stale, one now not.
			const [, before] = (await allPublishedHealth(store))[0]!;
			await eventually(async () => (await allPublishedHealth(store)).every(([, record]) => record.updatedAt > before.updatedAt), 3000, 'a heartbeat');
			assert.equal((await readPublishedHealth(store, Date.now() + staleAfterMs + 1000)).length, 0);
			await publishers[1]!.close();
			assert.deepEqual(channelHealthAcross(await readPublishedHealth(store), 'ch_1'), {state: 'degraded', reason: null, since: '2026-11-28T10:00:00.000Z', retryAt: null, gateways: 1, affected: 1, lacking: []});
			await publishers[0]!.close();
			assert.deepEqual(await allPublishedHealth(store), []);
			assert.equal(await store.raw('meta').has(publishedHealthKey('future')), true);
		} finally {
			for (const publisher of publishers) await publisher.close();
			await store.close();
		}
	});
}

test('what a channel lately lacked is published with its time: readers take each model once, until the latest time a gateway remembers it, and none past it', async () => {
	const store = await Store.open(await kinds[0]!.freshUrl(), {home: tempDir()});
	const [a, b] = [new EventBus(), new EventBus()];
	const publishers = [new HealthPublisher(store, a, {delayMs: 5, heartbeatMs: 40}), new HealthPublisher(store, b, {delayMs: 5, heartbeatMs: 40})];
	try {
		for (const publisher of publishers) publisher.start();
		const now = Date.now();
		const at = (ms: number) => new Date(now + ms).toISOString();
		// Told only what it lacks: healthy, with no "since" of its own (health.ts publishes such a view).
		a.emit('channel:health', {...view('healthy'), since: '', lacking: [{model: 'claude-sonnet-4-5', until: at(10 * 60_000)}]});
		b.emit('channel:health', {...view('degraded', 'HTTP 429'), lacking: [{model: 'claude-sonnet-4-5', until: at(4 * 60_000)}, {model: 'gpt-4o', until: at(2 * 60_000)}, {model: 'forgotten', until: at(-1000)}]});
		await eventually(async () => (await readPublishedHealth(store)).filter(record => record.channels.ch_1).length === 2, 3000, 'both views');
		const records = await readPublishedHealth(store);
		assert.deepEqual(channelHealthAcross(records, 'ch_1', now)?.lacking, [
			{model: 'gpt-4o', until: at(2 * 60_000)},
			{model: 'claude-sonnet-4-5', until: at(10 * 60_000)},
		]);
		assert.deepEqual(channelHealthAcross(records, 'ch_1', now + 5 * 60_000)?.lacking, [{model: 'claude-sonnet-4-5', until: at(10 * 60_000)}]);
		assert.deepEqual(channelHealthAcross(records, 'ch_1', now + 11 * 60_000)?.lacking, []);
		assert.deepEqual(channelHealthAcross(records, 'ch_2', now)?.lacking, [], 'another channel lacks nothing');
	} finally {
		for (const publisher of publishers) await publisher.close();
		await store.close();
	}
});
