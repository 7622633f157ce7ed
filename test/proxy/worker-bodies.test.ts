/**
 * Under the TUI the bodies stay in the gateway's worker: the UI asks for one request's bodies when
 * its details open, and switches capture on and off, through the worker's message channel.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {json, startFaulty} from '../helpers/faulty-providers.js';
import {startWorkerCore} from '../helpers/worker-core.js';

test('the worker answers a request’s bodies on demand, and capture is switched from the UI', async () => {
	const provider = await startFaulty(json(200, {id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{index: 0, message: {role: 'assistant', content: 'from the worker'}, finish_reason: 'stop'}]}));
	const {home, core, secret, call: send} = await startWorkerCore(provider.url);
	const call = () => send('hello worker');
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
		assert.ok(!JSON.stringify(lookup).includes(secret.slice(0, 16)));
		assert.equal((await core.captureBodies(false)).capturing, false);
		assert.ok((await core.bodies(id)).bodies, 'what was kept stays readable');
	} finally {
		await core.close();
		await provider.close();
		rmSync(home, {recursive: true, force: true});
	}
});
