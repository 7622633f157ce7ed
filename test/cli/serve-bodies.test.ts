/**
 * `serve --capture-bodies`: with `--json-logs`, each request's line carries its bodies (masked, at
 * most 64 KiB of each); without the flag, none; a text line stays one line either way.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {runCli, startServe, stopChild} from '../helpers/cli.js';
import {tempHome} from '../helpers/gateway.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {eventually} from '../helpers/sdks.js';

let home: string;
let env: Record<string, string>;
let provider: FakeProvider;
let secret: string;

before(async () => {
	home = tempHome();
	env = {GATEWAY_TUI_HOME: home};
	provider = await startFakeProvider('openai');
	await runCli(['channels', 'add', '--name', 'fake', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'gpt-4o-mini'], env);
	secret = (JSON.parse((await runCli(['keys', 'create', '--name', 'cli', '--json'], env)).stdout) as {key: string}).key;
});
after(async () => {
	await provider.close();
	rmSync(home, {recursive: true, force: true});
});

async function oneRequest(flags: readonly string[]): Promise<{line: Record<string, unknown>; stderr: string}> {
	const serve = await startServe(['--port', '0', '--json-logs', ...flags], env);
	try {
		const response = await fetch(`${serve.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: JSON.stringify({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hello from serve'}]})});
		assert.equal(response.status, 200, await response.text());
		await eventually(() => serve.stdout().includes('"path":"/v1/chat/completions"'), 3000, 'the JSON log line');
		const line = serve.stdout().split('\n').find(text => text.includes('"path":"/v1/chat/completions"'))!;
		return {line: JSON.parse(line) as Record<string, unknown>, stderr: serve.stderr()};
	} finally {
		await stopChild(serve.child);
	}
}

test('serve --capture-bodies --json-logs: the line carries the request and response bodies, keys masked', async () => {
	const {line, stderr} = await oneRequest(['--capture-bodies']);
	assert.match(stderr, /capturing request and response bodies \(the first 64 KiB of each, of the newest 100 requests, keys masked\): each JSON log line carries them as "bodies"/);
	const bodies = line.bodies as {request: {text: string}; response: {text: string; contentType: string}; requestHeaders: Array<[string, string]>};
	assert.match(bodies.request.text, /hello from serve/);
	assert.match(bodies.response.text, /"object":"chat\.completion"/);
	assert.ok(!JSON.stringify(line).includes(secret.slice(0, 16)), 'the virtual key is masked');
	assert.ok(!JSON.stringify(line).includes(provider.apiKey.slice(0, 16)), 'the real key never appears');
});

test('serve --json-logs without --capture-bodies: no bodies', async () => {
	const {line} = await oneRequest([]);
	assert.equal(line.bodies, undefined);
});
