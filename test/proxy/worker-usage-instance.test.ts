/**
 * The TUI's live log follows the requests other gateways record in the shared store and leaves out
 * its own gateway's (they arrive live): the worker says which usage instance it records as.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {Store} from '../../source/store/index.js';
import {openRequestLog} from '../../source/store/usage-summary.js';
import {eventually} from '../helpers/sdks.js';
import {json, startFaulty} from '../helpers/faulty-providers.js';
import {startWorkerCore} from '../helpers/worker-core.js';

test('the worker names the usage instance its requests are recorded under; a log reader that skips it reads none of them', async () => {
	const provider = await startFaulty(json(200, {id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{index: 0, message: {role: 'assistant', content: 'hi'}, finish_reason: 'stop'}]}));
	const {home, core, call} = await startWorkerCore(provider.url);
	const store = await Store.open(home, {home});
	try {
		const instance = await core.usageInstance();
		assert.match(instance, /\S/);
		const {reader: skipping} = await openRequestLog(store, {skip: instance});
		const {reader: reading} = await openRequestLog(store);
		const id = await call('hello');
		// The request lands in the store under that instance (flushed within a second)...
		const landed: string[] = [];
		await eventually(async () => {
			landed.push(...(await reading.poll()).map(record => record.id));
			return landed.includes(id);
		}, 5000, 'the request in the stored log');
		// ...and the reader that skips it reads nothing of it.
		assert.deepEqual(await skipping.poll(), []);
	} finally {
		await store.close();
		await core.close();
		await provider.close();
		rmSync(home, {recursive: true, force: true});
	}
});
