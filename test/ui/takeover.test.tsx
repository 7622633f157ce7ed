/** @jsxRuntime automatic @jsxImportSource react */
/**
 * Takeover from the Endpoints pane, with the real service in a temporary HOME: `a` opens a form
 * (key, model, a preview of the lines written), submitting writes the files and runs the live
 * check, and `u` gives the files back byte for byte. The key chosen with ←/→ is for the snippets.
 */
import {test, before, after, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {cleanup} from 'ink-testing-library';
import {EndpointsPane, type EndpointsPaneProps} from '../../source/ui/panes/endpoints-pane.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {applyTakeover, type LiveCheck} from '../../source/services/takeover/index.js';
import {fakeClipboard, frameWith, keys, press, recordedActions, renderTui, statusLog} from './helpers.js';
import {listKeys} from '../../source/store/keys.js';

const gateway = 'http://127.0.0.1:11580';
const saved = {...process.env};
let home = '';

before(() => {
	home = mkdtempSync(join(tmpdir(), 'gateway-tui-home-'));
	process.env.HOME = home;
	// Variables that would change what the tools read, or add warnings.
	for (const name of ['CODEX_HOME', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'GEMINI_CLI_TRUST_WORKSPACE']) delete process.env[name];
});
after(() => {
	process.env = saved;
	rmSync(home, {recursive: true, force: true});
});
afterEach(() => {
	cleanup();
	for (const dir of ['.claude', '.codex', '.gemini']) rmSync(join(home, dir), {recursive: true, force: true});
});

const answered: LiveCheck = {ok: true, status: 200, latencyMs: 12, model: 'claude-sonnet-4-6', text: 'answered in 12 ms'};

async function setup(check: LiveCheck = answered, overrides: Partial<EndpointsPaneProps> = {}) {
	const real = await recordedActions();
	await addChannel(real.store, {name: 'claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-real', models: 'claude-sonnet-4-6,claude-haiku-4-5'});
	await addChannel(real.store, {name: 'openai', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-real', models: 'gpt-4o-mini'});
	const status = statusLog();
	const checks: string[] = [];
	const actions = {...real.actions, checkTakeover: async (tool: string) => (checks.push(tool), check)};
	const props: EndpointsPaneProps = {keys: [], channels: [], baseUrl: gateway, clipboard: fakeClipboard(), actions, onStatus: status.report, onCapture: () => {}, active: true, width: 100, height: 30, ...overrides};
	return {real, status, checks, props};
}

const down = (times: number) => Array.from({length: times}, () => keys.down);
const read = (path: string) => readFileSync(join(home, path), 'utf8');

test('a opens a form with its own key, the models it may use and a preview; submitting writes the model and checks it live; u restores the file byte for byte', async () => {
	mkdirSync(join(home, '.claude'));
	const original = '{\n  "theme": "dark",\n  "env": { "FOO": "bar" }\n}\n';
	writeFileSync(join(home, '.claude', 'settings.json'), original);
	const {real, status, checks, props} = await setup();
	try {
		const {stores} = {stores: await import('../../source/store/channels.js')};
		const channels = await stores.listChannels(real.store);
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} channels={channels} />);
		await frameWith(lastFrame, 'Claude Code: not taken over');
		await press(stdin, ...down(7));
		await frameWith(lastFrame, /a takes it over \(choose its key and model\)/);
		await press(stdin, 'a');
		const form = await frameWith(lastFrame, 'env.ANTHROPIC_MODEL = claude-sonnet-4-6');
		assert.match(form, /Take over Claude Code/);
		assert.match(form, /takeover-claude \(its own, made now\)/);
		assert.match(form, /Writes ~\/\.claude\/settings\.json/);
		assert.match(form, /env\.ANTHROPIC_AUTH_TOKEN = <key takeover-claude>/);
		assert.match(form, /env\.ANTHROPIC_DEFAULT_HAIKU_MODEL = claude-haiku-4-5/);
		assert.doesNotMatch(form, /--model|--key/);

		await press(stdin, keys.enter);
		const models = await frameWith(lastFrame, /› Model\s+› claude-sonnet-4-6/);
		assert.match(models, /^│\s+claude-haiku-4-5\s+│$/m);
		assert.match(models, /^│\s+gpt-4o-mini\s+│$/m);
		await press(stdin, keys.enter, keys.enter, keys.enter);
		await frameWith(() => status.last()?.text, /answered/);
		assert.equal(status.last()!.text, 'Claude Code now uses the gateway (key takeover-claude, just created, model claude-sonnet-4-6) and answered in 12 ms. Backup: ~/.claude/settings.json.bak.');
		assert.deepEqual(checks, ['claude']);
		const [key] = await listKeys(real.store);
		const settings = JSON.parse(read('.claude/settings.json')) as {env: Record<string, string>};
		assert.deepEqual(settings.env, {FOO: 'bar', ANTHROPIC_BASE_URL: gateway, ANTHROPIC_AUTH_TOKEN: key!.secret, ANTHROPIC_MODEL: 'claude-sonnet-4-6', ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-haiku-4-5'});
		assert.equal(read('.claude/settings.json.bak'), original);
		assert.equal(statSync(join(home, '.claude', 'settings.json.bak')).mode & 0o777, 0o600);
		const shown = await frameWith(lastFrame, /live check\s+answered in 12 ms/);
		assert.match(shown, /model\s+claude-sonnet-4-6/);
		assert.doesNotMatch(shown, /No model is set/);

		await press(stdin, 'u');
		await frameWith(() => status.last()?.text, /no longer uses the gateway/);
		assert.equal(read('.claude/settings.json'), original, 'byte for byte');
		await frameWith(lastFrame, 'Claude Code: not taken over');
	} finally {
		await real.close();
	}
});

test('←/→ does not change the takeover key; the form does, and limits the models to what that key may use', async () => {
	const {real, status, props} = await setup();
	try {
		const laptop = await createKey(real.store, {name: 'laptop', models: ['gpt-4o-mini']});
		const channels = await (await import('../../source/store/channels.js')).listChannels(real.store);
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} keys={[laptop]} channels={channels} />);
		await frameWith(lastFrame, 'Codex: not detected');
		await press(stdin, keys.right, keys.left, ...down(8), 'a');
		await frameWith(lastFrame, 'Take over Codex');
		assert.match(lastFrame()!, /Key\s+.*takeover-codex \(its own, made now\)/);
		await press(stdin, keys.down);
		const chosen = await frameWith(lastFrame, /experimental_bearer_token = <key laptop>/);
		assert.match(chosen, /model = gpt-4o-mini/);
		await press(stdin, keys.enter, keys.enter, keys.enter);
		await frameWith(() => status.last()?.text, /answered/);
		assert.match(status.last()!.text, /^Codex now uses the gateway \(key laptop, model gpt-4o-mini\) and answered in 12 ms\.$/);
		assert.match(read('.codex/config.toml'), new RegExp(`experimental_bearer_token = "${laptop.secret}"`));
		assert.match(read('.codex/config.toml'), /^model = "gpt-4o-mini"$/m);
	} finally {
		await real.close();
	}
});

test('a failed live check says so in red with what to do next; a tool connected elsewhere is replaced from the form', async () => {
	mkdirSync(join(home, '.gemini'));
	writeFileSync(join(home, '.gemini', '.env'), '# my own proxy\nGOOGLE_GEMINI_BASE_URL=http://proxy.example:8080\n');
	const failed: LiveCheck = {ok: false, status: 404, latencyMs: 5, model: 'claude-sonnet-4-6', text: '404: No enabled channel serves the model "x"'};
	const {real, status, props} = await setup(failed);
	try {
		const channels = await (await import('../../source/store/channels.js')).listChannels(real.store);
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} channels={channels} />);
		await frameWith(lastFrame, 'Gemini CLI: elsewhere');
		await press(stdin, ...down(9), 'a');
		const form = await frameWith(lastFrame, 'GEMINI_MODEL = claude-sonnet-4-6');
		assert.match(form, /Gemini CLI points at http:\/\/proxy\.example:8080 now: this replaces it/);
		assert.match(form, /Folders\s+trusted folders only/);
		await press(stdin, keys.enter, keys.enter, keys.down, keys.enter);
		await frameWith(lastFrame, 'security.folderTrust.enabled = false');
		await press(stdin, keys.enter);
		await frameWith(() => status.last()?.text, /live check failed/);
		assert.equal(status.last()!.kind, 'error');
		assert.match(status.last()!.text, /^Gemini CLI now points at the gateway \(key takeover-gemini, just created, model claude-sonnet-4-6\), but the live check failed \(HTTP 404\): see the tool's details here\./);
		assert.match(read('.gemini/.env'), /^# my own proxy\nGOOGLE_GEMINI_BASE_URL=http:\/\/127\.0\.0\.1:11580\nGEMINI_API_KEY=sk-gtui-/);
		assert.deepEqual(JSON.parse(read('.gemini/settings.json')), {security: {auth: {selectedType: 'gemini-api-key'}, folderTrust: {enabled: false}}});
		const shown = await frameWith(lastFrame, /live check\s+404: No enabled channel serves the model "x"\. Press a/);
		assert.match(shown, /› Gemini CLI: taken over/, 'the tool stays selected');
		assert.doesNotMatch(shown, /only in folders you trust/);
	} finally {
		await real.close();
	}
});

test("at 80×24 a Gemini CLI taken over for trusted folders only shows the whole warning, both ways out, under its live check", async () => {
	mkdirSync(join(home, '.gemini'));
	// 80 columns; 18 rows are what the pane has at 24 with a two-line status message under it.
	const {real, checks, props} = await setup(answered, {width: 80, height: 18});
	try {
		const channels = await (await import('../../source/store/channels.js')).listChannels(real.store);
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} channels={channels} />);
		await frameWith(lastFrame, 'Gemini CLI: not taken over');
		await press(stdin, ...down(9), 'a');
		await frameWith(lastFrame, /Folders\s+trusted folders only/);
		await press(stdin, keys.enter, keys.enter, keys.enter, keys.enter);
		const shown = await frameWith(lastFrame, /live check\s+answered in 12 ms/);
		assert.deepEqual(checks, ['gemini']);
		const detail = shown.split('\n').map(line => line.split('│')[2] ?? '').join(' ').replace(/\s+/g, ' ');
		assert.match(detail, /! Gemini CLI uses the gateway in folders it trusts: trust yours \(or run `gemini --skip-trust`\), or press a for every folder\./);
		assert.doesNotMatch(shown, /a takes it over/, 'the footer says it once taken over: its rows go to the warning');
	} finally {
		await real.close();
	}
});

