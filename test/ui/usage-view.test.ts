/**
 * The Usage numbers poll the store every few seconds (another gateway may share it); a poll that
 * reads what is already shown must not publish, because each publish redraws the whole screen
 * (an idle TUI redrew every 5 s and kept V8's young generation full-sized for nothing).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventBus} from '../../source/base/events.js';
import type {UsageRow} from '../../source/base/usage-types.js';
import {createUsageView, sameUsage, emptyUsage} from '../../source/ui/usage-view.js';
import {eventually} from '../helpers/sdks.js';

const row = (requests: number): UsageRow => ({group: 'ci', id: 'key_1', requests, succeeded: requests, failed: 0, inputTokens: 10 * requests, outputTokens: 5 * requests, cachedTokens: 0, reasoningTokens: 0, costUsd: 0, unpriced: false, latencyP50Ms: 200, latencyP95Ms: 400});

test('a poll that reads the same numbers publishes nothing; changed numbers are published', async () => {
	let requests = 3;
	let reads = 0;
	const view = createUsageView(new EventBus(), async queries => {
		reads += queries.length;
		return queries.map(() => [row(requests)]);
	}, {delayMs: 10, pollMs: 20});
	let published = 0;
	const unsubscribe = view.subscribe(() => published++);
	try {
		await eventually(() => reads >= 5 * 6, 5000, 'six polls (five queries each)');
		assert.equal(published, 1, 'only the first read changed anything');
		assert.equal(view.getSnapshot().today.byKey[0]?.requests, 3);
		requests = 4;
		await eventually(() => published === 2, 5000, 'the changed numbers published');
		assert.equal(view.getSnapshot().all.byKey[0]?.requests, 4);
		const before = reads;
		await eventually(() => reads >= before + 5 * 3, 5000, 'three more polls');
		assert.equal(published, 2);
	} finally {
		unsubscribe();
	}
});

test('sameUsage compares the numbers, not the objects', () => {
	const a = {today: {byKey: [row(1)], byModel: []}, all: {byKey: [row(1)], byModel: []}, lastDay: [], error: null};
	assert.ok(sameUsage(a, structuredClone(a)));
	assert.ok(!sameUsage(a, {...a, all: {byKey: [row(2)], byModel: []}}));
	assert.ok(!sameUsage(a, {...a, error: 'Usage totals could not be read: locked'}));
	assert.ok(sameUsage(emptyUsage, structuredClone(emptyUsage)));
});

test('a read that fails keeps the last figures and says so, what failed and when it is read again; the next good read clears it', async () => {
	let fail = false;
	let reads = 0;
	const events = new EventBus();
	const view = createUsageView(events, async queries => {
		reads++;
		if (fail) throw new Error('SQLITE_BUSY: database is locked');
		return queries.map(() => [row(3)]);
	}, {delayMs: 10, pollMs: 20});
	const unsubscribe = view.subscribe(() => {});
	try {
		await eventually(() => view.getSnapshot().today.byKey[0]?.requests === 3, 5000, 'the first read');
		fail = true;
		await eventually(() => view.getSnapshot().error !== null, 5000, 'a failed read shown');
		assert.equal(view.getSnapshot().error, 'Usage totals could not be read (SQLITE_BUSY: database is locked): the figures are the last ones read; they are read again as requests finish and every few seconds.');
		assert.equal(view.getSnapshot().today.byKey[0]?.requests, 3, 'the last figures stay');
		fail = false;
		const before = reads;
		await eventually(() => reads > before && view.getSnapshot().error === null, 5000, 'the next good read clears the error');
	} finally {
		unsubscribe();
	}
});

test('requests another gateway recorded, followed from the stored log, have the totals read again, as this gateway\'s own do', async () => {
	let reads = 0;
	const events = new EventBus();
	const view = createUsageView(events, async queries => {
		reads++;
		return queries.map(() => [row(reads)]);
	}, {delayMs: 10});
	const unsubscribe = view.subscribe(() => {});
	try {
		await eventually(() => reads === 1, 5000, 'the first read');
		await new Promise(resolve => setTimeout(resolve, 50));
		assert.equal(reads, 1, 'no poll: read again only after requests');
		events.emit('requests:stored', {recent: [], count: 2, failed: 0});
		await eventually(() => reads === 2 && view.getSnapshot().today.byKey[0]?.requests === 2, 5000, 'read again');
	} finally {
		unsubscribe();
	}
});

test('tokens per hour of the last 24 come from the usage totals\' hours: the stored ones (every gateway, before this TUI too) and this session\'s alike', async () => {
	const {SessionUsage, emptyRow} = await import('../../source/ui/session-usage.js');
	const {readUsage, tokensPerHour} = await import('../../source/ui/usage-view.js');
	const {Store} = await import('../../source/store/index.js');
	const {UsageRecorder} = await import('../../source/proxy/usage-recorder.js');
	const {usageSummaries} = await import('../../source/store/usage-summary.js');
	const {tempHome} = await import('../helpers/gateway.js');
	const {loggedRequest} = await import('./helpers.js');
	const {rmSync} = await import('node:fs');
	const now = new Date();
	const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
	const requests = [
		loggedRequest('a', {time: hoursAgo(0), usage: {inputTokens: 100, outputTokens: 50}}),
		loggedRequest('b', {time: hoursAgo(0), usage: {inputTokens: 10, outputTokens: 5}}),
		loggedRequest('c', {time: hoursAgo(3), usage: {inputTokens: 1000, outputTokens: 0}}),
		// A day and more ago: outside the chart.
		loggedRequest('d', {time: hoursAgo(30), usage: {inputTokens: 7, outputTokens: 7}}),
	];
	const expected = Array.from({length: 24}, () => 0);
	expected[23] = 165;
	expected[20] = 1000;
	// This session's, counted in memory (no store).
	const session = new SessionUsage();
	for (const request of requests) session.record(request);
	assert.deepEqual(tokensPerHour((await readUsage(session.summaries, now)).lastDay, now), expected);
	// The store's: recorded by a gateway, read as the TUI reads its totals.
	const home = tempHome();
	const store = await Store.open(home);
	try {
		const recorder = new UsageRecorder(store, {adopt: false});
		for (const request of requests) recorder.record(request);
		await recorder.close();
		assert.deepEqual(tokensPerHour((await readUsage(queries => usageSummaries(store, queries), now)).lastDay, now), expected);
	} finally {
		await store.close();
		rmSync(home, {recursive: true, force: true});
	}
	// Rows the hour has turned past, or that are not an hour's, are left out.
	assert.deepEqual(tokensPerHour([{...emptyRow('2001-01-01 10:00'), inputTokens: 5}, {...emptyRow('today'), inputTokens: 5}], now), Array.from({length: 24}, () => 0));
});
