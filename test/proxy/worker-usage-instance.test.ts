/**
 * The TUI's live log follows the requests other gateways record in the shared store and leaves out
 * its own gateway's (they arrive live): the worker says which usage instance it records as.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {Store} from '../../source/store/index.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {startCoreWorker} from '../../source/proxy/worker-host.js';
import {openRequestLog} from '../../source/store/usage-summary.js';
import {tempHome} from '../helpers/gateway.js';
import {eventually} from '../helpers/sdks.js';
import {json, startFaulty} from '../helpers/faulty-providers.js';

test('the worker names the usage instance its requests are recorded under; a log reader that skips it reads none of them', async () => {
	const home = tempHome();
	const provider = await startFaulty(json(200, {id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{index: 0, message: {role: 'assistant', content: 'hi'}, finish_reason: 'stop'}]}));
	const setup = await Store.open(home, {home});
	await addChannel(setup, {name: 'up', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-real-worker-key-0123456789', models: 'm'});
	const key = await createKey(setup, {name: 'tui'});
	await setup.close();
	const core = await startCoreWorker({home, host: '127.0.0.1', port: 0, output: () => {}, onCrash: () => {}, loader: new URL('../helpers/ts-worker.mjs', import.meta.url)});
	const store = await Store.open(home, {home});
	const call = async () => {
		const response = await fetch(`${core.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${key.secret}`}, body: JSON.stringify({model: 'm', messages: [{role: 'user', content: 'hello'}]})});
		await response.text();
		return response.headers.get('x-request-id')!;
	};
	try {
		const instance = await core.usageInstance();
		assert.match(instance, /\S/);
		const skipping = await openRequestLog(store, {skip: instance});
		const reading = await openRequestLog(store);
		const id = await call();
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
