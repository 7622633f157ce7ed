/** @jsxRuntime automatic @jsxImportSource react */
/**
 * What a user trips on at 80×24: footers and the status bar cut mid-word, help sentences cut, a
 * channel's name cut while less useful columns stay, costs cut, the request details' keys missing
 * from the footer and the help.
 */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {Box} from 'ink';
import {cleanup} from 'ink-testing-library';
import {footerItems, globalBindings, helpSections, keyLabel, panes, requestBindings, type Capture} from '../../source/ui/commands.js';
import {Footer, StatusBar} from '../../source/ui/components/chrome.js';
import {HelpOverlay} from '../../source/ui/components/help-overlay.js';
import {Form} from '../../source/ui/components/form.js';
import {Panel} from '../../source/ui/components/panel.js';
import {fitParts} from '../../source/ui/text.js';
import {columnWidths} from '../../source/ui/components/table.js';
import {channelColumns} from '../../source/ui/panes/channel-views.js';
import {UsagePane} from '../../source/ui/panes/usage-pane.js';
import type {RequestFinished} from '../../source/base/events.js';
import type {ChannelRecord} from '../../source/base/records.js';
import {emptyRow} from '../../source/ui/session-usage.js';
import {frameWith, keys, press, renderTui} from './helpers.js';

afterEach(() => cleanup());

const lines = (frame: string) => frame.split('\n');

test('at 80 columns every footer shows whole keys (the last ones give way), and the global ones', () => {
	for (const pane of panes) {
		const frame = renderTui(
			<Box width={80}>
				<Footer pane={pane.id} columns={80} />
			</Box>,
		).lastFrame()!;
		assert.doesNotMatch(frame, /…/, `${pane.id}: nothing cut mid-word:\n${frame}`);
		assert.match(frame, /1-4 panes\s+\? help\s+q quit/, `${pane.id}: the global keys`);
		const own = footerItems(pane.id).own;
		const shown = own.filter(item => frame.includes(`${item.keys} ${item.label}`));
		assert.deepEqual(shown, own.slice(0, shown.length), `${pane.id}: the first keys, in order, each whole`);
		assert.ok(shown.length >= 4, `${pane.id}: most of its keys`);
		assert.ok(lines(frame).every(line => line.length <= 80));
		cleanup();
	}
	const wide = renderTui(<Footer pane="keys" columns={120} />).lastFrame()!;
	assert.match(wide, /d delete\s+↵ details\s+↑↓ move/, 'all of them where there is room');
});

test("a request's details have their own footer: b, Esc, scrolling — from the same table as the keys that work", () => {
	const frame = renderTui(<Footer pane="usage" captured="request" columns={80} />).lastFrame()!;
	assert.match(frame, /b bodies on\/off\s+Esc back\s+↑↓ scroll\s+1-4 panes/, 'at 80 columns, the first three');
	assert.match(renderTui(<Footer pane="usage" captured="request" columns={100} />).lastFrame()!, /b bodies on\/off\s+Esc back\s+↑↓ scroll\s+PgUp\/PgDn page/);
	assert.doesNotMatch(frame, /t today\/all|\/ filter/, "the log's keys do not work there");
	assert.deepEqual(
		requestBindings.map(binding => binding.command),
		['toggle-bodies', 'back', 'line-up', 'line-down', 'page-up', 'page-down', 'top', 'bottom'],
	);
	cleanup();
	const form = renderTui(<Footer pane="keys" captured={'form' satisfies Capture} columns={80} />).lastFrame()!;
	assert.match(form, /Ctrl\+A\/E\/U\/K\/W edit/, 'the editing keys a field takes');
	assert.match(form, /Esc cancel/);
});

