/**
 * End to end with the real tools (devDependencies): Claude Code (`@anthropic-ai/claude-code` 2.0.x,
 * plain JS on Node ≥ 18), Gemini CLI (`@google/gemini-cli`) and Codex (`@openai/codex`, a Rust
 * binary). As a user does it: `gateway-tui serve --port 0` runs as a child process, `channels add`
 * points it at strict fake providers, `takeover apply <tool> --port … --model …` writes the tool's
 * config into a temporary home, and the real tool, run headless with HOME set to that home, answers
 * through the gateway. The request must reach the fake and the gateway's request log
 * (`gateway-tui logs --json`); `takeover undo` must then put the user's config files back.
 *
 * Each tool also runs on a channel of another format (Claude Code on OpenAI and Gemini, Gemini CLI
 * on Anthropic, Codex on OpenAI chat completions and Gemini), with a tool call round trip where the
 * run is deterministic.
 *
 * No network but loopback. What keeps each tool off it:
 * - Claude Code: `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1` (no Statsig, Sentry, auto-updater);
 *   the model calls go to ANTHROPIC_BASE_URL from the takeover.
 * - Gemini CLI: `privacy.usageStatisticsEnabled: false` in the user's settings.json (Clearcut usage
 *   statistics to play.googleapis.com has no environment switch); `GEMINI_CLI_TRUST_WORKSPACE=true`
 *   trusts the working folder headless.
 * - Codex: `[analytics] enabled = false` and `[features] plugins = false` in the user's config.toml
 *   (the same as `-c analytics.enabled=false --disable plugins`), `--skip-git-repo-check`.
 * The tools' own variables (ANTHROPIC_*, CLAUDE_*, GEMINI_*, GOOGLE_*, OPENAI_*, CODEX_*, XDG_*) and
 * CI are left out of their environment, as in a user's shell. A tool that cannot start here is
 * skipped, saying why.
 */
import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {after, before, describe, test, type TestContext} from 'node:test';
import type {ApplyResult, ToolStatus, UndoResult} from '../../source/services/takeover/index.js';
import type {RequestRecord} from '../../source/store/usage-summary.js';
import {runCli, startServe, stopChild, type Ran} from '../helpers/cli.js';
import {startFakeProvider, type FakeFormat, type FakeProvider, type ReceivedRequest} from '../helpers/fake-providers.js';
import {tempHome} from '../helpers/gateway.js';
import {eventually} from '../helpers/sdks.js';

type Tool = 'claude' | 'gemini' | 'codex';
type Run = {code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string};

const bins: Record<Tool, string> = {
	claude: fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url)),
	gemini: fileURLToPath(new URL('../../node_modules/.bin/gemini', import.meta.url)),
	codex: fileURLToPath(new URL('../../node_modules/.bin/codex', import.meta.url)),
};
const packages: Record<Tool, string> = {claude: '@anthropic-ai/claude-code', gemini: '@google/gemini-cli', codex: '@openai/codex'};
const formats: readonly FakeFormat[] = ['openai', 'anthropic', 'gemini'];
const toolTimeoutMs = 55_000;
const testTimeout = {timeout: 120_000};

/** The user's own config files, written before the takeover: apply must keep them, undo must give them back. */
const userConfig: Record<Tool, {path: string; text: string}> = {
	claude: {path: '.claude/settings.json', text: `${JSON.stringify({includeCoAuthoredBy: false, env: {DISABLE_AUTOUPDATER: '1'}}, null, 2)}\n`},
	gemini: {
		path: '.gemini/settings.json',
		text: `${JSON.stringify({privacy: {usageStatisticsEnabled: false}, security: {auth: {selectedType: 'oauth-personal'}}}, null, 2)}\n`,
	},
	codex: {
		path: '.codex/config.toml',
		text: '# My own Codex settings\nmodel = "gpt-5-codex" # my default\napproval_policy = "never"\n\n# no analytics, no plugin sync\n[analytics]\nenabled = false\n\n[features]\nplugins = false\n',
	},
};

let root: string;
let home: string;
let work: string;
let cliEnv: Record<string, string | undefined>;
let serve: Awaited<ReturnType<typeof startServe>>;
let gatewayUrl: string;
let port: string;
const providers = {} as Record<FakeFormat, FakeProvider>;
const cannotRun = {} as Record<Tool, string | undefined>;

