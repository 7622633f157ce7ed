/**
 * Routes clients take that other gateways got wrong (issue 16): Gemini paths without /v1beta, and
 * Codex asking for the Responses API over a WebSocket before it falls back to HTTP.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {request as httpRequest} from 'node:http';
import {GoogleGenAI} from '@google/genai';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {send} from '../helpers/wire.js';

let gateway: TestGateway;
let secret: string;
let gemini: FakeProvider;

before(async () => {
	gateway = await startTestGateway();
	gemini = await startFakeProvider('gemini');
	await gateway.addProvider(gemini, {name: 'gemini', models: `flash=${gemini.models[0]}`});
	secret = (await gateway.createKey({name: 'routes'})).secret;
});
after(async () => {
	await gateway.close();
	await gemini.close();
});

test('Gemini clients calling /models/… without /v1beta get the same answers', async () => {
	gemini.enqueue({text: 'Hello without a version', chunks: 1});
	const headers = {'content-type': 'application/json', 'x-goog-api-key': secret};
	const body = JSON.stringify({contents: [{role: 'user', parts: [{text: 'hi'}]}]});
	const streamed = await send(`${gateway.url}/models/flash:streamGenerateContent?alt=sse`, {method: 'POST', headers, body});
	assert.equal(streamed.status, 200);
	assert.match(streamed.text, /Hello without a version/);
	const list = await send(`${gateway.url}/models`, {headers});
	assert.deepEqual((list.body as {models: Array<{name: string}>}).models.map(model => model.name), ['models/flash']);
	const missing = await send(`${gateway.url}/models/nope:generateContent`, {method: 'POST', headers, body});
	assert.equal((missing.body as {error: {status: string}}).error.status, 'NOT_FOUND', 'a Gemini-shaped error');
});

test('the @google/genai SDK with the version in its base URL (apiVersion "") is served', async () => {
	gemini.enqueue({text: 'SDK without v1beta'});
	const client = new GoogleGenAI({apiKey: secret, apiVersion: '', httpOptions: {baseUrl: gateway.url}});
	const answer = await client.models.generateContent({model: 'flash', contents: 'hi'});
	assert.equal(answer.text, 'SDK without v1beta');
});

/** A WebSocket handshake as Codex sends it: resolves with the status the gateway answered (101 would be an upgrade). */
function websocketHandshake(path: string, key: string): Promise<number> {
	const url = new URL(path, gateway.url);
	return new Promise((resolve, reject) => {
		const request = httpRequest({
			host: url.hostname,
			port: url.port,
			path: url.pathname,
			headers: {connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', authorization: `Bearer ${key}`},
		});
		request.on('response', response => {
			response.resume();
			resolve(response.statusCode ?? 0);
		});
		request.on('upgrade', (_response, socket) => {
			socket.destroy();
			resolve(101);
		});
		request.on('error', reject);
		request.end();
	});
}

test('Codex asking for /v1/responses over a WebSocket gets 426 at once, which makes it fall back to HTTP', async () => {
	const started = Date.now();
	assert.equal(await websocketHandshake('/v1/responses', secret), 426);
	assert.ok(Date.now() - started < 1000);
});
