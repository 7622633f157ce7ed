/** @jsxRuntime automatic @jsxImportSource react */
/**
 * Every pane, its details and its forms, at each size from the smallest the TUI accepts (60×17:
 * a pane then gets 11 lines) to 80×24 and a little beyond, with more rows than fit: the pane draws
 * inside its frame — the title on its first line, nothing over the lines below the frame. Found at
 * 60×18: the Usage pane drew its title and the totals on one line ("…$0.0002y", the title's last
 * letter showing) and its live log over the status bar; the Endpoints pane, its snippet over its list.
 */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import type {ReactElement} from 'react';
import {Box} from 'ink';
import {cleanup} from 'ink-testing-library';
import {UsagePane} from '../../source/ui/panes/usage-pane.js';
import {EndpointsPane, type EndpointsPaneProps} from '../../source/ui/panes/endpoints-pane.js';
import {ChannelsPane, type ChannelsPaneProps} from '../../source/ui/panes/channels-pane.js';
import {KeysPane, type KeysPaneProps} from '../../source/ui/panes/keys-pane.js';
import {TrafficCounter} from '../../source/base/traffic.js';
import type {ChannelRecord, KeyRecord} from '../../source/base/records.js';
import type {UsageRow} from '../../source/base/usage-types.js';
import {emptyRow} from '../../source/ui/session-usage.js';
import type {UsageSnapshot} from '../../source/ui/usage-view.js';
import {delay, fakeClipboard, frameWith, keys, loggedRequest, press, renderTui} from './helpers.js';

afterEach(() => cleanup());

/** Lines left empty under the pane: anything drawn there was drawn outside the frame. */
const below = 4;
const widths = [60, 70, 80, 100];
const heights = Array.from({length: 14}, (_, index) => 11 + index); // 11 (60×17 with a two-line status) … 24

/** The pane in a box of its size with empty lines under it. */
const framed = (pane: ReactElement, width: number, height: number) => (
	<Box flexDirection="column" width={width} height={height + below}>
		{pane}
	</Box>
);

function assertInside(frame: string, title: RegExp, width: number, height: number, what: string): void {
	const lines = frame.split('\n');
	const at = `${what} at ${width}×${height}:\n${frame}`;
	assert.match(lines[0] ?? '', /^╭─+╮$/, `the frame's top border first — ${at}`);
	assert.match(lines[1] ?? '', title, `the title on the first line inside the frame — ${at}`);
	assert.match(lines[height - 1] ?? '', /^╰─+╯$/, `the frame's bottom border on its last line — ${at}`);
	for (let index = 1; index < height - 1; index++) assert.match(lines[index]!, /^│.*│$/, `line ${index + 1} between the borders — ${at}`);
	assert.ok(lines.slice(height).every(line => line.trim() === ''), `nothing drawn under the frame — ${at}`);
	// A line drawn over another shows as text run together: a "↓ 7 more" followed by the rest of a list entry.
	for (const line of lines) {
		for (const match of line.matchAll(/[↑↓] \d+ more(?: fields?)?/g)) {
			assert.match(line.slice(match.index + match[0].length), /^( · |\s*│|\s*$|\s{2})/, `"${match[0]}" stands alone — ${at}`);
		}
	}
}

const row = (group: string, requests: number): UsageRow => ({...emptyRow(group), requests, failed: 1, succeeded: requests - 1, inputTokens: 1200 * requests, outputTokens: 300 * requests, costUsd: 0.0123 * requests});
const usage: UsageSnapshot = {
	today: {byKey: Array.from({length: 6}, (_, index) => row(`key-${index}`, 10 + index)), byModel: Array.from({length: 5}, (_, index) => row(`model-${index}`, 20 + index))},
	all: {byKey: [row('key-0', 400)], byModel: [row('model-0', 400)]},
	lastDay: [],
	error: null,
};
const log = Array.from({length: 40}, (_, index) => loggedRequest(`r${index}`, {model: `model-${index % 5}`, latencyMs: 100 + index}));
const traffic = (() => {
	const counter = new TrafficCounter();
	for (const event of log) counter.record({...event, time: new Date().toISOString()});
	return counter.snapshot(Date.now());
})();