test('the status bar keeps every number whole at 80 columns, in shorter words', () => {
	const props = {listen: {url: 'http://127.0.0.1:11580', error: null}, requests: 1234, failed: 56, channels: {total: 12, enabled: 11, healthy: 10}, message: null} as const;
	const usual = renderTui(<StatusBar {...props} requests={40} failed={6} channels={{total: 2, enabled: 2, healthy: 2}} columns={80} />).lastFrame()!;
	assert.match(usual, /● http:\/\/127\.0\.0\.1:11580 · 40 requests today \(6 failed\) · 2\/2 channels healthy\n/);
	cleanup();
	const narrow = renderTui(<StatusBar {...props} columns={80} />).lastFrame()!;
	assert.match(narrow, /● http:\/\/127\.0\.0\.1:11580 · 1234 requests today \(56 failed\) · 10\/11 healthy\n/, 'larger numbers: shorter words');
	cleanup();
	const huge = renderTui(<StatusBar {...props} requests={1_234_567} failed={89_012} columns={80} />).lastFrame()!;
	assert.match(huge, /· 1234567 today \(89012 failed\) · 10\/11 healthy\n/, 'and shorter still');
	assert.ok(lines(narrow).every(line => line.length <= 80));
	cleanup();
	const wide = renderTui(<StatusBar {...props} columns={120} />).lastFrame()!;
	assert.match(wide, /1234 requests today \(56 failed\) {2}· {2}10 of 11 channels healthy/, 'the full words where they fit');
	cleanup();
});

test('the status bar says how many requests are in flight while some are, and keeps every number whole at 80 columns', () => {
	const props = {listen: {url: 'http://127.0.0.1:11580', error: null}, requests: 40, failed: 6, channels: {total: 2, enabled: 2, healthy: 2}, message: null} as const;
	// (ink-testing-library's terminal is 100 columns wide.)
	const wide = renderTui(<StatusBar {...props} requests={4} failed={0} inFlight={3} columns={100} />).lastFrame()!;
	assert.match(wide, /● http:\/\/127\.0\.0\.1:11580 {2}· {2}4 requests today {2}· {2}3 in flight {2}· {2}2 of 2 channels healthy\n/);
	cleanup();
	const usual = renderTui(<StatusBar {...props} inFlight={3} columns={80} />).lastFrame()!;
	assert.match(usual, /● http:\/\/127\.0\.0\.1:11580 · 40 today \(6 failed\) · 3 in flight · 2\/2 healthy\n/);
	cleanup();
	const huge = renderTui(<StatusBar {...props} requests={1_234_567} failed={89_012} inFlight={2_000} columns={80} />).lastFrame()!;
	assert.match(huge, /· 1234567 today \(89012 failed\) · 2000 in flight\n/, 'the channels give way first');
	assert.ok(lines(huge).every(line => line.length <= 80));
	cleanup();
	const none = renderTui(<StatusBar {...props} requests={4} failed={0} inFlight={0} columns={100} />).lastFrame()!;
	assert.doesNotMatch(none, /in flight/, 'nothing said while none are');
	cleanup();
});

