/**
 * The live check after a takeover: one request with what the tool's files hold, in the tool's own
 * format, to the address they hold; and the preview of what apply would write.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type IncomingMessage} from 'node:http';
import type {AddressInfo} from 'node:net';
import {applyTakeover, checkTakeover, takeoverPreview} from '../../source/services/takeover/index.js';
import {homes} from './setup.js';

type Seen = {method?: string; url?: string; headers: IncomingMessage['headers']; body: unknown};

/** A stand-in for the gateway: 200 for claude-sonnet-4-6, a 404 in Anthropic's shape for any other model. */
async function fakeGateway(): Promise<{url: string; seen: Seen[]; close(): Promise<void>}> {
	const seen: Seen[] = [];
	const server = createServer((request, response) => {
		let text = '';
		request.on('data', chunk => (text += String(chunk)));
		request.on('end', () => {
			const body = JSON.parse(text) as {model?: string};
			seen.push({method: request.method, url: request.url, headers: request.headers, body});
			const ok = body.model === undefined || body.model === 'claude-sonnet-4-6';
			response.writeHead(ok ? 200 : 404, {'content-type': 'application/json'});
			response.end(JSON.stringify(ok ? {ok: true} : {type: 'error', error: {type: 'not_found_error', message: `No enabled channel serves the model "${body.model}".`}}));
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise(resolve => server.close(() => resolve()))};
}

test('claude: the check sends the written token and model to /v1/messages; a 404 comes back with the gateway\'s message', async () => {
	const h = await homes();
	const gateway = await fakeGateway();
	try {
		await applyTakeover(h.store, 'claude', h.options({gatewayUrl: gateway.url, model: 'gpt-4o'}));
		const failed = await checkTakeover('claude', h.options({gatewayUrl: gateway.url}));
		assert.deepEqual({ok: failed.ok, status: failed.status, model: failed.model, text: failed.text}, {ok: false, status: 404, model: 'gpt-4o', text: '404: No enabled channel serves the model "gpt-4o".'});
		const [request] = gateway.seen;
		assert.equal(request!.url, '/v1/messages');
		assert.match(String(request!.headers.authorization), /^Bearer sk-gtui-/);
		assert.deepEqual(request!.body, {model: 'gpt-4o', max_tokens: 16, messages: [{role: 'user', content: 'Reply with the word OK.'}]});
	} finally {
		await gateway.close();
		await h.close();
	}
});

test('gemini and codex: each in its own format; nothing listening says so; no model set says what to do', async () => {
	const h = await homes();
	const gateway = await fakeGateway();
	try {
		await applyTakeover(h.store, 'gemini', h.options({gatewayUrl: gateway.url, model: 'fast'}));
		await checkTakeover('gemini', h.options({gatewayUrl: gateway.url}));
		assert.equal(gateway.seen.at(-1)!.url, '/v1beta/models/fast:generateContent');
		assert.match(String(gateway.seen.at(-1)!.headers['x-goog-api-key']), /^sk-gtui-/);

		await applyTakeover(h.store, 'codex', h.options({gatewayUrl: gateway.url}));
		const noModel = await checkTakeover('codex', h.options({gatewayUrl: gateway.url}));
		assert.equal(noModel.text, 'Codex has no model set, so there is nothing to check: take it over again and choose a model.');
		await applyTakeover(h.store, 'codex', h.options({gatewayUrl: gateway.url, model: 'gpt-4o'}));
		await checkTakeover('codex', h.options({gatewayUrl: gateway.url}));
		assert.equal(gateway.seen.at(-1)!.url, '/v1/responses');
		await gateway.close();
		const down = await checkTakeover('codex', h.options({gatewayUrl: gateway.url}));
		assert.equal(down.ok, false);
		assert.match(down.text, /^the gateway at http:\/\/127\.0\.0\.1:\d+\/v1 did not answer \(ECONNREFUSED\): is it running\?$/);
	} finally {
		await h.close();
	}
});

test('the preview lists what apply would write, the key by name, and what it would clear', async () => {
	const h = await homes();
	h.write('.claude/settings.json', '{"env": {"ANTHROPIC_API_KEY": "sk-ant-mine"}}\n');
	const lines = await takeoverPreview('claude', {...h.options({model: 'gpt-4o', fastModel: 'fast'}), keyLabel: '<key takeover-claude>'});
	assert.deepEqual(
		lines.map(line => `${line.setting}=${line.value ?? '(removed)'}`),
		['env.ANTHROPIC_API_KEY=(removed)', 'env.ANTHROPIC_BASE_URL=http://127.0.0.1:11580', 'env.ANTHROPIC_AUTH_TOKEN=<key takeover-claude>', 'env.ANTHROPIC_MODEL=gpt-4o', 'env.ANTHROPIC_DEFAULT_HAIKU_MODEL=fast'],
	);
	assert.equal(h.read('.claude/settings.json'), '{"env": {"ANTHROPIC_API_KEY": "sk-ant-mine"}}\n', 'nothing was written');
	await h.close();
});
