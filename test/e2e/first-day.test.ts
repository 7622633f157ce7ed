/**
 * The first day in the terminal UI, end to end: the real `gateway-tui` (dist/cli.js) in tmux at
 * 80×24, strict fake providers behind it, and the real Claude Code, Codex and Gemini CLI.
 *
 * - Each tool is taken over from the Endpoints pane (its form: its own key, a model chosen there;
 *   Gemini CLI for every folder), the pane's live check answers, and the real tool then answers
 *   through the gateway, Gemini CLI from a fresh folder it was never told to trust.
 * - The live log follows, stays put once the user moves (counting what arrives), and `g` returns
 *   to live; `/` filters it.
 * - A form field edited with readline keys; at 80 columns no number in the Usage pane is cut.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {addChannel} from '../../source/services/channels.js';
import {Store} from '../../source/store/index.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {tempHome} from '../helpers/gateway.js';
import {openaiClient} from '../helpers/sdks.js';
import {appEnv, hasTmux, startTmux, type Tmux} from './tmux.js';
import {haveTools, runTool, type Tool} from './tools.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const skip = !hasTmux() ? 'tmux is not installed (apt-get install tmux)' : !haveTools() ? 'the AI CLIs are not installed (npm install: they are devDependencies)' : false;

/** The user's own settings that keep each tool off the network (see test/takeover/e2e-tools.test.ts). */
function writeUserConfig(home: string): void {
	const files: Record<string, string> = {
		'.claude/settings.json': '{\n  "env": { "DISABLE_AUTOUPDATER": "1" }\n}\n',
		'.codex/config.toml': '[analytics]\nenabled = false\n\n[features]\nplugins = false\n',
		'.gemini/settings.json': '{"privacy": {"usageStatisticsEnabled": false}}\n',
	};
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(join(home, path, '..'), {recursive: true});
		writeFileSync(join(home, path), text);
	}
}

/** `a` on the tool, the form's keys, then the pane's live check. */
async function takeOver(tmux: Tmux, title: string, formKeys: readonly string[]): Promise<string> {
	await tmux.keys('a');
	await tmux.waitFor(`Take over ${title}`);
	await tmux.keys(...formKeys);
	return tmux.waitFor(/live check\s+answered in \d+ ms/, 20_000);
}

async function answers(tool: Tool, home: string, cwd: string, expected: string): Promise<void> {
	const ran = await runTool(tool, 'Say hello', {cwd, home});
	assert.equal(ran.code, 0, `${tool} failed: ${ran.stderr.slice(-2000)}`);
	assert.match(ran.stdout, new RegExp(expected));
}

