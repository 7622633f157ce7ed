/** @jsxRuntime automatic @jsxImportSource react */
/** Endpoints pane: base URLs, snippets with the chosen key's secret, one-keypress copy. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup} from 'ink-testing-library';
import {EndpointsPane, type EndpointsPaneProps} from '../../source/ui/panes/endpoints-pane.js';
import type {ChannelRecord, KeyRecord} from '../../source/base/records.js';
import {fakeClipboard, frameWith, keys, press, statusLog, renderTui} from './helpers.js';
import {snippets} from '../../source/ui/snippets.js';
import {breakCommand} from '../../source/ui/text.js';
import {keyOptions} from '../../source/ui/takeover-choices.js';

afterEach(() => cleanup());

const key = (name: string, extra: Partial<KeyRecord> = {}): KeyRecord => ({v: 1, id: `key_${name}`, name, description: '', secret: `sk-gtui-secret-of-${name}`, hash: '0'.repeat(64), models: [], channels: [], expiresAt: null, revokedAt: null, createdAt: '2026-01-01T00:00:00.000Z', ...extra});
const anthropic: ChannelRecord = {v: 1, id: 'ch_a', name: 'claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: null, models: [{name: 'sonnet', upstream: 'claude-sonnet-4-6'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'};

/** Takeover actions that find no tool installed (the takeover tests use the real ones). */
const noTools: EndpointsPaneProps['actions'] = {
	takeoverStatus: async () => [],
	applyTakeover: async () => assert.fail('unexpected'),
	undoTakeover: async () => assert.fail('unexpected'),
	previewTakeover: async () => [],
	checkTakeover: async () => assert.fail('unexpected'),
};

function props(overrides: Partial<EndpointsPaneProps>): EndpointsPaneProps {
	return {keys: [], channels: [], baseUrl: 'http://127.0.0.1:11580', clipboard: fakeClipboard(), actions: noTools, onStatus: () => {}, onCapture: () => {}, active: true, width: 120, height: 22, ...overrides};
}

test('shows the three base URLs and the OpenAI snippet with the first active key', () => {
	const frame = renderTui(<EndpointsPane {...props({keys: [key('old', {revokedAt: '2026-01-02T00:00:00.000Z'}), key('laptop')]})} />).lastFrame()!;
	assert.match(frame, /OpenAI\s+http:\/\/127\.0\.0\.1:11580\/v1\s+POST \/chat\/completions/);
	assert.match(frame, /Anthropic\s+http:\/\/127\.0\.0\.1:11580\s+POST \/v1\/messages/);
	assert.match(frame, /Gemini\s+http:\/\/127\.0\.0\.1:11580\s+POST \/v1beta\/models/);
	assert.match(frame, /‹ laptop ›/);
	assert.match(frame, /export OPENAI_BASE_URL='http:\/\/127\.0\.0\.1:11580\/v1'/);
	assert.match(frame, /export OPENAI_API_KEY='sk-gtui-secret-of-laptop'/);
});

test('at 80 columns a snippet line too long for its column breaks after its `=` with a backslash (the URL whole on a line, the shell reading one command), else where the column ends; never `export` alone', () => {
	const secret = 'sk-gtui-VptG_khSw8tTq2ifAy-6S32_b-j2Ugyn4MxCjgYFarg';
	const frame = renderTui(<EndpointsPane {...props({keys: [key('laptop', {secret})], width: 80})} />).lastFrame()!;
	// The detail column: everything right of the list's border.
	const detail = frame
		.split('\n')
		.filter(line => line.includes('│ ') && line.lastIndexOf('│') > line.indexOf('│'))
		.map(line => line.slice(line.indexOf('│', line.indexOf('│') + 1) + 2).replace(/\s*│\s*$/, ''));
	const lines = detail.filter(Boolean);
	assert.ok(lines.length >= 5, frame);
	const width = lines[2]!.length;
	assert.deepEqual(lines.slice(0, 3), ['export OPENAI_BASE_URL=\\', "'http://127.0.0.1:11580/v1'", `export OPENAI_API_KEY='${secret.slice(0, width - "export OPENAI_API_KEY='".length)}`], frame);
	assert.ok(!lines.includes('export'), frame);
	// Joined back — a backslash and a newline taken away as the shell does, a line cut at the column's
	// end joined to the next — the column's lines are the snippet: nothing dropped, nothing added.
	const shown = lines
		.slice(0, 4)
		.map((line, index, all) => (line.endsWith('\\') ? line.slice(0, -1) : line + (line.length === width && index < all.length - 1 ? '' : '\n')))
		.join('');
	assert.equal(shown.trimEnd(), `export OPENAI_BASE_URL='http://127.0.0.1:11580/v1'\nexport OPENAI_API_KEY='${secret}'`);
});

