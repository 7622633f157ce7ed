/**
 * Stored Responses conversations on every store: sqlite, and a real Redis and PostgreSQL where they
 * are installed. A gateway keeps a conversation, a second gateway on the same store (a restart, or
 * another machine) retrieves, continues, lists and deletes it; bodies are sealed at rest.
 */
import assert from 'node:assert/strict';
import {after, before, describe, test} from 'node:test';
import {APIError} from 'openai';
import {startGateway} from '../../source/proxy/gateway.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import type {Namespace} from '../../source/store/index.js';
import {listTurnIndex} from '../../source/store/responses.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {openaiClient} from '../helpers/sdks.js';
import {storeKinds, tempDir} from '../store/stores.js';

const {kinds} = storeKinds();
let provider: FakeProvider;
before(async () => {
	provider = await startFakeProvider('anthropic');
});
after(() => provider.close());

for (const kind of kinds) {
	describe(`stored responses on ${kind.name}`, {skip: kind.skip}, () => {
		test('kept by one gateway, continued, listed and deleted through another; sealed at rest', async () => {
			const storeUrl = await kind.freshUrl();
			const first = await startGateway({home: tempDir(), storeUrl, host: '127.0.0.1', port: 0});
			await addChannel(first.store, {name: 'anthropic', format: 'anthropic', baseUrl: provider.url, apiKey: provider.apiKey, models: 'chat=claude-haiku-4-5'});
			const secret = (await createKey(first.store, {name: 'owner'})).secret;
			await first.registry.refresh();
			provider.enqueue({text: 'Noted: the code word is heron.'});
			const one = await openaiClient(first.url, secret).responses.create({model: 'chat', input: 'The code word is heron.'});
			await first.close();

			const second = await startGateway({home: tempDir(), storeUrl, host: '127.0.0.1', port: 0});
			try {
				const client = openaiClient(second.url, secret);
				assert.equal((await client.responses.retrieve(one.id)).output_text, 'Noted: the code word is heron.');
				const two = await client.responses.create({model: 'chat', input: 'What is the code word?', previous_response_id: one.id});
				const messages = (provider.received.at(-1)!.body as {messages: Array<{role: string}>}).messages;
				assert.deepEqual(messages.map(message => message.role), ['user', 'assistant', 'user']);
				await second.kept.flush();
				const raw: unknown = await second.store.raw('responses' as Namespace).get(one.id);
				assert.match(JSON.stringify(raw), /gtui-sealed:v1:/);
				assert.doesNotMatch(JSON.stringify(raw), /heron/);
				const items = await client.responses.inputItems.list(two.id);
				assert.equal(items.data.length, 3);
				await client.responses.delete(two.id);
				await client.responses.delete(one.id);
				await assert.rejects(client.responses.retrieve(one.id), (error: unknown) => error instanceof APIError && error.status === 404);
				assert.deepEqual(await listTurnIndex(second.store), []);
			} finally {
				await second.close();
			}
		});
	});
}