test('the Usage pane (charts, totals, live log, a store error) fits its frame at every size', () => {
	for (const width of widths) {
		for (const height of heights) {
			for (const [error, requests] of [[null, log], ['The usage history could not be read (disk full): the totals are this session’s.', log], [null, []]] as const) {
				const pane = <UsagePane usage={{...usage, error}} log={requests} traffic={traffic} source="stored" active width={width} height={height} />;
				const frame = renderTui(framed(pane, width, height)).lastFrame()!;
				const at = `${width}×${height}${error ? ' with an error' : ''}${requests.length === 0 ? ', no requests yet' : ''}:\n${frame}`;
				assertInside(frame, /^│ Usage/, width, height, `Usage${error ? ' with an error' : ''}`);
				assert.match(frame, /Today: /, `the totals line is always there (${at})`);
				assert.match(frame, /│ BY KEY\s+REQS/, `the totals' header (${at})`);
				assert.match(frame, /Live requests, newest first\s+│\n│ TIME\s+KEY/, `the log's header and its table's (${at})`);
				if (requests.length > 0) assert.match(frame, /\d\d:\d\d:\d\d/, `at least one request of the live log (${at})`);
				else assert.match(frame, /│ No requests yet/, `the empty log says so (${at})`);
				cleanup();
			}
		}
	}
});

test("the Usage pane's request details fit their frame at every size", async () => {
	for (const width of widths) {
		for (const height of heights) {
			const {stdin, lastFrame} = renderTui(framed(<UsagePane usage={usage} log={log} traffic={traffic} source="stored" active width={width} height={height} />, width, height));
			await press(stdin, keys.down, keys.enter);
			const frame = await frameWith(lastFrame, /│ Request/);
			assertInside(frame, /^│ Request/, width, height, 'request details');
			cleanup();
		}
	}
});

const key = (name: string, extra: Partial<KeyRecord> = {}): KeyRecord => ({v: 1, id: `key_${name}`, name, description: 'a key for the team', secret: `sk-gtui-secret-of-${name}-0123456789abcdefghijkl`, hash: '0'.repeat(64), models: [], channels: [], expiresAt: null, revokedAt: null, createdAt: '2026-01-01T00:00:00.000Z', ...extra});
const channel = (name: string): ChannelRecord => ({v: 1, id: `ch_${name}`, name, format: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-real-0123456789abcdef', models: [{name: 'sonnet', upstream: 'claude-sonnet-4-6'}, {name: 'haiku', upstream: 'claude-haiku-4-5'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'});
const manyKeys = Array.from({length: 20}, (_, index) => key(`key-${index}`, {models: ['sonnet'], limits: {rpm: 60, budget: {usd: 20, period: 'monthly'}}}));
const manyChannels = Array.from({length: 20}, (_, index) => channel(`channel-${index}`));

/** Three tools found, none taken over: their entries lengthen the list. */
const tools: EndpointsPaneProps['actions'] = {
	takeoverStatus: async () =>
		(['claude', 'codex', 'gemini'] as const).map(tool => ({tool, title: tool, state: 'not-taken-over' as const, address: null, model: null, configDir: `/home/u/.${tool}`, files: [], problem: null, warnings: []})),
	applyTakeover: async () => assert.fail('unexpected'),
	undoTakeover: async () => assert.fail('unexpected'),
	previewTakeover: async () => [],
	checkTakeover: async () => assert.fail('unexpected'),
};

