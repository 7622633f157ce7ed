/**
 * Under the TUI the bodies stay in the gateway's worker: the UI asks for one request's bodies when
 * its details open, and switches capture on and off, through the worker's message channel.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {Store} from '../../source/store/index.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {startCoreWorker} from '../../source/proxy/worker-host.js';
import {tempHome} from '../helpers/gateway.js';
import {json, startFaulty} from '../helpers/faulty-providers.js';

test('the worker answers a request’s bodies on demand, and capture is switched from the UI', async () => {
	const home = tempHome();
	const provider = await startFaulty(json(200, {id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{index: 0, message: {role: 'assistant', content: 'from the worker'}, finish_reason: 'stop'}]}));
	const store = await Store.open(home, {home});
	await addChannel(store, {name: 'up', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-real-worker-key-0123456789', models: 'm'});
	const key = await createKey(store, {name: 'tui'});
	await store.close();
	const core = await startCoreWorker({home, host: '127.0.0.1', port: 0, output: () => {}, onCrash: () => {}, loader: new URL('../helpers/ts-worker.mjs', import.meta.url)});
	const call = async () => {
		const response = await fetch(`${core.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${key.secret}`}, body: JSON.stringify({model: 'm', messages: [{role: 'user', content: 'hello worker'}]})});
		await response.text();
		return response.headers.get('x-request-id')!;
	};
	try {
		const before = await call();
		const off = await core.bodies(before);
		assert.equal(off.capturing, false);
		assert.equal(off.bodies, null, 'off by default: nothing kept');
		assert.equal((await core.captureBodies(true)).capturing, true);
		const id = await call();
		let lookup = await core.bodies(id);
		for (let tries = 0; tries < 50 && !lookup.bodies; tries++) lookup = await core.bodies(id);
		assert.equal(lookup.capturing, true);
		assert.match(lookup.bodies!.request!.text, /hello worker/);
		assert.match(lookup.bodies!.response!.text, /from the worker/);
		assert.ok(!JSON.stringify(lookup).includes(key.secret.slice(0, 16)));
		assert.equal((await core.captureBodies(false)).capturing, false);
		assert.ok((await core.bodies(id)).bodies, 'what was kept stays readable');
	} finally {
		await core.close();
		await provider.close();
		rmSync(home, {recursive: true, force: true});
	}
});