/** Runs a command with closed stdin and a time-out; the whole process group is killed at the time-out. */
function run(command: string, args: readonly string[], options: {cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number}): Promise<Run> {
	return new Promise((resolve, reject) => {
		const child: ChildProcess = spawn(command, args, {cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true});
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => {
			stderr += `\n[killed after ${options.timeoutMs} ms]`;
			try {
				if (child.pid) process.kill(-child.pid, 'SIGKILL');
			} catch {
				// already gone
			}
		}, options.timeoutMs);
		child.on('error', error => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolve({code, signal, stdout, stderr});
		});
	});
}

/** The environment of a user's shell with HOME at the temporary home: none of the tools' own variables, no CI. */
function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (/^(ANTHROPIC_|CLAUDE_|GEMINI_|GOOGLE_|OPENAI_|CODEX_|XDG_)/.test(name) || name === 'CI') continue;
		env[name] = value;
	}
	return {...env, HOME: home, NO_COLOR: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true', ...extra};
}

function runTool(tool: Tool, args: readonly string[], extraEnv: Record<string, string> = {}): Promise<Run> {
	return run(bins[tool], args, {cwd: work, env: toolEnv(extraEnv), timeoutMs: toolTimeoutMs});
}

/** Why the tool cannot start here (`<tool> --version` in a throwaway home), or undefined. */
async function probe(tool: Tool): Promise<string | undefined> {
	if (!existsSync(bins[tool])) return `node_modules/.bin/${tool} is missing: install the devDependency ${packages[tool]} (npm install)`;
	const probeHome = join(root, `probe-${tool}`);
	mkdirSync(probeHome, {recursive: true});
	try {
		const ran = await run(bins[tool], ['--version'], {cwd: probeHome, env: {...toolEnv(), HOME: probeHome}, timeoutMs: 30_000});
		if (ran.code !== 0) return `\`${tool} --version\` exited ${String(ran.code ?? ran.signal)}: ${(ran.stderr || ran.stdout).trim().slice(0, 300)}`;
	} catch (error) {
		return `${packages[tool]} cannot start here: ${(error as Error).message}`;
	}
	return undefined;
}

function ok(ran: Ran, what: string): string {
	assert.equal(ran.code, 0, `${what} failed: ${ran.stderr}`);
	return ran.stdout;
}

function readHome(path: string): string | null {
	const full = join(home, path);
	return existsSync(full) ? readFileSync(full, 'utf8') : null;
}

function writeHome(path: string, text: string): void {
	const full = join(home, path);
	mkdirSync(dirname(full), {recursive: true});
	writeFileSync(full, text);
}

/** `takeover apply` as a user types it; waits until the running gateway knows the key and serves the model (it reloads the store within a second). */
async function apply(tool: Tool, model: string): Promise<ApplyResult> {
	const result = JSON.parse(ok(await runCli(['takeover', 'apply', tool, '--port', port, '--model', model, '--json'], cliEnv), `takeover apply ${tool}`)) as ApplyResult;
	assert.equal(result.keyName, `takeover-${tool}`);
	assert.equal(result.gatewayUrl, gatewayUrl);
	const configs = {claude: ['.claude/settings.json'], gemini: ['.gemini/.env'], codex: ['.codex/config.toml']}[tool];
	const secret = configs.map(path => /sk-gtui-[\w-]+/.exec(readHome(path) ?? '')?.[0]).find(Boolean);
	assert.ok(secret, `the takeover wrote a gateway key into ${configs.join(', ')}`);
	await eventually(
		async () => (await fetch(`${gatewayUrl}/v1/models/${model}`, {headers: {authorization: `Bearer ${secret}`}})).status === 200,
		5000,
		`the gateway to accept the key takeover-${tool} for ${model}`,
	);
	return result;
}

async function undo(tool: Tool): Promise<UndoResult> {
	return JSON.parse(ok(await runCli(['takeover', 'undo', tool, '--json'], cliEnv), `takeover undo ${tool}`)) as UndoResult;
}

async function status(tool: Tool): Promise<ToolStatus> {
	const statuses = JSON.parse(ok(await runCli(['takeover', 'status', '--port', port, '--json'], cliEnv), 'takeover status')) as ToolStatus[];
	return statuses.find(entry => entry.tool === tool)!;
}

/** The generation requests the fake received whose body holds the prompt. */
function requestsWith(provider: FakeProvider, prompt: string): ReceivedRequest[] {
	return provider.received.filter(request => request.method === 'POST' && JSON.stringify(request.body ?? null).includes(prompt));
}

