import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {takeoverStatus, type ToolState} from '../../source/services/takeover/index.js';
import {homes} from './setup.js';

/** For each tool, the files that put it in each state (relative to $HOME); null = config dir missing. */
const setups: Record<'claude' | 'codex' | 'gemini', Record<ToolState, Record<string, string> | null>> = {
	claude: {
		'not-detected': null,
		'not-taken-over': {'.claude/settings.json': '{"model": "opus"}'},
		'connected-elsewhere': {'.claude/settings.json': '{"env": {"ANTHROPIC_BASE_URL": "https://proxy.example.com"}}'},
		'taken-over': {'.claude/settings.json': '{"env": {"ANTHROPIC_BASE_URL": "http://localhost:11580/", "ANTHROPIC_AUTH_TOKEN": "sk-gtui-x"}}'},
	},
	codex: {
		'not-detected': null,
		'not-taken-over': {'.codex/config.toml': 'model = "gpt-5"\n'},
		'connected-elsewhere': {'.codex/config.toml': 'model_provider = "ollama"\n'},
		'taken-over': {'.codex/config.toml': 'model_provider = "gw"\n[model_providers.gw]\nbase_url = "http://127.0.0.1:11580/v1"\n'},
	},
	gemini: {
		'not-detected': null,
		'not-taken-over': {'.gemini/settings.json': '{"security": {"auth": {"selectedType": "oauth-personal"}}}'},
		'connected-elsewhere': {'.gemini/.env': 'GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9999\n'},
		'taken-over': {'.gemini/.env': 'GOOGLE_GEMINI_BASE_URL=http://[::1]:11580\nGEMINI_API_KEY=sk-gtui-x\n', '.gemini/settings.json': '{"security": {"auth": {"selectedType": "gemini-api-key"}}}'},
	},
};

const states: ToolState[] = ['not-detected', 'not-taken-over', 'connected-elsewhere', 'taken-over'];

test('status reports each of the four states for each tool', async () => {
	for (const state of states) {
		const h = await homes({channel: false});
		for (const tool of ['claude', 'codex', 'gemini'] as const) {
			const files = setups[tool][state];
			if (files) {
				mkdirSync(join(h.home, `.${tool}`), {recursive: true});
				for (const [path, text] of Object.entries(files)) h.write(path, text);
			}
		}
		const statuses = await takeoverStatus(h.options());
		assert.deepEqual(
			statuses.map(status => [status.tool, status.state, status.problem]),
			[
				['claude', state, null],
				['codex', state, null],
				['gemini', state, null],
			],
		);
		await h.close();
	}
});

test('status: where each tool points, its model, its files; the gateway URL given decides what "this gateway" is', async () => {
	const h = await homes({channel: false});
	h.write('.codex/config.toml', 'model = "gpt-5"\nmodel_provider = "gw"\n[model_providers.gw]\nbase_url = "http://127.0.0.1:11580/v1"\n');
	const [, codex] = await takeoverStatus(h.options());
	assert.deepEqual(codex, {
		tool: 'codex',
		title: 'Codex',
		state: 'taken-over',
		address: 'http://127.0.0.1:11580/v1',
		model: 'gpt-5',
		configDir: join(h.home, '.codex'),
		files: [join(h.home, '.codex/config.toml')],
		problem: null,
		warnings: [],
	});
	const [, onOtherPort] = await takeoverStatus(h.options({gatewayUrl: 'http://127.0.0.1:8080'}));
	assert.equal(onOtherPort!.state, 'connected-elsewhere');
	await h.close();
});

test('status: a malformed file is reported as a problem, not thrown', async () => {
	const h = await homes({channel: false});
	h.write('.claude/settings.json', '{ // hi\n}');
	const [claude] = await takeoverStatus(h.options());
	assert.equal(claude!.state, 'not-taken-over');
	assert.match(claude!.problem!, /settings\.json is not valid JSON \(line 1, column 3: a comment/);
	await h.close();
});