test('first day at 80×24: takeover of each tool from the pane, the real tools answer; the log follows; readline keys', {skip, timeout: 300_000}, async () => {
	const providers: Record<string, FakeProvider> = {};
	for (const format of ['anthropic', 'openai', 'gemini'] as const) providers[format] = await startFakeProvider(format);
	const data = tempHome();
	const user = mkdtempSync(join(data, 'user-'));
	writeUserConfig(user);
	const store = await Store.open(data);
	await addChannel(store, {name: 'anthropic', format: 'anthropic', baseUrl: providers.anthropic!.url, apiKey: providers.anthropic!.apiKey, models: 'claude-sonnet-4-6,claude-haiku-4-5'});
	await addChannel(store, {name: 'openai', format: 'openai', baseUrl: providers.openai!.url, apiKey: providers.openai!.apiKey, models: 'gpt-4o-mini'});
	await addChannel(store, {name: 'gemini', format: 'gemini', baseUrl: providers.gemini!.url, apiKey: providers.gemini!.apiKey, models: 'gemini-2.5-flash'});
	await store.close();
	const tmux = startTmux({dir: data, cwd: root, columns: 80, rows: 24, env: appEnv({GATEWAY_TUI_HOME: data, HOME: user}), command: 'node dist/cli.js --port 0'});
	const work = mkdtempSync(join(data, 'untrusted-project-'));
	try {
		const first = await tmux.waitFor(/● (http:\/\/127\.0\.0\.1:\d+)/, 15_000);
		const url = /● (http:\/\/127\.0\.0\.1:\d+)/.exec(first)![1]!;

		// Claude Code: its own key, the model and fast model the form suggests.
		await tmux.keys('3', ...Array.from({length: 7}, () => 'Down'));
		await tmux.waitFor(/› Claude Code: not taken over/);
		const claude = await takeOver(tmux, 'Claude Code', ['Enter', 'Enter', 'Enter', 'Enter']);
		assert.match(claude, /model\s+claude-sonnet-4-6/);
		assert.doesNotMatch(claude, /--model|No model is set/);
		await answers('claude', user, work, 'Hello from fake-anthropic');

		// Codex: the model chosen in the form, on the OpenAI channel.
		await tmux.keys('Down');
		await tmux.waitFor(/› Codex: not taken over/);
		await takeOver(tmux, 'Codex', ['Enter', 'Enter', 'Enter']);
		assert.match(readFileSync(join(user, '.codex', 'config.toml'), 'utf8'), /^model = "gpt-4o-mini"$/m);
		await answers('codex', user, work, 'Hello from fake-openai');

		// Gemini CLI: for every folder, then run from a folder it was never told to trust.
		await tmux.keys('Down');
		await tmux.waitFor(/› Gemini CLI: not taken over/);
		const gemini = await takeOver(tmux, 'Gemini CLI', ['Enter', 'Enter', 'Down', 'Enter', 'Enter']);
		assert.doesNotMatch(gemini, /only in folders you trust/);
		await answers('gemini', user, work, 'Hello from fake-gemini');

		// The log: three checks and three tools so far; it follows, then stays put once the user moves.
		await tmux.keys('4');
		await tmux.waitFor(/Live requests, newest first/);
		const usage = tmux.screen();
		assert.doesNotMatch(usage, /(^|\s)[\d$][\d.,$/k]*…/m, 'no number is cut at 80 columns');
		const chrome = usage.split('\n').filter(line => line.includes('1-4 panes') || line.startsWith(' ● '));
		assert.equal(chrome.length, 2, 'the footer and the status bar');
		assert.doesNotMatch(chrome.join('\n'), /…/, 'neither is cut at 80 columns');
		await tmux.keys('Down', 'Down');
		await tmux.waitFor('Paused on a request');
		const secret = /experimental_bearer_token = "(sk-gtui-[\w-]+)"/.exec(readFileSync(join(user, '.codex', 'config.toml'), 'utf8'))![1]!;
		await openaiClient(url, secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'Hi'}]});
		await tmux.waitFor('1 new ↑');
		await tmux.keys('g');
		await tmux.waitFor(/Live requests, newest first/);
		await tmux.keys('/');
		await tmux.text('gemini');
		await tmux.keys('Enter');
		const filtered = await tmux.waitFor(/filter "gemini": \d+ of \d+/);
		assert.doesNotMatch(filtered.split('Live requests')[1]!, /claude-sonnet|gpt-4o-mini/);
		await tmux.keys('Escape');
		// A request's details: the footer shows their keys (from the same table that handles them).
		await tmux.keys('Down', 'Enter');
		await tmux.waitFor(/b bodies on\/off\s+Esc back\s+↑↓ scroll/);
		await tmux.keys('Escape', 'Escape');
		await tmux.waitFor(/t today\/all\s+\/ filter/);

		// A form field edited with readline keys: Ctrl+A, Ctrl+E, Alt+B, Ctrl+W, Ctrl+U.
		await tmux.keys('1', 'n');
		await tmux.waitFor('New virtual key');
		await tmux.text('laptop key');
		await tmux.keys('C-a');
		await tmux.text('my ');
		await tmux.keys('C-e', 'C-w');
		await tmux.waitFor(/Name\s+my laptop\s/);
		await tmux.keys('M-b', 'C-k');
		await tmux.text('desk');
		await tmux.waitFor(/Name\s+my desk\s/);
		await tmux.keys('C-u');
		await tmux.text('work');
		await tmux.waitFor(/Name\s+work\s/);
		await tmux.keys('Escape');
	} catch (error) {
		process.stderr.write(`screen at failure:\n${tmux.screen()}\n`);
		throw error;
	} finally {
		await tmux.stop();
		for (const provider of Object.values(providers)) await provider.close();
		rmSync(data, {recursive: true, force: true});
	}
});