test('the help lists every key of each pane whole at 80×24, and on the Usage pane those of a request\'s details', () => {
	for (const pane of panes) {
		const frame = renderTui(<HelpOverlay pane={pane.id} width={80} height={19} />).lastFrame()!;
		assert.equal(lines(frame).length, 19, `${pane.id}: the overlay fits its box`);
		assert.doesNotMatch(frame, /…/, `${pane.id}: no sentence cut:\n${frame}`);
		// Two columns wrap side by side: each sentence's first words, after its keys.
		for (const {bindings} of helpSections(pane.id)) {
			for (const binding of bindings) assert.match(frame, new RegExp(`${binding.keys.map(keyLabel).join(' ').replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')} +${binding.help.split(' ').slice(0, 2).join(' ').replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`), `${pane.id}: "${binding.help}"`);
		}
		for (const binding of globalBindings) assert.ok(frame.includes(binding.label), `${pane.id}: ${binding.label}`);
		cleanup();
	}
	const usage = renderTui(<HelpOverlay pane="usage" width={80} height={19} />).lastFrame()!;
	assert.match(usage, /In a request's details/);
	assert.match(usage, /b {2,}Body capture on\/off/);
	assert.match(usage, /PgDn Space\s+Down a page/);
});

const channel = (name: string, baseUrl: string): ChannelRecord => ({v: 1, id: `ch_${name}`, name, format: 'anthropic', baseUrl, apiKey: null, models: [{name: 'claude-sonnet-4-6', upstream: 'claude-sonnet-4-6'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'});

test("a channel's name is not cut at 80 columns while the priority and sparkline columns can give way", () => {
	const columns = channelColumns(new Map(), {lastHour: {requests: [], errors: [], p50: [], p95: [], total: {requests: 0, errors: 0, refused: 0, p50: null, p95: null}}, channels: new Map()});
	const rows = [channel('fake-openai', 'http://127.0.0.1:41537/v1'), channel('anthropic', 'http://127.0.0.1:36221')];
	const widths = columnWidths(columns, 76, rows);
	const width = (header: string) => widths[columns.findIndex(column => column.header === header)];
	assert.equal(width('NAME'), 'fake-openai'.length, 'the name whole');
	assert.equal(width('BASE URL'), 'http://127.0.0.1:41537/v1'.length, 'the base URL whole');
	assert.equal(width('PRIO'), 0, 'the priority gave way');
	assert.equal(width('LAST HOUR'), 0, 'the sparkline gave way');
	assert.ok(width('HEALTH')! > 0 && width('MODELS')! > 0);
	assert.ok(widths.reduce((sum, each) => sum + (each > 0 ? each + 1 : 0), -1) <= 76);
	const cramped = columnWidths(columns, 50, rows);
	assert.ok(cramped.reduce((sum, each) => sum + (each > 0 ? each + 1 : 0), -1) <= 50, 'where nothing else can go, the name gives back what it wanted');
});

test('a long subtitle gives way in whole parts, never cut mid-word', () => {
	const frame = renderTui(
		<Panel title="Channels" subtitle="2 provider connections, 2 enabled · real keys never leave the gateway" width={80}>
			{null}
		</Panel>,
	).lastFrame()!;
	assert.match(frame, /Channels {2}2 provider connections, 2 enabled\s+│/);
	assert.doesNotMatch(frame, /…/);
});

const usage = {
	today: {
		byKey: [{...emptyRow('laptop'), requests: 40, failed: 6, inputTokens: 374, outputTokens: 238, costUsd: 0.0007, unpriced: true}],
		byModel: [{...emptyRow('claude-sonnet-4-6'), requests: 7, costUsd: 0, unpriced: true}, {...emptyRow('gpt-4o-mini'), requests: 7, costUsd: 0.00004}],
	},
	all: {byKey: [], byModel: []},
	lastDay: [],
	error: null,
};

test('at 80 columns a cost is never cut: "$0.0007+" where "$0.0007 + no price" does not fit; model names whole', () => {
	const narrow = renderTui(<UsagePane usage={usage} log={[]} source="stored" active width={80} height={19} />).lastFrame()!;
	assert.match(narrow, /laptop\s+40\s+6\s+(238\s+)?\$0\.0007\+ /);
	assert.match(narrow, /claude-sonnet-4-6\s+7\s+0\s+no price/);
	assert.match(narrow, /gpt-4o-mini\s+7\s+0\s+<\$0\.0001/);
	assert.doesNotMatch(narrow.split('Live requests')[0]!.split('\n').slice(1).join('\n'), /…/, 'nothing cut above the log');
	cleanup();
	const wide = renderTui(<UsagePane usage={usage} log={[]} source="stored" active width={140} height={19} />).lastFrame()!;
	assert.match(wide, /laptop\s+40\s+6\s+374\s+238\s+\$0\.0007 \+ no price/);
});

const event: RequestFinished = {
	id: 'req_1', time: new Date().toISOString(), method: 'POST', path: '/v1/messages', keyId: 'key_x', keyName: 'laptop', model: 'claude-sonnet-4-6', upstreamModel: 'claude-sonnet-4-6', channelId: 'ch', channelName: 'claude',
	inboundFormat: 'anthropic', outboundFormat: 'anthropic', stream: false, status: 200, outcome: 'ok', latencyMs: 42, ttfbMs: 10, usage: {inputTokens: 30, outputTokens: 5, cachedTokens: 0, reasoningTokens: 0}, error: null, warnings: [], eventType: 'routed', attempts: ['claude'], costUsd: 0, unpriced: false,
};

test("Enter on the log tells the App a request's details have the keyboard (its footer), Esc gives it back", async () => {
	const captured: Capture[] = [];
	const {stdin, lastFrame} = renderTui(<UsagePane usage={usage} log={[event]} source="stored" active width={100} height={24} onCapture={next => captured.push(next)} />);
	await press(stdin, keys.down, keys.enter);
	await frameWith(lastFrame, /Request\s+req_1/);
	assert.deepEqual(captured, ['request']);
	await press(stdin, keys.escape);
	await frameWith(lastFrame, /Paused on a request/);
	assert.deepEqual(captured, ['request', null]);
});

test('a long message takes at most the two lines the layout counted, cut with … (and, for the status message, where it is whole), never a third that would push the frame', async () => {
	const {statusBarHeight} = await import('../../source/ui/components/chrome.js');
	const text = "The store's secrets were sealed with another master key than the one this gateway has (from /tmp/gateway-tui-screenshots-zyefKl/user/.config/gateway-tui/master.key). Give it the key the store was written with: set GATEWAY_TUI_MASTER_KEY (or GATEWAY_TUI_MASTER_KEY_FILE) as on the other gateways. Nothing was changed.";
	const listen = {url: null, error: 'Port 11580 is in use by another program: choose another with the port setting, or stop the other program, then restart the TUI.'};
	const frame = renderTui(
		<Box width={80}>
			<StatusBar listen={listen} requests={0} failed={0} channels={{total: 0, enabled: 0, healthy: null}} message={{kind: 'error', text}} columns={80} />
		</Box>,
	).lastFrame()!;
	const shown = lines(frame);
	assert.equal(shown.length, statusBarHeight(listen, {kind: 'error', text}, 80), 'as many lines as the layout counted');
	assert.equal(shown.length, 4);
	assert.ok(shown.every(line => line.length <= 79), shown.join('\n'));
	assert.match(shown[1]!, /^ {3}\S/, 'the second line indented under the first');
	assert.match(shown[1]!, /…$/, 'the listen error is cut');
	assert.match(shown[3]!, /… \(\? shows all\)$/, 'the message is cut, saying where it is whole');
});

test("a form's hint line keeps the field's own hint and those of its keys that fit whole, never cut mid-word", () => {
	const fields = [{kind: 'text', id: 'prices', label: 'Prices', hint: 'model=in/out[/cached] USD per 1M tokens, comma-separated'}] as const;
	const hintLine = (width: number) => {
		const frame = renderTui(<Form title="Edit channel" fields={fields} initial={{}} onSubmit={() => {}} onCancel={() => {}} submitLabel="Save channel" active width={width} />).lastFrame()!;
		cleanup();
		return frame.split('\n').at(-1)!.trimEnd();
	};
	// 76: the inside of an 80-column pane. The key hints give way whole, last first (the footer lists them all).
	assert.equal(hintLine(76), 'model=in/out[/cached] USD per 1M tokens, comma-separated · Enter/Tab next');
	assert.equal(hintLine(120), 'model=in/out[/cached] USD per 1M tokens, comma-separated · Enter/Tab next · ↑ back · Esc cancel');
	assert.equal(hintLine(56), 'model=in/out[/cached] USD per 1M tokens, comma-separated', 'at 60 columns the field hint alone');
	assert.equal(fitParts('a long first part · b', 5), 'a long first part', 'the first part is kept whole for the caller to cut');
});
