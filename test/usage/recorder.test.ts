/**
 * The recorder against a real store: batching, instances that share one store, adoption of a
 * cleanly closed instance, retention, percentiles and following the log.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {Store} from '../../source/store/index.js';
import {chunkId, chunks, journals} from '../../source/store/usage.js';
import {maxModelsPerDay, otherModels, UsageRecorder} from '../../source/proxy/usage-recorder.js';
import {openRequestLog, recentRequests, usageSummaries, usageSummary, watchRequests, type RequestRecord} from '../../source/store/usage-summary.js';
import * as z from 'zod/mini';
import type {UsageQuery} from '../../source/base/usage-types.js';
import {binValue, latencyBin, localDay, percentile} from '../../source/store/usage-buckets.js';
import {EventBus, eventTypeOf} from '../../source/base/events.js';
import {retentionFromEnv} from '../../source/store/usage-retention.js';
import {tempHome} from '../helpers/gateway.js';
import {ago, finished} from './events.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {eventually} from '../helpers/sdks.js';

const day = 86_400_000;

async function withHome(run: (home: string) => Promise<void>): Promise<void> {
	const home = tempHome();
	try {
		await run(home);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
}

test('nothing is written on record(); the flush half a second later writes records and totals in one batch', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const clock = new FakeClock();
		const recorder = new UsageRecorder(store, {adopt: false, clock});
		recorder.start();
		recorder.record(finished({usage: {inputTokens: 100, outputTokens: 20, cachedTokens: 40, reasoningTokens: 5}}));
		recorder.record(finished({status: 502, outcome: 'error', usage: null, error: 'upstream down', latencyMs: 3000}));
		recorder.record(finished({outcome: 'aborted', stream: true, usage: {inputTokens: 7, outputTokens: 1}}));
		assert.deepEqual(await recentRequests(store, 10), [], 'nothing in the store before the flush');
		await clock.advance(499);
		assert.deepEqual(await recentRequests(store, 10), [], 'nothing in the store before the flush interval is up');
		await clock.advance(1);
		const records = await recentRequests(store, 10);
		assert.equal(records.length, 3);
		assert.deepEqual(records.map(record => record.eventType), ['routed', 'failed', 'routed']);
		assert.deepEqual(records.map(record => record.attempts), [['oa'], ['oa'], ['oa']]);
		const [row] = await usageSummary(store, {by: 'key'});
		assert.deepEqual({...row, latencyP50Ms: undefined, latencyP95Ms: undefined}, {
			group: 'alpha',
			id: 'key_a',
			requests: 3,
			succeeded: 1,
			failed: 1,
			aborted: 1,
			inputTokens: 107,
			outputTokens: 21,
			cachedTokens: 40,
			reasoningTokens: 5,
			costUsd: 0,
			unpriced: true,
			latencyP50Ms: undefined,
			latencyP95Ms: undefined,
		});
		await recorder.close();
		assert.equal(clock.pending, 0, 'close stops the flush and prune timers');
		await store.close();
	});
});

test('model lists and token counts are logged but not counted in the totals', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const recorder = new UsageRecorder(store, {adopt: false});
		recorder.record(finished({method: 'GET', path: '/v1/models', model: null, upstreamModel: null, channelId: null, channelName: null, usage: null}));
		recorder.record(finished({path: '/v1/messages/count_tokens', inboundFormat: 'anthropic', usage: null}));
		recorder.record(finished());
		await recorder.close();
		assert.equal((await recentRequests(store, 10)).length, 3);
		assert.equal((await usageSummary(store, {by: 'model'}))[0]!.requests, 1);
		await store.close();
	});
});

test('a day keeps at most maxModelsPerDay model names apart: further names are counted under "(other models)", the log keeps each name; an adopted day counts its stored names', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const first = new UsageRecorder(store);
		first.start();
		// A key holder sending a new (unknown) model name with every request.
		for (let n = 0; n < maxModelsPerDay + 50; n++) first.record(finished({model: `typo-${n}`, channelId: null, channelName: null, status: 404, outcome: 'error', usage: null}));
		first.record(finished({model: 'typo-0', channelId: null, channelName: null, status: 404, outcome: 'error', usage: null}));
		await first.close();
		let rows = await usageSummary(store, {by: 'model'});
		assert.equal(rows.length, maxModelsPerDay + 1, 'the first names and one row for the rest');
		assert.equal(rows.find(row => row.group === otherModels)?.requests, 50);
		assert.equal(rows.find(row => row.group === 'typo-0')?.requests, 2, 'a name already counted stays its own row');
		assert.equal(rows.reduce((sum, row) => sum + row.requests, 0), maxModelsPerDay + 51, 'every request counted');
		const logged = await recentRequests(store, maxModelsPerDay + 51);
		assert.equal(logged.at(-2)!.model, `typo-${maxModelsPerDay + 49}`, 'the log keeps the name as sent');

		// The next process adopts the instance: the day's stored names count toward the cap once it has loaded them.
		const second = new UsageRecorder(store);
		second.start();
		second.record(finished({model: 'typo-1', channelId: null, channelName: null, status: 404, outcome: 'error', usage: null}));
		await second.flush();
		second.record(finished({model: 'fresh-name', channelId: null, channelName: null, status: 404, outcome: 'error', usage: null}));
		await second.close();
		assert.equal(second.instance, first.instance, 'adopted');
		rows = await usageSummary(store, {by: 'model'});
		assert.equal(rows.length, maxModelsPerDay + 1, 'no new row once the stored names are loaded');
		assert.equal(rows.find(row => row.group === otherModels)?.requests, 51);
		assert.equal(rows.find(row => row.group === 'typo-1')?.requests, 2);
		await store.close();
	});
});

test('two recorders (two processes) writing to one store are summed, with interleaved flushes', async () => {
	await withHome(async home => {
		const [storeA, storeB] = [await Store.open(home), await Store.open(home)];
		const a = new UsageRecorder(storeA, {adopt: false});
		const b = new UsageRecorder(storeB, {adopt: false});
		for (let i = 0; i < 3; i++) a.record(finished({latencyMs: 100}));
		await a.flush();
		for (let i = 0; i < 2; i++) b.record(finished({latencyMs: 1000, usage: {inputTokens: 1, outputTokens: 1}}));
		await b.flush();
		a.record(finished({latencyMs: 100}));
		b.record(finished({latencyMs: 1000, keyId: 'key_b', keyName: 'beta', usage: {inputTokens: 1, outputTokens: 1}}));
		await Promise.all([a.flush(), b.flush()]);
		assert.notEqual(a.instance, b.instance);
		assert.equal((await journals(storeA).list()).length, 2);

		const byModel = await usageSummary(storeA, {by: 'model'});
		assert.equal(byModel.length, 1);
		assert.deepEqual([byModel[0]!.requests, byModel[0]!.inputTokens, byModel[0]!.outputTokens], [7, 43, 23]);
		assert.equal(byModel[0]!.latencyP50Ms, binValue(latencyBin(100)), 'p50 from the summed histograms: 4 of 7 at 100 ms');
		assert.equal(byModel[0]!.latencyP95Ms, binValue(latencyBin(1000)));
		const byKey = await usageSummary(storeB, {by: 'key'});
		assert.deepEqual(byKey.map(row => [row.group, row.requests]), [['alpha', 6], ['beta', 1]]);
		assert.equal((await recentRequests(storeB, 100)).length, 7);
		await Promise.all([a.close(), b.close()]);
		await Promise.all([storeA.close(), storeB.close()]);
	});
});

test('a new process adopts a cleanly closed instance and adds to its totals; two starting together never share one', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const first = new UsageRecorder(store);
		first.start();
		first.record(finished());
		await first.close();

		const second = new UsageRecorder(store);
		second.start();
		second.record(finished());
		await second.flush();
		assert.equal(second.instance, first.instance, 'adopted');
		assert.equal((await usageSummary(store, {by: 'key'}))[0]!.requests, 2);
		await second.close();

		const otherStore = await Store.open(home);
		const [x, y] = [new UsageRecorder(store), new UsageRecorder(otherStore)];
		x.start();
		y.start();
		x.record(finished());
		y.record(finished());
		await Promise.all([x.flush(), y.flush()]);
		assert.notEqual(x.instance, y.instance);
		assert.ok([x.instance, y.instance].includes(first.instance), 'one of them adopted the closed instance');
		await Promise.all([x.close(), y.close()]);
		assert.equal((await usageSummary(store, {by: 'key'}))[0]!.requests, 4);
		assert.equal((await recentRequests(store, 10)).length, 4);
		await Promise.all([store.close(), otherStore.close()]);
	});
});

test('several groupings from one read: the rows of each query as asked alone, the store read once for all of them', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const recorder = new UsageRecorder(store, {adopt: false});
		// Two days, two keys, two models, two channels, one request without a channel.
		recorder.record(finished({time: ago(2 * day)}));
		recorder.record(finished({keyId: 'key_b', keyName: 'beta', model: 'gpt-4o'}));
		recorder.record(finished({model: 'gpt-4o', channelId: 'ch_2', channelName: 'second', usage: {inputTokens: 40, outputTokens: 9}}));
		recorder.record(finished({channelId: null, channelName: null, status: 404, outcome: 'error', usage: null}));
		await recorder.flush();
		const today = new Date(new Date().setHours(0, 0, 0, 0));
		const queries: UsageQuery[] = [{by: 'key', since: today}, {by: 'model', since: today}, {by: 'key'}, {by: 'model'}, {by: 'channel'}, {by: 'day'}, {by: 'hour'}, {by: 'key', routedOnly: true}];
		const alone = [];
		for (const query of queries) alone.push(await usageSummary(store, query));
		// Count what the store is asked for, under the collections the summaries read.
		const reads: Record<string, number> = {};
		for (const namespace of ['usage', 'journals', 'keys', 'channels'] as const) {
			const keyv = store.raw(namespace);
			const get = keyv.get.bind(keyv);
			keyv.get = ((...args: Parameters<typeof get>) => {
				reads[`${namespace} get`] = (reads[`${namespace} get`] ?? 0) + 1;
				return get(...args);
			}) as typeof keyv.get;
			const iterator = keyv.iterator!.bind(keyv);
			keyv.iterator = ((...args: Parameters<typeof iterator>) => {
				reads[`${namespace} list`] = (reads[`${namespace} list`] ?? 0) + 1;
				return iterator(...args);
			}) as typeof keyv.iterator;
		}
		const together = await usageSummaries(store, queries);
		assert.deepEqual(together, alone);
		assert.ok(alone[0]!.length === 2 && alone[2]!.length === 2 && alone[5]!.length === 2, 'two keys today and in all, two days');
		assert.deepEqual(reads, {'journals list': 1, 'keys list': 1, 'channels list': 1, 'usage get': 2}, 'each collection read once, each day document once');
		await recorder.close();
		await store.close();
	});
});

test('retention: the newest N records are kept (in whole chunks), nothing older than the day limit, totals for their own limit', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const retention = {maxRequests: 12, maxDays: 30, usageDays: 60};
		const recorder = new UsageRecorder(store, {adopt: false, chunkSize: 5, retention});
		for (let i = 0; i < 5; i++) recorder.record(finished({time: ago(90 * day + i * 1000)}));
		for (let i = 0; i < 5; i++) recorder.record(finished({time: ago(40 * day + i * 1000)}));
		await recorder.flush();
		for (let i = 30; i > 0; i--) recorder.record(finished({id: `recent_${i}`, time: ago(i * 1000)}));
		await recorder.flush();
		// 40 records are past 12 by more than a quarter, so that flush queued a prune of its own; this
		// one runs after it, and the two together leave what retention keeps.
		await recorder.prune();
		const kept = await recentRequests(store, 1000);
		assert.ok(kept.length >= 12 && kept.length < 12 + 5, `kept ${kept.length}`);
		assert.equal(kept.at(-1)!.id, 'recent_1', 'the newest is kept');
		assert.ok(kept.every(record => record.id.startsWith('recent_')), 'nothing older than 30 days');
		const days = (await usageSummary(store, {by: 'day'})).map(row => row.group);
		assert.ok(days.includes(localDay(new Date(Date.now() - 40 * day))), 'totals outlive the records');
		assert.ok(!days.includes(localDay(new Date(Date.now() - 90 * day))));

		recorder.record(finished({id: 'after-prune'}));
		await recorder.close();
		assert.equal((await recentRequests(store, 1)).at(-1)!.id, 'after-prune', 'recording goes on after pruning');
		await store.close();
	});
});

test('under sustained traffic the log is pruned once it passes retention by a quarter, not only on the five-minute timer', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const clock = new FakeClock();
		const retention = {maxRequests: 100, maxDays: 30, usageDays: 60};
		const recorder = new UsageRecorder(store, {adopt: false, chunkSize: 10, retention, clock});
		recorder.start();
		// Thirty flushes of twenty records: 600 records in 15 s of (fake) time, the prune timer never due.
		for (let flush = 0; flush < 30; flush++) {
			for (let i = 0; i < 20; i++) recorder.record(finished({id: `r_${flush}_${i}`, time: ago(1000 - flush * 20 - i)}));
			await clock.advance(500);
		}
		await recorder.flush();
		const kept = await recentRequests(store, 10_000);
		assert.ok(kept.length >= 100 && kept.length <= 125 + 2 * 10 + 20, `kept ${kept.length} of 600 (retention 100)`);
		assert.equal(kept.at(-1)!.id, 'r_29_19', 'the newest is kept');
		const [journal] = await journals(store).list();
		assert.ok(journal!.chunks.length <= 15, `the journal lists ${journal!.chunks.length} chunks`);
		await recorder.close();
		await store.close();
	});
});

test('a store that is down gets one warning a flush, even with the log past retention (no prune is queued after a failed write)', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const clock = new FakeClock();
		const events = new EventBus();
		const warnings: string[] = [];
		events.on('warning', ({message}) => warnings.push(message));
		const recorder = new UsageRecorder(store, {adopt: false, chunkSize: 10, retention: {maxRequests: 100, maxDays: 30, usageDays: 60}, clock, events});
		recorder.start();
		// start() queues a prune once its claim settles: let it be queued, then wait for the queue.
		await new Promise(resolve => setImmediate(resolve));
		await recorder.flush();
		for (let i = 0; i < 300; i++) recorder.record(finished({id: `r_${i}`}));
		await store.close();
		for (let flush = 0; flush < 3; flush++) await clock.advance(500);
		await recorder.flush().catch(() => {});
		assert.equal(warnings.length, 3, warnings.join('\n'));
		assert.ok(warnings.every(message => message.startsWith('could not save usage')), warnings.join('\n'));
		await recorder.close();
	});
});

test('a flush writes all its chunks in one statement, and a prune deletes them in one (each statement was a transaction)', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const statements: string[] = [];
		const adapter = (store.raw('requests') as unknown as {store: {query: (sql: string, ...args: unknown[]) => Promise<unknown>}}).store;
		const query = adapter.query.bind(adapter);
		adapter.query = async (sql: string, ...args: unknown[]) => {
			const verb = sql.trim().split(/\s+/)[0]!.toUpperCase();
			if (verb !== 'PRAGMA') statements.push(verb); // the connection's set-up (see backend-sqlite.ts)
			return query(sql, ...args);
		};
		const recorder = new UsageRecorder(store, {adopt: false, chunkSize: 10, retention: {maxRequests: 100_000, maxDays: 30, usageDays: 60}});
		for (let i = 0; i < 1000; i++) recorder.record(finished({id: `r_${i}`, time: ago(60 * day - i * 1000)}));
		statements.length = 0;
		await recorder.flush();
		assert.deepEqual(statements, ['INSERT'], '100 chunks, one statement');
		assert.equal((await recentRequests(store, 10_000)).length, 1000);
		statements.length = 0;
		const result = await recorder.prune();
		assert.equal(result.chunks, 100, 'every record is past the 30-day limit');
		assert.deepEqual(statements, ['DELETE'], '100 chunks, one statement');
		assert.deepEqual(await recentRequests(store, 10_000), []);
		await recorder.close();
		await store.close();
	});
});

test('retention settings come from the environment; bad values say what to set', () => {
	assert.deepEqual(retentionFromEnv({}), {maxRequests: 100_000, maxDays: 30, usageDays: 400});
	assert.deepEqual(retentionFromEnv({GATEWAY_TUI_KEEP_REQUESTS: '500', GATEWAY_TUI_KEEP_DAYS: '7', GATEWAY_TUI_KEEP_USAGE_DAYS: '90'}), {maxRequests: 500, maxDays: 7, usageDays: 90});
	assert.throws(() => retentionFromEnv({GATEWAY_TUI_KEEP_DAYS: 'a week'}), /GATEWAY_TUI_KEEP_DAYS="a week" is not a whole number above 0: set it to e\.g\. 30/);
	assert.throws(() => retentionFromEnv({GATEWAY_TUI_KEEP_REQUESTS: '0'}), /GATEWAY_TUI_KEEP_REQUESTS/);
});

test('latency histogram: percentiles within 5 %, summable', () => {
	const histogram: Record<string, number> = {};
	for (let ms = 1; ms <= 1000; ms++) histogram[latencyBin(ms)] = (histogram[latencyBin(ms)] ?? 0) + 1;
	const p50 = percentile(histogram, 0.5)!;
	const p95 = percentile(histogram, 0.95)!;
	assert.ok(Math.abs(p50 - 500) / 500 < 0.05, `p50 ${p50}`);
	assert.ok(Math.abs(p95 - 950) / 950 < 0.05, `p95 ${p95}`);
	assert.equal(percentile({}, 0.5), null);
	assert.equal(binValue(latencyBin(0)), 0);
	assert.ok(latencyBin(10 * 3_600_000) === latencyBin(20 * 3_600_000), 'very long requests share the last bin');
});

test('event types: derived from status and channel unless the relay says (failover with its chain)', () => {
	assert.equal(eventTypeOf(finished()), 'routed');
	assert.equal(eventTypeOf(finished({status: 500, outcome: 'error'})), 'failed');
	assert.equal(eventTypeOf(finished({status: 401, outcome: 'error', keyId: null, keyName: null, model: null, channelId: null})), 'rejected');
	assert.equal(eventTypeOf(finished({status: 403, outcome: 'error', channelId: null})), 'rejected');
	assert.equal(eventTypeOf(finished({status: 404, outcome: 'error', channelId: null})), 'no-channel');
	assert.equal(eventTypeOf(finished({attempts: ['a', 'b']})), 'failover');
	assert.equal(eventTypeOf(finished({eventType: 'failover', attempts: ['a', 'b'], status: 502, outcome: 'error'})), 'failover');
});

test('openRequestLog: a poll for the newest few reads only the chunks that hold them; chunks pruned from the journals are forgotten', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const writerStore = await Store.open(home);
		const writer = new UsageRecorder(writerStore, {adopt: false, chunkSize: 2, retention: {maxRequests: 4, maxDays: 30, usageDays: 400}});
		try {
			const {reader} = await openRequestLog(store);
			for (let i = 1; i <= 10; i++) writer.record(finished({id: `r_${i}`, time: ago(10_000 - i)}));
			await writer.flush();
			// The three older chunks are made unreadable: a poll that read one would fail.
			const entries = (await journals(store).list()).flatMap(journal => journal.chunks.map(entry => ({...entry, id: chunkId(journal.instance, entry.seq)})));
			assert.equal(entries.length, 5);
			const older = entries.sort((a, b) => a.last.localeCompare(b.last)).slice(0, 3);
			const raw = store.collection('requests', z.object({}), 'request log chunk');
			for (const entry of older) await raw.set(entry.id, {});
			assert.deepEqual((await reader.poll(3)).map(record => record.id), ['r_8', 'r_9', 'r_10'], 'the newest three, oldest first, from the two newest chunks');
			assert.deepEqual(await reader.poll(3), [], 'what was passed over is not read later');
			assert.equal(reader.tracked, 5);
			for (const entry of older) await chunks(store).delete(entry.id);
			await writer.prune();
			await writer.flush(); // the journal without them
			const left = (await journals(store).list()).flatMap(journal => journal.chunks).length;
			assert.ok(left < 5, `pruning left ${left} chunks`);
			await reader.poll();
			assert.equal(reader.tracked, left, 'pruned chunks are forgotten');
		} finally {
			await writer.close();
			await Promise.all([store.close(), writerStore.close()]);
		}
	});
});

test('openRequestLog with a reach: the newest records and every one since a time, up to a most; chunks older than both are not read', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const writer = new UsageRecorder(store, {adopt: false, chunkSize: 3});
		// Two hours back, 12 records; in the last hour, 30 (a minute apart).
		for (let i = 0; i < 12; i++) writer.record(finished({id: `old_${i}`, time: ago(2 * 3_600_000 - i * 1000)}));
		for (let i = 0; i < 30; i++) writer.record(finished({id: `new_${i}`, time: ago((30 - i) * 60_000)}));
		await writer.close();
		const since = new Date(Date.now() - 3_600_000);
		const ids = (records: readonly RequestRecord[]) => records.map(record => record.id);
		const newest = (n: number) => Array.from({length: n}, (_, i) => `new_${30 - n + i}`);
		assert.deepEqual(ids((await openRequestLog(store, {tail: 5, reach: {since, max: 100}})).tail), newest(30), 'all of the last hour, oldest first');
		assert.deepEqual(ids((await openRequestLog(store, {tail: 5, reach: {since, max: 12}})).tail), newest(12), 'at most the reach\'s most');
		assert.deepEqual(ids((await openRequestLog(store, {tail: 33, reach: {since, max: 100}})).tail), [...['old_9', 'old_10', 'old_11'], ...newest(30)], 'the tail beyond the hour when it asks for more');
		assert.deepEqual(ids((await openRequestLog(store, {tail: 5})).tail), newest(5), 'without a reach, the tail alone');
		// The chunks that hold only the older records are made unreadable: a reach that read one would fail.
		const entries = (await journals(store).list()).flatMap(journal => journal.chunks.map(entry => ({...entry, id: chunkId(journal.instance, entry.seq)})));
		const raw = store.collection('requests', z.object({}), 'request log chunk');
		for (const entry of entries.filter(item => item.last < since.toISOString())) await raw.set(entry.id, {});
		assert.deepEqual(ids((await openRequestLog(store, {tail: 5, reach: {since, max: 100}})).tail), newest(30));
		await store.close();
	});
});

test('watchRequests: the tail, then records as they land, each once', async () => {
	await withHome(async home => {
		const store = await Store.open(home);
		const writerStore = await Store.open(home);
		const writer = new UsageRecorder(writerStore, {adopt: false});
		for (let i = 1; i <= 3; i++) writer.record(finished({id: `old_${i}`, time: ago(10_000 - i)}));
		await writer.flush();
		const controller = new AbortController();
		const seen: RequestRecord[] = [];
		const watching = (async () => {
			for await (const record of watchRequests(store, {tail: 2, pollMs: 30, signal: controller.signal})) {
				seen.push(record);
				if (seen.length === 4) controller.abort();
			}
		})();
		// Each write waits until the watcher has shown what came before it, so the second lands in
		// a chunk the watcher has already read from: it must show only the new record.
		await eventually(() => seen.length === 2, 3000, 'the tail');
		writer.record(finished({id: 'new_1'}));
		await writer.flush();
		await eventually(() => seen.length === 3, 3000, 'the first new record');
		writer.record(finished({id: 'new_2'}));
		await writer.flush();
		await watching;
		assert.deepEqual(seen.map(record => record.id), ['old_2', 'old_3', 'new_1', 'new_2']);
		await writer.close();
		await Promise.all([store.close(), writerStore.close()]);
	});
});

test('each request counts in the local hour and day of its own time, across hour and midnight boundaries in a zone 5:45 off UTC', async () => {
	const zone = process.env.TZ;
	process.env.TZ = 'Asia/Kathmandu';
	try {
		await withHome(async home => {
			const store = await Store.open(home);
			const recorder = new UsageRecorder(store, {adopt: false});
			// Two days ago, local: an hour boundary (at :15 UTC here) and the next local midnight. The boundary is 11:00,
			// not the hour after the current one: run between 22:00 and midnight there, that hour was 23:00, whose last
			// minute is also midnight's eve, and the times fell in three local hours.
			const now = new Date();
			const base = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 2, 10, 30);
			const hour = new Date(base.getFullYear(), base.getMonth(), base.getDate(), base.getHours() + 1).getTime();
			const midnight = new Date(base.getFullYear(), base.getMonth(), base.getDate() + 1).getTime();
			const times = [hour - 60_001, hour - 1, hour, hour + 30_000, hour + 59_999, hour + 60_000, midnight - 1, midnight, midnight + 1];
			for (const time of times) recorder.record(finished({time: new Date(time).toISOString()}));
			await recorder.close();
			const expected = new Map<string, number>();
			for (const time of times) {
				const date = new Date(time);
				const group = `${localDay(date)} ${String(date.getHours()).padStart(2, '0')}:00`;
				expected.set(group, (expected.get(group) ?? 0) + 1);
			}
			const rows = await usageSummary(store, {by: 'hour', since: new Date(hour - 2 * 3_600_000)});
			assert.deepEqual(new Map(rows.map(row => [row.group, row.requests])), expected);
			assert.equal(expected.size, 4, 'the times fall in four local hours');
			await store.close();
		});
	} finally {
		if (zone === undefined) delete process.env.TZ;
		else process.env.TZ = zone;
	}
});