test('the no-model warning comes from the file: shown after a takeover without a model, gone once one is set', async () => {
	mkdirSync(join(home, '.claude'));
	const {real, props} = await setup();
	try {
		await applyTakeover(real.store, 'claude', {gatewayUrl: gateway, dataDir: real.store.home});
		const channels = await (await import('../../source/store/channels.js')).listChannels(real.store);
		const {stdin, lastFrame, rerender} = renderTui(<EndpointsPane {...props} channels={channels} />);
		await press(stdin, ...down(7));
		const warned = await frameWith(lastFrame, /No model is set/);
		assert.match(warned, /Press a to choose/);
		assert.doesNotMatch(warned, /--model/);
		await applyTakeover(real.store, 'claude', {gatewayUrl: gateway, dataDir: real.store.home, model: 'claude-sonnet-4-6'});
		// The pane re-reads the files each time it is shown.
		rerender(<EndpointsPane {...props} channels={channels} active={false} />);
		rerender(<EndpointsPane {...props} channels={channels} />);
		await frameWith(lastFrame, frame => /model\s+claude-sonnet-4-6/.test(frame) && !frame.includes('No model is set'));
	} finally {
		await real.close();
	}
});

test('at 80×24 the preview takes the room the form leaves: every line while the key list is open, "↓ n more" only when the model list needs the room', async () => {
	mkdirSync(join(home, '.claude'));
	writeFileSync(join(home, '.claude', 'settings.json'), '{}\n');
	const {real, props} = await setup();
	try {
		await addChannel(real.store, {name: 'more', format: 'openai', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-more', models: 'gpt-4o,gpt-4.1,o4-mini,o3'});
		const {listChannels} = await import('../../source/store/channels.js');
		const channels = await listChannels(real.store);
		const laptop = await real.actions.createKey({name: 'laptop'});
		const agent = await real.actions.createKey({name: 'agent'});
		// The pane's height at 80×24: the rows less the tab bar, footer and a two-line status bar, less one.
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} keys={[laptop, agent]} channels={channels} width={80} height={19} />);
		await frameWith(lastFrame, 'Claude Code: not taken over');
		await press(stdin, ...down(7), 'a');
		const keyOpen = await frameWith(lastFrame, 'env.ANTHROPIC_DEFAULT_HAIKU_MODEL = claude-haiku-4-5');
		assert.match(keyOpen, /env\.ANTHROPIC_BASE_URL[\s\S]*env\.ANTHROPIC_AUTH_TOKEN[\s\S]*env\.ANTHROPIC_MODEL/, 'the whole preview beside the open key list');
		assert.doesNotMatch(keyOpen, / ↓ \d+ more\s*│/, "no line of the preview out of sight");
		await press(stdin, keys.enter);
		const modelOpen = await frameWith(lastFrame, /› Model/);
		assert.match(modelOpen, /Writes ~\/\.claude\/settings\.json/, 'the preview keeps its first lines');
		assert.equal(modelOpen.split('\n').length, 19, 'the form and the preview fit the pane');
	} finally {
		await real.close();
	}
});

test('u on a tool that is not taken over is a short note, not a red error cut after two lines', async () => {
	mkdirSync(join(home, '.codex'));
	writeFileSync(join(home, '.codex', 'config.toml'), 'model = "gpt-5-codex"\n');
	const {real, status, props} = await setup();
	try {
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} />);
		await frameWith(lastFrame, 'Codex: not taken over');
		await press(stdin, ...down(8), 'u');
		await frameWith(() => status.last()?.text, /nothing to undo/);
		assert.deepEqual(status.last(), {kind: 'info', text: 'Codex is not taken over: nothing to undo (a takes it over).'});
		assert.equal(read('.codex/config.toml'), 'model = "gpt-5-codex"\n', 'the file as it was');
	} finally {
		await real.close();
	}
});