test('breakCommand: every line fits; broken at a space or `=` outside quotes, the pieces read as the same command once the shell takes the backslashes and newlines away; otherwise cut as the column ends', () => {
	const commands = snippets('http://127.0.0.1:11580', 'sk-gtui-VptG_khSw8tTq2ifAy-6S32_b-j2Ugyn4MxCjgYFarg', () => 'gpt-4o-mini').filter(snippet => snippet.language === 'shell');
	let clean = 0;
	for (const {text} of commands) {
		for (let width = 12; width <= 120; width++) {
			const lines = text.split('\n');
			assert.equal(breakCommand(text, width), lines.map(line => breakCommand(line, width)).join('\n'), 'line by line');
			for (const line of lines) {
				const shown = breakCommand(line, width).split('\n');
				assert.ok(shown.every(piece => piece.length <= width), `${width}: ${shown.join(' / ')}`);
				const broken = shown.length > 1 && shown.slice(0, -1).every(piece => piece.endsWith('\\'));
				if (broken && shown.map((piece, index) => (index < shown.length - 1 ? piece.slice(0, -1) : piece)).join('') === line) clean++;
				else assert.equal(shown.join(''), line, `${width}: cut where the column ends`);
			}
		}
	}
	assert.ok(clean > 0, 'some lines were broken at a space or `=`');
	assert.equal(breakCommand("export X='a b'", 8), "export \\\nX='a b'", 'a space inside quotes is no place to break');
	assert.equal(breakCommand('curl "http://h/v1/a" \\', 17), 'curl \\\n"http://h/v1/a" \\');
	assert.equal(breakCommand('curl "http://h/v1/a" \\', 14), 'curl "http://h\n/v1/a" \\', 'the quoted URL fits no line: cut where the column ends');
});

test('c copies the focused snippet in one keypress; ↓ and → choose another snippet and key', async () => {
	const clipboard = fakeClipboard();
	const status = statusLog();
	const {stdin, lastFrame} = renderTui(<EndpointsPane {...props({keys: [key('laptop'), key('ci')], channels: [anthropic], clipboard, onStatus: status.report})} />);
	await press(stdin, 'c');
	await frameWith(() => status.last()?.text, /copied/);
	assert.equal(clipboard.copied[0], "export OPENAI_BASE_URL='http://127.0.0.1:11580/v1'\nexport OPENAI_API_KEY='sk-gtui-secret-of-laptop'");
	assert.equal(status.last()!.text, 'copied OPENAI_BASE_URL snippet');

	// In one chunk, before any render: c copies what ↓ and → chose.
	await press(stdin, keys.down + keys.right + 'c');
	await frameWith(() => status.last()?.text, /ANTHROPIC_BASE_URL/);
	assert.equal(clipboard.copied[1], "export ANTHROPIC_BASE_URL='http://127.0.0.1:11580'\nexport ANTHROPIC_AUTH_TOKEN='sk-gtui-secret-of-ci'");

	await press(stdin, keys.down, keys.down, keys.down, keys.down, 'c');
	await frameWith(() => clipboard.copied.length === 3 ? 'done' : '', 'done');
	assert.match(clipboard.copied[2]!, /^curl "http:\/\/127\.0\.0\.1:11580\/v1\/messages" \\\n {2}-H "x-api-key: sk-gtui-secret-of-ci"/);
	assert.match(clipboard.copied[2]!, /"model":"sonnet"/, 'a model the gateway serves');
	await frameWith(lastFrame, /curl Anthropic/);
});

