/**
 * Two gateways in one process share nothing: each owns its pools, memory and turns, and closing one
 * closes only its own upstream connections (a process-wide agent once closed every gateway's).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {startFakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway} from '../helpers/gateway.js';
import {openaiClient} from '../helpers/sdks.js';

test('closing one gateway leaves the other serving, on its own pools and state', async () => {
	const provider = await startFakeProvider('openai');
	const [first, second] = await Promise.all([startTestGateway(), startTestGateway()]);
	try {
		const keys = [];
		for (const gateway of [first, second]) {
			await gateway.addProvider(provider, {name: 'oa', models: 'gpt-4o-mini'});
			keys.push((await gateway.createKey({name: 'k'})).secret);
		}
		const ask = (url: string, key: string) => openaiClient(url, key).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hi'}]});
		assert.equal((await ask(first.url, keys[0]!)).choices[0]!.message.content, 'Hello from fake-openai');
		assert.equal((await ask(second.url, keys[1]!)).choices[0]!.message.content, 'Hello from fake-openai');
		assert.notEqual(first.pools, second.pools);
		assert.notEqual(first.signatures, second.signatures);
		assert.notEqual(first.order, second.order);
		assert.notEqual(first.pins, second.pins);
		await first.close();
		assert.equal((await ask(second.url, keys[1]!)).choices[0]!.message.content, 'Hello from fake-openai', 'the second gateway still reaches the provider');
		await assert.rejects(ask(second.url, keys[0]!), {status: 401}, 'and knows only its own keys');
	} finally {
		await Promise.all([first.close(), second.close()]);
		await provider.close();
	}
});
