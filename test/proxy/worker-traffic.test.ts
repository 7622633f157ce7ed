/**
 * The charts of a TUI that serves come from its core's traffic snapshots; the requests other
 * gateways record in the shared store, which the TUI's log reads, are handed to the core and counted
 * there, in the minute each finished, beside the core's own.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import type {TrafficSnapshot} from '../../source/base/traffic.js';
import type {RequestFinished} from '../../source/base/events.js';
import {eventually} from '../helpers/sdks.js';
import {json, startFaulty} from '../helpers/faulty-providers.js';
import {startWorkerCore} from '../helpers/worker-core.js';
import {WorkerOutbox} from '../../source/proxy/worker-outbox.js';
import type {CoreMessage} from '../../source/proxy/worker-protocol.js';

const elsewhere = (id: string, minutesAgo: number, extra: Partial<RequestFinished> = {}): RequestFinished => ({
	id, time: new Date(Date.now() - minutesAgo * 60_000).toISOString(), method: 'POST', path: '/v1/chat/completions', keyId: 'key_b', keyName: 'b', model: 'm', upstreamModel: 'm', channelId: 'ch_shared', channelName: 'shared',
	inboundFormat: 'openai', outboundFormat: 'openai', stream: false, status: 200, outcome: 'ok', latencyMs: 20, ttfbMs: 5, usage: {inputTokens: 100, outputTokens: 20}, error: null, warnings: [], eventType: 'routed', attempts: ['shared'], costUsd: 0, unpriced: false, ...extra,
});

test('the core counts the requests other gateways recorded into its traffic snapshots, in the minute each finished, beside its own', async () => {
	const provider = await startFaulty(json(200, {id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{index: 0, message: {role: 'assistant', content: 'hi'}, finish_reason: 'stop'}], usage: {prompt_tokens: 3, completion_tokens: 1, total_tokens: 4}}));
	const {home, core, call} = await startWorkerCore(provider.url);
	let latest: TrafficSnapshot | undefined;
	const off = core.events.on('traffic:snapshot', snapshot => (latest = snapshot));
	try {
		await call('hello');
		core.countStored([elsewhere('e1', 3), elsewhere('e2', 3, {status: 502, outcome: 'error'}), elsewhere('e3', 0)]);
		await eventually(() => latest?.lastHour.total.requests === 4, 5000, 'a snapshot with the core\'s request and the three read from the store');
		const hour = latest!.lastHour;
		assert.equal(hour.total.errors, 1);
		const sum = (counts: readonly number[]) => counts.reduce((total, count) => total + count, 0);
		// (Two minutes each way: the snapshot may be taken in the minute after the requests.)
		assert.equal(sum(hour.requests.slice(-5, -2)), 2, 'the two of three minutes ago, in their minute');
		assert.equal(sum(hour.requests.slice(-2)), 2, 'the core\'s own and the one that just finished elsewhere, now');
		assert.equal(latest!.channels.get('ch_shared')?.total.requests, 3, 'the shared channel\'s sparkline counts them');
	} finally {
		off();
		await core.close();
		await provider.close();
		rmSync(home, {recursive: true, force: true});
	}
});

test('the outbox sends the charts when a request changed them (once a second at most) and as each new minute begins; an idle minute sends nothing', () => {
	const posted: CoreMessage[] = [];
	const outbox = new WorkerOutbox(message => posted.push(message), undefined);
	const sent = () => posted.filter(message => message.type === 'traffic').length;
	const minute = 60_000;
	const start = 29_000_000 * minute + 5_000;
	outbox.flush(start);
	assert.equal(sent(), 1, 'the first at start');
	for (const later of [100, 15_000, 30_000, 54_900]) outbox.flush(start + later);
	assert.equal(sent(), 1, 'nothing changed in the rest of the minute: none (they would redraw the same charts)');
	outbox.flush(start + 55_000);
	assert.equal(sent(), 2, 'a new minute: the hour moved on');
	outbox.request(elsewhere('r1', 0));
	outbox.flush(start + 55_500);
	assert.equal(sent(), 2, 'a request, but less than a second after the last');
	outbox.flush(start + 56_000);
	assert.equal(sent(), 3, 'then its snapshot');
	for (const later of [57_000, 90_000, 114_900]) outbox.flush(start + later);
	assert.equal(sent(), 3);
	outbox.flush(start + 115_000);
	assert.equal(sent(), 4, 'the next minute');
});
