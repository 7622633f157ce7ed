/**
 * The real Codex CLI sending a zstd-compressed request body through the gateway (issue 16).
 *
 * Codex compresses a Responses request only when three things hold (codex-rs/core/src/client.rs,
 * `responses_request_compression`): the `enable_request_compression` feature (on by default), a
 * ChatGPT login (`CodexAuth::is_chatgpt_auth`), and a provider that `is_openai()` — whose `name` is
 * "OpenAI" (codex-rs/model-provider-info). So the provider here is named "OpenAI" with
 * `requires_openai_auth = true`, and CODEX_HOME holds a ChatGPT-mode auth.json whose access token
 * is the gateway's virtual key: Codex sends it as `Authorization: Bearer`, as for any ChatGPT login.
 * A recording hop in front of the gateway shows what arrived on the wire; the fake provider shows the
 * gateway read it.
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {providerSaw} from '../helpers/provider-saw.js';
import {codexBin, codexCannotRun} from '../helpers/codex.js';

const skip = codexCannotRun();

type Seen = {readonly method: string; readonly url: string; readonly encoding: string | undefined; readonly body: Buffer};

/** A loopback hop that records each request as it arrived (headers and raw bytes) and forwards it unchanged. */
async function startRecorder(target: string): Promise<{url: string; seen: Seen[]; close(): Promise<void>}> {
	const seen: Seen[] = [];
	const upstream = new URL(target);
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = Buffer.concat(chunks);
			seen.push({method: request.method ?? '', url: request.url ?? '', encoding: request.headers['content-encoding'], body});
			const forward = http.request({host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: {...request.headers, host: upstream.host}}, answer => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			});
			forward.on('error', () => response.destroy());
			forward.end(body);
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: () =>
			new Promise<void>(resolve => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A ChatGPT-mode login: an id token Codex can read (unsigned: Codex only decodes its claims) and the virtual key as access token. */
function chatgptAuth(accessToken: string): string {
	const claims = {email: 'dev@example.com', exp: Math.floor(Date.now() / 1000) + 86_400, 'https://api.openai.com/auth': {chatgpt_plan_type: 'plus', chatgpt_account_id: 'acct_gateway', chatgpt_user_id: 'user_gateway'}};
	const idToken = `${base64url({alg: 'none', typ: 'JWT'})}.${base64url(claims)}.sig`;
	const tokens = {id_token: idToken, access_token: accessToken, refresh_token: 'unused', account_id: 'acct_gateway'};
	return JSON.stringify({auth_mode: 'chatgpt', OPENAI_API_KEY: null, tokens, last_refresh: new Date().toISOString()});
}

let gateway: TestGateway;
let provider: FakeProvider;
let recorder: Awaited<ReturnType<typeof startRecorder>>;
let home: string;

before(async () => {
	if (skip) return;
	provider = await startFakeProvider('openai');
	gateway = await startTestGateway();
	await gateway.addProvider(provider, {name: 'openai', models: `via-openai=${provider.models[0]}`});
	const secret = (await gateway.createKey({name: 'codex'})).secret;
	recorder = await startRecorder(gateway.url);
	home = mkdtempSync(join(tmpdir(), 'gateway-tui-codex-zstd-'));
	writeFileSync(join(home, 'auth.json'), chatgptAuth(secret), {mode: 0o600});
	writeFileSync(
		join(home, 'config.toml'),
		[
			'model = "via-openai"',
			'model_provider = "gateway-tui"',
			'cli_auth_credentials_store = "file"',
			'',
			'[model_providers.gateway-tui]',
			// The name Codex's `is_openai()` checks: only then does it compress.
			'name = "OpenAI"',
			`base_url = "${recorder.url}/v1"`,
			'wire_api = "responses"',
			'requires_openai_auth = true',
			'',
		].join('\n'),
	);
});
after(async () => {
	if (skip) return;
	await recorder.close();
	await gateway.close();
	await provider.close();
	rmSync(home, {recursive: true, force: true});
});

/** `codex exec` with no network but loopback: plugins, apps (ChatGPT's connectors) and analytics off. */
async function codexExec(prompt: string): Promise<{code: number | null; stdout: string; stderr: string}> {
	const args = ['exec', '--skip-git-repo-check', '--ephemeral', '--disable', 'plugins', '--disable', 'apps', '-c', 'analytics.enabled=false', '--color', 'never', prompt];
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) if (!/^(OPENAI_|CODEX_)/.test(name)) env[name] = value;
	const child = spawn(codexBin, args, {cwd: home, env: {...env, CODEX_HOME: home, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
	const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
	clearTimeout(timer);
	return {code, stdout, stderr};
}

/** zstd's frame magic number, 0xFD2FB528, little-endian. */
const zstdMagic = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

test('real Codex sends its request zstd-compressed and gets the answer through the gateway', {skip}, async () => {
	const run = await codexExec('Say hello');
	assert.equal(run.code, 0, run.stderr.slice(-2000));
	assert.equal(run.stdout.trim(), 'Hello from fake-openai');

	const turns = recorder.seen.filter(request => request.method === 'POST' && request.url.startsWith('/v1/responses'));
	assert.equal(turns.length, 1);
	assert.equal(turns[0]!.encoding, 'zstd');
	assert.deepEqual(turns[0]!.body.subarray(0, 4), zstdMagic, 'the bytes on the wire are a zstd frame');

	// The gateway read it: the provider got the prompt, translated to chat completions.
	const saw = providerSaw('openai', provider.received.filter(request => request.method === 'POST').at(-1)!.body);
	assert.ok(JSON.stringify(saw).includes('Say hello'), JSON.stringify(saw).slice(0, 500));
	const finished = gateway.finished.filter(event => event.model === 'via-openai').at(-1)!;
	assert.deepEqual([finished.inboundFormat, finished.status], ['responses', 200]);
});
