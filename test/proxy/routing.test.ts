import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {formats} from '../../source/base/ir.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {generateRequest, send, errorMessage} from '../helpers/wire.js';
import {addChannel} from '../../source/services/channels.js';

let gateway: TestGateway;
let restricted: string;
let open: string;

before(async () => {
	gateway = await startTestGateway();
	await addChannel(gateway.store, {name: 'a', format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-x-0000000000', models: 'allowed,secret-model'});
	await addChannel(gateway.store, {name: 'b', format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: 'other'});
	await addChannel(gateway.store, {name: 'off', format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: 'disabled-model'});
	await gateway.createKey({name: 'placeholder'});
	restricted = (await gateway.createKey({name: 'restricted', models: 'allowed,other', channels: 'a'})).secret;
	open = (await gateway.createKey({name: 'open'})).secret;
	const {setChannelEnabled} = await import('../../source/services/channels.js');
	await setChannelEnabled(gateway.store, 'off', false);
	await gateway.registry.refresh();
});
after(() => gateway.close());

const shapes = {
	openai: (body: unknown) => (body as {error: {code: string}}).error.code,
	anthropic: (body: unknown) => (body as {error: {type: string}}).error.type,
	gemini: (body: unknown) => (body as {error: {status: string}}).error.status,
};

for (const format of formats) {
	test(`${format}: a model on no enabled channel is a 404 naming it; a model the key may not use is a 403 naming it`, async () => {
		const missing = await send(...generateRequest(format, gateway.url, 'no-such-model', open));
		assert.equal(missing.status, 404);
		assert.equal(shapes[format](missing.body), {openai: 'model_not_found', anthropic: 'not_found_error', gemini: 'NOT_FOUND'}[format]);
		assert.match(errorMessage(missing.body), /"no-such-model" is not configured/);

		const disabled = await send(...generateRequest(format, gateway.url, 'disabled-model', open));
		assert.equal(disabled.status, 404, 'a disabled channel serves nothing');

		const forbidden = await send(...generateRequest(format, gateway.url, 'secret-model', restricted));
		assert.equal(forbidden.status, 403);
		assert.equal(shapes[format](forbidden.body), {openai: 'model_not_allowed', anthropic: 'permission_error', gemini: 'PERMISSION_DENIED'}[format]);
		assert.match(errorMessage(forbidden.body), /not allowed to use the model "secret-model"/);

		const wrongChannel = await send(...generateRequest(format, gateway.url, 'other', restricted));
		assert.equal(wrongChannel.status, 403, 'allowed model, but only on a channel the key may not use');
		assert.match(errorMessage(wrongChannel.body), /^The virtual key "restricted" may use only the channel "a", and it is not an enabled channel serving "other"\. Ask for a model it serves, or change the key's channels with `gateway-tui keys edit restricted --channels …`/);
	});
}

test("a key whose only channel was removed: a 403 that says so and how to fix it (its list is kept: emptied, it would allow every channel); the CLI says so when the channel goes", async () => {
	const {runCli} = await import('../helpers/cli.js');
	await addChannel(gateway.store, {name: 'short-lived', format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: 'allowed'});
	const orphan = await gateway.createKey({name: 'orphan', channels: 'short-lived'});
	const both = await gateway.createKey({name: 'both', channels: 'short-lived,a'});
	const env = {GATEWAY_TUI_HOME: gateway.home};
	const removed = await runCli(['channels', 'remove', 'short-lived'], env);
	assert.equal(removed.code, 0, removed.stderr);
	assert.equal(removed.stdout.trim(), 'Removed channel "short-lived".\nKeys limited to it: "orphan" (no channel left: its requests are refused), "both" (still "a"). Change them with `gateway-tui keys edit NAME --channels …` (--channels "" allows all).');
	await gateway.registry.refresh();
	const refused = await send(...generateRequest('openai', gateway.url, 'allowed', orphan.secret));
	assert.equal(refused.status, 403);
	assert.equal(errorMessage(refused.body), 'The virtual key "orphan" may use only channels that were removed, so it can use none: change the key\'s channels with `gateway-tui keys edit orphan --channels …` (--channels "" allows them all).');
	assert.equal((await send(...generateRequest('openai', gateway.url, 'allowed', both.secret))).status !== 403, true, 'a key with a channel left still routes');
	const shown = await runCli(['keys', 'show', 'orphan'], env);
	assert.match(shown.stdout, /^channels\s+ch_\w+ \(removed\)$/m);
});

test('model lists show only what the key may use, in each list shape', async () => {
	const openaiList = await send(`${gateway.url}/v1/models`, {headers: {authorization: `Bearer ${restricted}`}});
	assert.deepEqual((openaiList.body as {data: Array<{id: string}>}).data.map(model => model.id), ['allowed']);
	assert.equal((openaiList.body as {object: string}).object, 'list');
	const anthropicList = await send(`${gateway.url}/v1/models`, {headers: {'x-api-key': open, 'anthropic-version': '2023-06-01'}});
	const anthropicBody = anthropicList.body as {data: Array<{type: string; id: string}>; has_more: boolean};
	assert.deepEqual(anthropicBody.data.map(model => model.id).sort(), ['allowed', 'other', 'secret-model']);
	assert.equal(anthropicBody.data[0]!.type, 'model');
	assert.equal(anthropicBody.has_more, false);
	const geminiList = await send(`${gateway.url}/v1beta/models`, {headers: {'x-goog-api-key': restricted}});
	assert.deepEqual((geminiList.body as {models: Array<{name: string}>}).models.map(model => model.name), ['models/allowed']);
	const one = await send(`${gateway.url}/v1beta/models/allowed`, {headers: {'x-goog-api-key': restricted}});
	assert.equal((one.body as {name: string}).name, 'models/allowed');
});

test('Claude Code probes answer without a key; unknown paths are 404 in the format their prefix implies', async () => {
	assert.equal((await fetch(`${gateway.url}/`, {method: 'HEAD'})).status, 200);
	assert.equal((await fetch(`${gateway.url}/api/hello`, {method: 'HEAD'})).status, 200);
	assert.equal((await fetch(`${gateway.url}/api/event_logging/batch`, {method: 'POST', headers: {'content-type': 'application/json'}, body: '{"events":[]}'})).status, 204);
	const gemini = await send(`${gateway.url}/v1beta/nothing`);
	assert.equal(gemini.status, 404);
	assert.equal((gemini.body as {error: {status: string}}).error.status, 'NOT_FOUND');
	const openai = await send(`${gateway.url}/v1/nothing`, {method: 'POST'});
	assert.equal((openai.body as {error: {type: string}}).error.type, 'invalid_request_error');
	const anthropic = await send(`${gateway.url}/v1/messages/batches`, {headers: {'anthropic-version': '2023-06-01'}});
	assert.equal((anthropic.body as {error: {type: string}}).error.type, 'not_found_error');
});

test('a body over 32 MiB is a 413 in the inbound format', async () => {
	const big = JSON.stringify({model: 'allowed', messages: [{role: 'user', content: 'x'.repeat(33 * 1024 * 1024)}]});
	const response = await send(`${gateway.url}/v1/messages`, {method: 'POST', headers: {'content-type': 'application/json', 'x-api-key': open}, body: big});
	assert.equal(response.status, 413);
	assert.equal((response.body as {error: {type: string}}).error.type, 'request_too_large');
	const gemini = await send(`${gateway.url}/v1beta/models/allowed:generateContent`, {method: 'POST', headers: {'content-type': 'application/json', 'x-goog-api-key': open}, body: big});
	assert.equal(gemini.status, 413);
	assert.equal((gemini.body as {error: {code: number}}).error.code, 413);
});