/** Waits for the gateway's request log (`gateway-tui logs --json`) to hold a record like `expected`, newer than `since`. */
async function logged(expected: Partial<Record<keyof RequestRecord, unknown>>, since: string): Promise<RequestRecord> {
	let found: RequestRecord | undefined;
	await eventually(
		async () => {
			const records = JSON.parse(ok(await runCli(['logs', '--json', '--tail', '50'], cliEnv), 'logs')) as RequestRecord[];
			found = records.find(record => record.time >= since && Object.entries(expected).every(([name, value]) => record[name as keyof RequestRecord] === value));
			return found !== undefined;
		},
		8000,
		`a request log record ${JSON.stringify(expected)}`,
	);
	return found!;
}

function toolRan(ran: Run, what: string): void {
	assert.equal(ran.code, 0, `${what} exited ${String(ran.code ?? ran.signal)}\nstdout: ${ran.stdout.slice(-2000)}\nstderr: ${ran.stderr.slice(-3000)}`);
}

/** The fake saw the prompt, with its own key: the virtual key stops at the gateway. */
function assertReached(provider: FakeProvider, prompt: string, path: RegExp): ReceivedRequest[] {
	const seen = requestsWith(provider, prompt);
	assert.ok(seen.length > 0, `fake-${provider.format} received no request with "${prompt}": ${provider.received.map(request => `${request.method} ${request.path}`).join(', ')}`);
	for (const request of seen) {
		assert.match(request.path, path);
		assert.ok(!JSON.stringify(request.headers).includes('sk-gtui-'), 'the virtual key must not reach the provider');
	}
	return seen;
}

function skipped(t: TestContext, tool: Tool): boolean {
	if (!cannotRun[tool]) return false;
	t.skip(cannotRun[tool]);
	return true;
}

before(async () => {
	root = tempHome();
	home = join(root, 'home');
	work = join(root, 'work');
	mkdirSync(home);
	mkdirSync(work);
	writeFileSync(join(work, 'notes.txt'), 'gateway-e2e-secret-42\n');
	cliEnv = {HOME: home, GATEWAY_TUI_HOME: join(root, 'data'), CODEX_HOME: undefined, ANTHROPIC_API_KEY: undefined, GEMINI_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: undefined};
	const [probes] = await Promise.all([
		Promise.all((['claude', 'gemini', 'codex'] as const).map(async tool => [tool, await probe(tool)] as const)),
		...formats.map(async format => (providers[format] = await startFakeProvider(format))),
	]);
	for (const [tool, reason] of probes) cannotRun[tool] = reason;
	serve = await startServe(['--port', '0'], cliEnv);
	gatewayUrl = serve.url;
	port = new URL(gatewayUrl).port;
	for (const format of formats) {
		const provider = providers[format];
		ok(await runCli(['channels', 'add', '--name', format, '--format', format, '--base-url', provider.url, '--api-key', provider.apiKey, '--models', provider.models[0]!], cliEnv), `channels add ${format}`);
	}
});

after(async () => {
	if (serve) assert.equal(await stopChild(serve.child), 0, serve.stderr());
	await Promise.all(formats.map(format => providers[format]?.close()));
	rmSync(root, {recursive: true, force: true});
});

