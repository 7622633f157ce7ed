import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {assertRefused, runCli} from '../helpers/cli.js';
import {tempHome} from '../helpers/gateway.js';
import type {ApplyResult, ToolStatus, UndoResult} from '../../source/services/takeover/index.js';

let root: string;
let home: string;
let env: Record<string, string | undefined>;

before(() => {
	root = tempHome();
	home = join(root, 'home');
	mkdirSync(home);
	// The user's own variables must not leak in: the CLI reads HOME, CODEX_HOME and the tools' keys.
	env = {HOME: home, GATEWAY_TUI_HOME: join(root, 'data'), CODEX_HOME: undefined, ANTHROPIC_API_KEY: undefined, GEMINI_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: undefined};
});
after(() => rmSync(root, {recursive: true, force: true}));

test('takeover status, apply, undo through the CLI, with --json and human output', async () => {
	const empty = JSON.parse((await runCli(['takeover', 'status', '--json'], env)).stdout) as ToolStatus[];
	assert.deepEqual(
		empty.map(status => [status.tool, status.state]),
		[
			['claude', 'not-detected'],
			['codex', 'not-detected'],
			['gemini', 'not-detected'],
		],
	);
	mkdirSync(join(home, '.claude'));
	mkdirSync(join(home, '.codex'));
	writeFileSync(join(home, '.codex', 'config.toml'), '# mine\nmodel_provider = "corp"\n\n[model_providers.corp]\nbase_url = "https://corp.example/v1"\n');

	assertRefused(await runCli(['takeover', 'apply', 'claude'], env), /The gateway has no enabled channel, so Claude Code would only get errors: add one with `gateway-tui channels add/);
	await runCli(['channels', 'add', '--name', 'main', '--format', 'anthropic', '--base-url', 'https://api.anthropic.test', '--api-key', 'sk-ant-0123456789abcdef', '--models', 'claude-sonnet-4'], env);

	const applied = await runCli(['takeover', 'apply', 'claude', '--model', 'claude-sonnet-4', '--port', '11999', '--json'], env);
	assert.equal(applied.code, 0, applied.stderr);
	const result = JSON.parse(applied.stdout) as ApplyResult;
	assert.deepEqual({tool: result.tool, keyName: result.keyName, keyCreated: result.keyCreated, gatewayUrl: result.gatewayUrl, model: result.model}, {tool: 'claude', keyName: 'takeover-claude', keyCreated: true, gatewayUrl: 'http://127.0.0.1:11999', model: 'claude-sonnet-4'});
	const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as {env: Record<string, string>};
	assert.equal(settings.env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:11999');
	assert.match(settings.env.ANTHROPIC_AUTH_TOKEN!, /^sk-gtui-/);

	const status = await runCli(['takeover', 'status', '--port', '11999'], env);
	assert.match(status.stdout, /^TOOL\s+NAME\s+STATE\s+POINTS AT\s+MODEL\s+CONFIG$/m);
	assert.match(status.stdout, /^claude\s+Claude Code\s+taken over\s+http:\/\/127\.0\.0\.1:11999\s+claude-sonnet-4\s+~\/\.claude\/settings\.json$/m);
	assert.match(status.stdout, /^codex\s+Codex\s+connected elsewhere\s+https:\/\/corp\.example\/v1\s+-\s+~\/\.codex\/config\.toml$/m);
	assert.match(status.stdout, /^gemini\s+Gemini CLI\s+not detected\s+-\s+-\s+~\/\.gemini \(missing\)$/m);

	assertRefused(await runCli(['takeover', 'apply', 'codex'], env), /Codex is connected elsewhere .* Run `gateway-tui takeover apply codex --force`/);
	const forced = await runCli(['takeover', 'apply', 'codex', '--force', '--model', 'claude-sonnet-4'], env);
	assert.equal(forced.code, 0, forced.stderr);
	assert.match(forced.stdout, /^Codex now uses the gateway at http:\/\/127\.0\.0\.1:11580 with the key "takeover-codex" \(created\), model claude-sonnet-4\.$/m);
	assert.match(forced.stdout, /^ {2}~\/\.codex\/config\.toml: set .*model_providers\.gateway-tui\.experimental_bearer_token.*; replaced model_provider \(backup: ~\/\.codex\/config\.toml\.bak\)$/m);
	assert.match(forced.stdout, /^Undo with `gateway-tui takeover undo codex`\.$/m);

	const undone = await runCli(['takeover', 'undo', 'codex'], env);
	assert.equal(undone.code, 0, undone.stderr);
	assert.match(undone.stdout, /^Codex no longer uses the gateway\.\n {2}~\/\.codex\/config\.toml: removed .*; restored model_provider\nBackups left in place: ~\/\.codex\/config\.toml\.bak\.$/m);
	assert.equal(readFileSync(join(home, '.codex', 'config.toml'), 'utf8'), readFileSync(join(home, '.codex', 'config.toml.bak'), 'utf8'));

	const undoJson = JSON.parse((await runCli(['takeover', 'undo', 'claude', '--json'], env)).stdout) as UndoResult;
	assert.deepEqual(undoJson.files.map(file => [file.deleted, file.removed.length]), [[true, 4]]);
	assertRefused(await runCli(['takeover', 'undo', 'claude'], env), /Nothing to undo: Claude Code does not point at the gateway/);
	assertRefused(await runCli(['takeover', 'apply', 'cursor'], env), /Unknown tool "cursor": use claude, codex or gemini\./);
});