test('a key at one of its limits says so on the key line, and copying its snippet warns that the gateway refuses it until that resets', async () => {
	const clipboard = fakeClipboard();
	const status = statusLog();
	const spent = key('spent', {limits: {budget: {usd: 5, period: 'monthly'}}});
	const limitUse = new Map([[spent.id, {rpm: 0, rpd: 3, tpm: 0, tpd: 900, spendUsd: 5.2}]]);
	const {stdin, lastFrame} = renderTui(<EndpointsPane {...props({keys: [spent], limitUse, clipboard, onStatus: status.report})} />);
	assert.match(lastFrame()!, /‹ spent ›\s+active, over its budget · 1 of 1/);
	await press(stdin, 'c');
	await frameWith(() => status.last()?.text, /copied/);
	assert.equal(status.last()!.text, 'copied OPENAI_BASE_URL snippet (careful: key "spent" is over its budget; the gateway refuses it until that resets)');
	cleanup();
	const within = renderTui(<EndpointsPane {...props({keys: [spent], limitUse: new Map([[spent.id, {rpm: 0, rpd: 3, tpm: 0, tpd: 900, spendUsd: 4.9}]])})} />).lastFrame()!;
	assert.match(within, /‹ spent ›\s+active · 1 of 1/);
	cleanup();
	const first = renderTui(<EndpointsPane {...props({keys: [key('old', {revokedAt: '2026-01-02T00:00:00.000Z'}), spent, key('fresh')], limitUse})} />).lastFrame()!;
	assert.match(first, /‹ fresh ›\s+active · 3 of 3/, 'the snippets start with a key the gateway serves now');
});

test("the takeover form's key list marks a key at one of its limits, its own key too (the live check would fail with the 429)", () => {
	const spent = key('spent', {limits: {budget: {usd: 5, period: 'monthly'}}});
	const own = key('takeover-codex', {limits: {rpm: 10}});
	const use = new Map([
		[spent.id, {rpm: 0, rpd: 3, tpm: 0, tpd: 900, spendUsd: 5.2}],
		[own.id, {rpm: 10, rpd: 10, tpm: 0, tpd: 0, spendUsd: 0}],
	]);
	assert.deepEqual(
		keyOptions('codex', [spent, own, key('fresh')], use).map(option => option.label),
		['takeover-codex (its own, at its requests-per-minute limit)', 'spent (over its budget)', 'fresh'],
	);
	assert.deepEqual(keyOptions('codex', [spent], undefined).map(option => option.label), ['takeover-codex (its own, made now)', 'spent'], 'no use known: no mark');
});

test('the Gemini CLI settings line is its own snippet', async () => {
	const clipboard = fakeClipboard();
	const {stdin, lastFrame} = renderTui(<EndpointsPane {...props({keys: [key('laptop')], clipboard})} />);
	await press(stdin, keys.down, keys.down, keys.down);
	await frameWith(lastFrame, '~/.gemini/settings.json');
	await press(stdin, 'c');
	await frameWith(() => (clipboard.copied.length ? 'copied' : ''), 'copied');
	assert.deepEqual(JSON.parse(clipboard.copied[0]!), {security: {auth: {selectedType: 'gemini-api-key'}}});
});

test('without keys, c copies nothing and says how to create one', async () => {
	const clipboard = fakeClipboard();
	const status = statusLog();
	const {stdin, lastFrame} = renderTui(<EndpointsPane {...props({clipboard, onStatus: status.report})} />);
	assert.match(lastFrame()!, /no keys yet/);
	await press(stdin, 'c');
	await frameWith(() => status.last()?.text, /press 1, then n/);
	assert.deepEqual(clipboard.copied, []);
});

test('where the terminal cannot copy, the status says how to select the text by hand', async () => {
	const status = statusLog();
	const {stdin} = renderTui(<EndpointsPane {...props({keys: [key('laptop')], clipboard: fakeClipboard({method: 'manual', reason: 'output is not a terminal'}), onStatus: status.report})} />);
	await press(stdin, 'c');
	await frameWith(() => status.last()?.text, /select the text on screen with the mouse/);
	assert.equal(status.last()!.kind, 'warn');
});