describe('Claude Code: `claude -p` after `takeover apply claude`', () => {
	test('on an Anthropic channel: the fake answers through the gateway; status says taken over', testTimeout, async t => {
		if (skipped(t, 'claude')) return;
		writeHome(userConfig.claude.path, userConfig.claude.text);
		const since = new Date().toISOString();
		const applied = await apply('claude', 'claude-sonnet-4-6');
		assert.deepEqual(applied.files.map(file => [file.path, file.set]), [[join(home, '.claude', 'settings.json'), ['env.ANTHROPIC_BASE_URL', 'env.ANTHROPIC_AUTH_TOKEN', 'env.ANTHROPIC_MODEL', 'env.ANTHROPIC_DEFAULT_HAIKU_MODEL']]]);
		const settings = JSON.parse(readHome(userConfig.claude.path)!) as {includeCoAuthoredBy: boolean; env: Record<string, string>};
		assert.equal(settings.includeCoAuthoredBy, false);
		assert.equal(settings.env.DISABLE_AUTOUPDATER, '1');
		assert.equal((await status('claude')).state, 'taken-over');

		providers.anthropic.reset();
		const ran = await runTool('claude', ['-p', 'Say hello']);
		toolRan(ran, 'claude -p');
		assert.equal(ran.stdout.trim(), 'Hello from fake-anthropic');
		assertReached(providers.anthropic, 'Say hello', /^\/v1\/messages$/);
		await logged({keyName: 'takeover-claude', model: 'claude-sonnet-4-6', channelName: 'anthropic', inboundFormat: 'anthropic', outboundFormat: 'anthropic', status: 200, path: '/v1/messages'}, since);
	});

	test('on an OpenAI channel: translated both ways, with a Read tool round trip', testTimeout, async t => {
		if (skipped(t, 'claude')) return;
		const since = new Date().toISOString();
		await apply('claude', 'gpt-4o-mini');
		const openai = providers.openai;
		openai.reset();
		openai.enqueue({toolCalls: [{id: 'call_read1', name: 'Read', args: {file_path: join(work, 'notes.txt')}}]}, {text: 'The notes say gateway-e2e-secret-42.'});
		// Without prompt caching Claude Code sends no warm-up requests, which would take the scripted replies.
		const ran = await runTool('claude', ['-p', 'What do the notes say?'], {DISABLE_PROMPT_CACHING: '1'});
		toolRan(ran, 'claude -p');
		assert.equal(ran.stdout.trim(), 'The notes say gateway-e2e-secret-42.');
		const seen = assertReached(openai, 'What do the notes say?', /^\/v1\/chat\/completions$/);
		assert.equal(seen.length, 2, 'the question, then the tool result');
		const messages = (seen[1]!.body as {messages: Array<{role: string; tool_call_id?: string; content: unknown}>}).messages;
		const result = messages.find(message => message.role === 'tool');
		assert.equal(result?.tool_call_id, 'call_read1');
		assert.match(JSON.stringify(result.content), /gateway-e2e-secret-42/);
		await logged({keyName: 'takeover-claude', model: 'gpt-4o-mini', channelName: 'openai', inboundFormat: 'anthropic', outboundFormat: 'openai', status: 200}, since);
	});

	test("on a Gemini channel: Claude Code's tool schemas (free-form maps) are accepted", testTimeout, async t => {
		if (skipped(t, 'claude')) return;
		const since = new Date().toISOString();
		await apply('claude', 'gemini-2.5-flash');
		providers.gemini.reset();
		const ran = await runTool('claude', ['-p', 'Say hello']);
		toolRan(ran, 'claude -p');
		assert.equal(ran.stdout.trim(), 'Hello from fake-gemini');
		const [first] = assertReached(providers.gemini, 'Say hello', /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/);
		const declarations = (first!.body as {tools: Array<{functionDeclarations: Array<{name: string}>}>}).tools[0]!.functionDeclarations;
		assert.ok(declarations.some(declaration => declaration.name === 'AskUserQuestion'), 'AskUserQuestion (whose `answers` is a free-form map) went through');
		await logged({keyName: 'takeover-claude', model: 'gemini-2.5-flash', channelName: 'gemini', inboundFormat: 'anthropic', outboundFormat: 'gemini', status: 200}, since);
	});

	test('takeover undo claude puts settings.json back', testTimeout, async t => {
		if (skipped(t, 'claude')) return;
		const undone = await undo('claude');
		assert.deepEqual(undone.kept, []);
		assert.equal(readHome(userConfig.claude.path), userConfig.claude.text);
		assert.equal((await status('claude')).state, 'not-taken-over');
	});
});

