/**
 * The TUI's status bar counts the requests in flight: the core sends the count as it changes (once
 * a batch at most, never again while it stays the same), so a long stream shows from its first
 * second, not only in the log once it has ended.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import {eventually} from '../helpers/sdks.js';
import {frames, sse, startFaulty} from '../helpers/faulty-providers.js';
import {startWorkerCore} from '../helpers/worker-core.js';
import {WorkerOutbox} from '../../source/proxy/worker-outbox.js';
import type {CoreMessage} from '../../source/proxy/worker-protocol.js';

test('the outbox sends the count of requests in flight only when it changed since the last batch', () => {
	const posted: CoreMessage[] = [];
	const outbox = new WorkerOutbox(message => posted.push(message), undefined);
	const counts = () => posted.flatMap(message => (message.type === 'in-flight' ? [message.count] : []));
	outbox.flush(0, 0);
	assert.deepEqual(counts(), [], 'none at start: nothing to say');
	outbox.flush(100, 3);
	outbox.flush(200, 3);
	outbox.flush(300, 5);
	outbox.flush(400);
	outbox.flush(500, 0);
	assert.deepEqual(counts(), [3, 5, 0]);
});

test('a stream the provider holds open counts as one in flight until it ends; the core says so once each way', async () => {
	let release = () => {};
	const held = new Promise<void>(resolve => (release = resolve));
	const provider = await startFaulty(async res => {
		res.writeHead(200, {'content-type': sse, 'cache-control': 'no-cache'});
		res.write(frames.openai('Hel'));
		await held;
		res.end(`${frames.openai('lo')}data: [DONE]\n\n`);
	});
	const {home, core, secret} = await startWorkerCore(provider.url);
	const counts: number[] = [];
	const off = core.events.on('requests:in-flight', count => counts.push(count));
	try {
		const response = await fetch(`${core.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: JSON.stringify({model: 'm', stream: true, messages: [{role: 'user', content: 'hi'}]})});
		assert.equal(response.status, 200);
		await eventually(() => counts.at(-1) === 1, 5000, 'one in flight while the provider holds the stream');
		await sleep(350); // several batches with the stream still open
		assert.deepEqual(counts, [1], 'said once, not once a batch');
		release();
		assert.match(await response.text(), /Hello|Hel[\s\S]*lo/);
		await eventually(() => counts.at(-1) === 0, 5000, 'none once the stream has ended');
		assert.deepEqual(counts, [1, 0]);
	} finally {
		release();
		off();
		await core.close();
		await provider.close();
		rmSync(home, {recursive: true, force: true});
	}
});
