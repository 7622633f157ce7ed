/** @jsxRuntime automatic @jsxImportSource react */
/**
 * Takeover from the Endpoints pane, with the real service in a temporary HOME: keypresses apply and
 * undo (the tools' files change, and change back), and a tool connected elsewhere is overwritten
 * only after a question.
 */
import {test, before, after, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {cleanup} from 'ink-testing-library';
import {EndpointsPane, type EndpointsPaneProps} from '../../source/ui/panes/endpoints-pane.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {fakeClipboard, frameWith, keys, press, recordedActions, renderTui, statusLog} from './helpers.js';
import {listKeys} from '../../source/store/keys.js';

const gateway = 'http://127.0.0.1:11580';
const saved = {...process.env};
let home = '';

before(() => {
	home = mkdtempSync(join(tmpdir(), 'gateway-tui-home-'));
	process.env.HOME = home;
	// Variables that would change what the tools read, or add warnings.
	for (const name of ['CODEX_HOME', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GEMINI_BASE_URL']) delete process.env[name];
});
after(() => {
	process.env = saved;
	rmSync(home, {recursive: true, force: true});
});
afterEach(() => {
	cleanup();
	for (const dir of ['.claude', '.codex', '.gemini']) rmSync(join(home, dir), {recursive: true, force: true});
});

async function setup(overrides: Partial<EndpointsPaneProps> = {}) {
	const real = await recordedActions();
	await addChannel(real.store, {name: 'claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-real', models: 'claude-sonnet-4-5'});
	const status = statusLog();
	const captures: boolean[] = [];
	const props: EndpointsPaneProps = {keys: [], channels: [], baseUrl: gateway, clipboard: fakeClipboard(), actions: real.actions, onStatus: status.report, onCapture: captured => captures.push(captured), active: true, width: 100, height: 24, ...overrides};
	return {real, status, captures, props};
}

const down = (times: number) => Array.from({length: times}, () => keys.down);
const read = (path: string) => readFileSync(join(home, path), 'utf8');

test('the tools are listed with their state; a applies to the selected tool and u puts its file back', async () => {
	mkdirSync(join(home, '.claude'));
	const original = '{\n  "theme": "dark",\n  "env": {\n    "DISABLE_TELEMETRY": "1"\n  }\n}\n';
	writeFileSync(join(home, '.claude', 'settings.json'), original);
	const {real, status, props} = await setup();
	try {
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} />);
		const listed = await frameWith(lastFrame, 'Claude Code: not taken over');
		assert.match(listed, /Codex: not detected/);
		assert.match(listed, /Gemini CLI: not detected/);

		await press(stdin, ...down(7));
		await frameWith(lastFrame, /a points it at the gateway with the key takeover-claude/);
		await press(stdin, 'a');
		await frameWith(() => status.last()?.text, /now uses the gateway/);
		assert.equal(status.last()!.text, 'Claude Code now uses the gateway (key takeover-claude, just created); backup: ~/.claude/settings.json.bak');
		const [key] = await listKeys(real.store);
		const settings = JSON.parse(read('.claude/settings.json')) as {theme: string; env: Record<string, string>};
		assert.deepEqual(settings, {theme: 'dark', env: {DISABLE_TELEMETRY: '1', ANTHROPIC_BASE_URL: gateway, ANTHROPIC_AUTH_TOKEN: key!.secret}});
		assert.equal(read('.claude/settings.json.bak'), original);
		const shown = await frameWith(lastFrame, 'Claude Code: taken over');
		assert.match(shown, /points at\s+http:\/\/127\.0\.0\.1:11580/);

		await press(stdin, 'u');
		await frameWith(() => status.last()?.text, /no longer uses the gateway/);
		assert.equal(status.last()!.text, 'Claude Code no longer uses the gateway: restored ~/.claude/settings.json. Backup left: ~/.claude/settings.json.bak.');
		assert.deepEqual(JSON.parse(read('.claude/settings.json')), JSON.parse(original));
		await frameWith(lastFrame, 'Claude Code: not taken over');
		assert.deepEqual(real.calls.filter(call => call.name !== 'takeoverStatus').map(call => call.name), ['applyTakeover', 'undoTakeover']);
	} finally {
		await real.close();
	}
});

test('connected elsewhere: a asks first; n leaves the file alone, y overwrites it (force)', async () => {
	mkdirSync(join(home, '.gemini'));
	const env = '# my own proxy\nGOOGLE_GEMINI_BASE_URL=http://proxy.example:8080\n';
	writeFileSync(join(home, '.gemini', '.env'), env);
	const {real, status, captures, props} = await setup();
	try {
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} />);
		await frameWith(lastFrame, 'Gemini CLI: elsewhere');
		await press(stdin, ...down(9));
		await frameWith(lastFrame, /state\s+connected elsewhere/);
		await press(stdin, 'a');
		await frameWith(lastFrame, 'Gemini CLI points at http://proxy.example:8080. Point it at this gateway instead?');
		await press(stdin, 'n');
		await frameWith(() => status.last()?.text, 'Left Gemini CLI as it was.');
		assert.equal(read('.gemini/.env'), env);
		assert.ok(!real.calls.some(call => call.name === 'applyTakeover'));

		await press(stdin, 'a');
		await frameWith(lastFrame, 'Point it at this gateway instead?');
		await press(stdin, 'y');
		await frameWith(() => status.last()?.text, /now uses the gateway/);
		assert.match(status.last()!.text, /^Gemini CLI now uses the gateway \(key takeover-gemini, just created\); backup: ~\/\.gemini\/\.env\.bak; new file: ~\/\.gemini\/settings\.json$/);
		const call = real.calls.find(item => item.name === 'applyTakeover')!;
		assert.deepEqual(call.args, ['gemini', {gatewayUrl: gateway, key: undefined, force: true}]);
		assert.match(read('.gemini/.env'), /^# my own proxy\nGOOGLE_GEMINI_BASE_URL=http:\/\/127\.0\.0\.1:11580\nGEMINI_API_KEY=sk-gtui-/);
		assert.deepEqual(captures, [true, false, true, false], 'global keys pause while the question is open');
		await frameWith(lastFrame, 'Gemini CLI: taken over');
	} finally {
		await real.close();
	}
});

test('a takes the key chosen with ←/→; on a snippet, a and u only say what they are for', async () => {
	const {real, status, props} = await setup();
	try {
		const laptop = await createKey(real.store, {name: 'laptop'});
		const {stdin, lastFrame} = renderTui(<EndpointsPane {...props} keys={[laptop]} />);
		await frameWith(lastFrame, 'Codex: not detected');
		await press(stdin, 'a', 'u');
		assert.match(status.last()!.text, /Choose Claude Code, Codex or Gemini CLI/);
		assert.ok(!real.calls.some(call => call.name === 'applyTakeover' || call.name === 'undoTakeover'));

		await press(stdin, keys.right, ...down(8));
		await frameWith(lastFrame, 'a points it at the gateway with the key "laptop"');
		await press(stdin, 'a');
		await frameWith(() => status.last()?.text, /now uses the gateway/);
		assert.equal(status.last()!.text, 'Codex now uses the gateway (key laptop); new file: ~/.codex/config.toml');
		assert.match(read('.codex/config.toml'), new RegExp(`experimental_bearer_token = "${laptop.secret}"`));
		assert.ok(existsSync(join(home, '.codex', 'config.toml')));
	} finally {
		await real.close();
	}
});
