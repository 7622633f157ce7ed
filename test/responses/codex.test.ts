/**
 * Codex CLI (npm `@openai/codex`, a Rust binary shipped as an optional platform package) in
 * `codex exec` mode, pointed at the gateway through a `model_provider` with `wire_api = "responses"`,
 * against a strict fake provider of each format: it completes a prompt and prints the fake's answer,
 * and runs a tool call round trip. Skipped, saying why, where the binary cannot run.
 */
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, describe, test} from 'node:test';
import {addChannel} from '../../source/services/channels.js';
import {startFakeProvider, type FakeFormat, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {providerSaw} from '../helpers/provider-saw.js';
import {codexBin, codexCannotRun} from '../helpers/codex.js';

const skip = codexCannotRun();
const formats: readonly FakeFormat[] = ['openai', 'anthropic', 'gemini'];

let gateway: TestGateway;
let secret: string;
const providers = {} as Record<FakeFormat, FakeProvider>;
const homes: string[] = [];

before(async () => {
	if (skip) return;
	gateway = await startTestGateway();
	for (const format of formats) {
		providers[format] = await startFakeProvider(format);
		await gateway.addProvider(providers[format], {name: format, models: `via-${format}=${providers[format].models[0]}`});
	}
	await addChannel(gateway.store, {name: 'openai-native', format: 'openai', baseUrl: providers.openai.url, apiKey: providers.openai.apiKey, models: `via-native=${providers.openai.models[0]}`, responsesApi: 'on'});
	await gateway.registry.refresh();
	secret = (await gateway.createKey({name: 'codex'})).secret;
});
after(async () => {
	if (skip) return;
	await gateway.close();
	await Promise.all(formats.map(format => providers[format].close()));
	for (const home of homes) rmSync(home, {recursive: true, force: true});
});

/** A fresh CODEX_HOME whose config points a provider at the gateway, the key read from an env var. */
function codexHome(model: string): string {
	const home = mkdtempSync(join(tmpdir(), 'gateway-tui-codex-'));
	homes.push(home);
	writeFileSync(
		join(home, 'config.toml'),
		[
			`model = "${model}"`,
			'model_provider = "gateway-tui"',
			'',
			'[model_providers.gateway-tui]',
			'name = "gateway-tui"',
			`base_url = "${gateway.url}/v1"`,
			'wire_api = "responses"',
			'env_key = "GATEWAY_TUI_KEY"',
			'',
		].join('\n'),
	);
	return home;
}

/** `codex exec` with no network but loopback: plugins (a GitHub sync) and analytics off. */
async function codexExec(model: string, prompt: string): Promise<{code: number | null; stdout: string; stderr: string}> {
	const home = codexHome(model);
	const args = ['exec', '--skip-git-repo-check', '--ephemeral', '--disable', 'plugins', '-c', 'analytics.enabled=false', '--color', 'never', prompt];
	const child = spawn(codexBin, args, {cwd: home, env: {...process.env, CODEX_HOME: home, GATEWAY_TUI_KEY: secret, NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
	const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
	clearTimeout(timer);
	return {code, stdout, stderr};
}

describe('Codex CLI through the gateway', {skip}, () => {
	for (const [label, model, format, path] of [
		['an OpenAI chat completions channel', 'via-openai', 'openai', /^\/v1\/chat\/completions$/],
		['an Anthropic channel', 'via-anthropic', 'anthropic', /^\/v1\/messages$/],
		['a Gemini channel', 'via-gemini', 'gemini', /:streamGenerateContent$/],
		['an OpenAI channel that speaks the Responses API (passthrough)', 'via-native', 'openai', /^\/v1\/responses$/],
	] as const) {
		test(`codex exec "Say hello" completes on ${label}`, async () => {
			providers[format].reset();
			const run = await codexExec(model, 'Say hello');
			assert.equal(run.code, 0, run.stderr.slice(-2000));
			assert.equal(run.stdout.trim(), `Hello from fake-${format}`);
			const received = providers[format].received.filter(request => request.method === 'POST');
			assert.equal(received.length, 1);
			assert.match(received[0]!.path, path);
			const finished = gateway.finished.filter(event => event.model === model).at(-1)!;
			assert.deepEqual([finished.inboundFormat, finished.status, finished.usage?.inputTokens, finished.usage?.outputTokens], ['responses', 200, 11, 7]);
		});
	}

	test('a tool round trip: Codex runs the command the model calls and sends its output back', async () => {
		const anthropic = providers.anthropic;
		anthropic.reset();
		anthropic.enqueue({toolCalls: [{id: 'toolu_codex1', name: 'exec_command', args: {cmd: 'echo gateway-ok'}}]}, {text: 'The command printed gateway-ok.'});
		const run = await codexExec('via-anthropic', 'Run echo gateway-ok');
		assert.equal(run.code, 0, run.stderr.slice(-2000));
		assert.equal(run.stdout.trim(), 'The command printed gateway-ok.');
		const saw = providerSaw('anthropic', anthropic.received.at(-1)!.body);
		assert.deepEqual(saw.toolCalls, [{id: 'toolu_codex1', name: 'exec_command', args: {cmd: 'echo gateway-ok'}}]);
		assert.equal(saw.toolResults[0]!.id, 'toolu_codex1');
		assert.ok(saw.toolResults[0]!.text.length > 0, 'Codex sent the command output back');
	});
});