test('the Endpoints pane (base URLs, key, snippet list with the tools, snippet) fits its frame at every size', async () => {
	for (const width of widths) {
		for (const height of heights) {
			const props: EndpointsPaneProps = {keys: manyKeys, channels: manyChannels, baseUrl: 'http://127.0.0.1:11580', clipboard: fakeClipboard(), actions: tools, onStatus: () => {}, onCapture: () => {}, active: true, width, height};
			const {lastFrame} = renderTui(framed(<EndpointsPane {...props} />, width, height));
			await delay(20); // the tools' states, read once at start
			const frame = lastFrame()!;
			assertInside(frame, /^│ Endpoints/, width, height, 'Endpoints');
			const lines = frame.split('\n');
			const openai = lines.findIndex(line => /│ OpenAI\s+http/.test(line));
			if (openai !== -1) assert.match(lines[openai - 1]!, /FORMAT\s+BASE URL/, `the table's header above its first row (${width}×${height}):\n${frame}`);
			// The snippet's hint on a line of its own, not over the snippet ("c copies this API_KEY='sk…").
			assert.ok(lines.every(line => !/c copies this .*['=]/.test(line)), `the snippet's lines apart (${width}×${height}):\n${frame}`);
			cleanup();
		}
	}
});

function keysProps(width: number, height: number): KeysPaneProps {
	const unexpected = async () => assert.fail('unexpected call');
	return {keys: manyKeys, channels: manyChannels, lastUsed: new Map(), requests: new Map(), actions: {createKey: unexpected, editKey: unexpected, revokeKey: unexpected, rotateKey: unexpected, deleteKey: unexpected}, clipboard: fakeClipboard(), onStatus: () => {}, onCapture: () => {}, active: true, width, height};
}

function channelsProps(width: number, height: number): ChannelsPaneProps {
	const unexpected = async () => assert.fail('unexpected call');
	return {channels: manyChannels, actions: {addChannel: unexpected, editChannel: unexpected, setChannelEnabled: unexpected, removeChannel: unexpected, testChannel: unexpected}, onStatus: () => {}, onCapture: () => {}, active: true, width, height};
}

test('the Keys and Channels panes — table, details, new and edit forms — fit their frame at every size', async () => {
	const views: ReadonlyArray<{name: string; title: RegExp; pane: (width: number, height: number) => ReactElement; keys: string[]; shown: RegExp}> = [
		{name: 'keys table', title: /^│ Virtual keys/, pane: (width, height) => <KeysPane {...keysProps(width, height)} />, keys: [], shown: /key-0/},
		{name: 'key details', title: /^│ Virtual keys/, pane: (width, height) => <KeysPane {...keysProps(width, height)} />, keys: [keys.enter], shown: /name\s+key-0/},
		{name: 'new key form', title: /^│ Virtual keys/, pane: (width, height) => <KeysPane {...keysProps(width, height)} />, keys: ['n'], shown: /New virtual key/},
		{name: 'key edit form', title: /^│ Virtual keys/, pane: (width, height) => <KeysPane {...keysProps(width, height)} />, keys: ['e'], shown: /Edit key/},
		{name: 'channels table', title: /^│ Channels/, pane: (width, height) => <ChannelsPane {...channelsProps(width, height)} />, keys: [], shown: /channel-0/},
		{name: 'channel details', title: /^│ Channels/, pane: (width, height) => <ChannelsPane {...channelsProps(width, height)} />, keys: [keys.enter], shown: /name\s+channel-0/},
		{name: 'new channel form', title: /^│ Channels/, pane: (width, height) => <ChannelsPane {...channelsProps(width, height)} />, keys: ['n'], shown: /New channel/},
	];
	for (const view of views) {
		for (const width of widths) {
			for (const height of heights) {
				const {stdin, lastFrame} = renderTui(framed(view.pane(width, height), width, height));
				await press(stdin, ...view.keys);
				const frame = await frameWith(lastFrame, view.shown);
				assertInside(frame, view.title, width, height, view.name);
				cleanup();
			}
		}
	}
});