describe('Gemini CLI: `gemini -p` after `takeover apply gemini`', () => {
	test('on a Gemini channel: the fake answers through the gateway', testTimeout, async t => {
		if (skipped(t, 'gemini')) return;
		writeHome(userConfig.gemini.path, userConfig.gemini.text);
		const since = new Date().toISOString();
		await apply('gemini', 'gemini-2.5-flash');
		const settings = JSON.parse(readHome(userConfig.gemini.path)!) as {privacy: {usageStatisticsEnabled: boolean}; security: {auth: {selectedType: string}}};
		assert.deepEqual(settings, {privacy: {usageStatisticsEnabled: false}, security: {auth: {selectedType: 'gemini-api-key'}}});
		assert.equal((await status('gemini')).state, 'taken-over');

		providers.gemini.reset();
		const ran = await runTool('gemini', ['-p', 'Say hello']);
		toolRan(ran, 'gemini -p');
		assert.equal(ran.stdout.trim(), 'Hello from fake-gemini');
		assertReached(providers.gemini, 'Say hello', /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/);
		await logged({keyName: 'takeover-gemini', model: 'gemini-2.5-flash', channelName: 'gemini', inboundFormat: 'gemini', outboundFormat: 'gemini', status: 200}, since);
	});

	test('on an Anthropic channel: translated both ways, with a read_file tool round trip', testTimeout, async t => {
		if (skipped(t, 'gemini')) return;
		const since = new Date().toISOString();
		await apply('gemini', 'claude-sonnet-4-6');
		const anthropic = providers.anthropic;
		anthropic.reset();
		anthropic.enqueue({toolCalls: [{id: 'toolu_read1', name: 'read_file', args: {file_path: 'notes.txt'}}]}, {text: 'The notes say gateway-e2e-secret-42.'});
		const ran = await runTool('gemini', ['-p', 'What do the notes say?']);
		toolRan(ran, 'gemini -p');
		assert.equal(ran.stdout.trim(), 'The notes say gateway-e2e-secret-42.');
		const seen = assertReached(anthropic, 'What do the notes say?', /^\/v1\/messages$/);
		assert.equal(seen.length, 2, 'the question, then the tool result');
		const messages = (seen[1]!.body as {messages: Array<{role: string; content: Array<{type: string; tool_use_id?: string}>}>}).messages;
		const result = messages.at(-1)!.content.find(block => block.type === 'tool_result');
		assert.equal(result?.tool_use_id, 'toolu_read1');
		assert.match(JSON.stringify(result), /gateway-e2e-secret-42/);
		await logged({keyName: 'takeover-gemini', model: 'claude-sonnet-4-6', channelName: 'anthropic', inboundFormat: 'gemini', outboundFormat: 'anthropic', status: 200}, since);
	});

	test('takeover undo gemini removes .env and puts settings.json back', testTimeout, async t => {
		if (skipped(t, 'gemini')) return;
		const undone = await undo('gemini');
		assert.deepEqual(undone.kept, []);
		assert.equal(readHome('.gemini/.env'), null);
		assert.equal(readHome(userConfig.gemini.path), userConfig.gemini.text);
		assert.equal((await status('gemini')).state, 'not-taken-over');
	});
});

describe('Codex: `codex exec` after `takeover apply codex`', () => {
	const exec = (prompt: string) => runTool('codex', ['exec', '--skip-git-repo-check', '--color', 'never', prompt]);

	test('on an OpenAI channel (Responses API translated to chat completions): the fake answers through the gateway', testTimeout, async t => {
		if (skipped(t, 'codex')) return;
		writeHome(userConfig.codex.path, userConfig.codex.text);
		const since = new Date().toISOString();
		await apply('codex', 'gpt-4o-mini');
		const config = readHome(userConfig.codex.path)!;
		assert.ok(config.startsWith('# My own Codex settings\nmodel = "gpt-4o-mini" # my default\n'), config);
		assert.match(config, /\[analytics\]\nenabled = false\n/);
		assert.equal((await status('codex')).state, 'taken-over');

		providers.openai.reset();
		const ran = await exec('Say hello');
		toolRan(ran, 'codex exec');
		assert.equal(ran.stdout.trim(), 'Hello from fake-openai');
		assertReached(providers.openai, 'Say hello', /^\/v1\/chat\/completions$/);
		await logged({keyName: 'takeover-codex', model: 'gpt-4o-mini', channelName: 'openai', inboundFormat: 'responses', outboundFormat: 'openai', status: 200, path: '/v1/responses'}, since);
	});

	test('on a Gemini channel: translated both ways', testTimeout, async t => {
		if (skipped(t, 'codex')) return;
		const since = new Date().toISOString();
		await apply('codex', 'gemini-2.5-flash');
		providers.gemini.reset();
		const ran = await exec('Say hello');
		toolRan(ran, 'codex exec');
		assert.equal(ran.stdout.trim(), 'Hello from fake-gemini');
		assertReached(providers.gemini, 'Say hello', /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/);
		await logged({keyName: 'takeover-codex', model: 'gemini-2.5-flash', channelName: 'gemini', inboundFormat: 'responses', outboundFormat: 'gemini', status: 200}, since);
	});

	test('takeover undo codex gives config.toml back byte for byte', testTimeout, async t => {
		if (skipped(t, 'codex')) return;
		const undone = await undo('codex');
		assert.deepEqual(undone.kept, []);
		assert.equal(readHome(userConfig.codex.path), userConfig.codex.text);
		assert.equal((await status('codex')).state, 'not-taken-over');
	});
});
