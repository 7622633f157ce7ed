/** @jsxRuntime automatic @jsxImportSource react */
/** Channels pane: the table with health from a prop; add with a preset, toggle, test, remove. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup} from 'ink-testing-library';
import {ChannelsPane, type ChannelsPaneProps} from '../../source/ui/panes/channels-pane.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {listKeys} from '../../source/store/keys.js';
import type {ChannelRecord} from '../../source/base/records.js';
import {startFakeProvider} from '../helpers/fake-providers.js';
import {frameWith, keys, press, recordedActions, statusLog, renderTui} from './helpers.js';
import {listChannels} from '../../source/store/channels.js';
import {probeText, probeWarningText} from '../../source/ui/panes/channel-views.js';
import {channelFormFields, initialChannelValues} from '../../source/ui/panes/channel-form.js';
import {clock} from '../../source/ui/text.js';
import type {HealthInfo} from '../../source/ui/health-view.js';
import type {StoredTest} from '../../source/store/channel-tests.js';

afterEach(() => cleanup());

const channel = (name: string, extra: Partial<ChannelRecord> = {}): ChannelRecord => ({
	v: 1,
	id: `ch_${name}`,
	name,
	format: 'openai',
	baseUrl: 'https://api.openai.com/v1',
	apiKey: 'sk-real-0123456789abcdef',
	models: [{name: 'gpt-4o', upstream: 'gpt-4o'}, {name: 'fast', upstream: 'gpt-4o-mini'}],
	enabled: true,
	priority: 0,
	createdAt: '2026-01-01T00:00:00.000Z',
	updatedAt: '2026-01-01T00:00:00.000Z',
	...extra,
});

function props(overrides: Partial<ChannelsPaneProps>): ChannelsPaneProps {
	const unexpected = async () => assert.fail('unexpected call');
	return {
		channels: [],
		actions: {addChannel: unexpected, editChannel: unexpected, setChannelEnabled: unexpected, removeChannel: unexpected, testChannel: unexpected},
		onStatus: () => {},
		onCapture: () => {},
		active: true,
		width: 110,
		height: 20,
		...overrides,
	};
}

test('renders name, format, URL, models with aliases, enabled, priority; health "-" until measured', () => {
	const rows = [channel('openai', {priority: 5}), channel('local', {format: 'anthropic', baseUrl: 'http://127.0.0.1:8080', enabled: false})];
	const unmeasured = renderTui(<ChannelsPane {...props({channels: rows})} />).lastFrame()!;
	assert.match(unmeasured, /openai\s+openai\s+https:\/\/api\.openai\.com\/v1\s+gpt-4o,fast=gpt-4o-mini\s+on\s+5\s+-/);
	assert.match(unmeasured, /local\s+anthropic\s+http:\/\/127\.0\.0\.1:8080\s+.*off\s+0\s+not in use/, 'a disabled channel never reads healthy');
	assert.ok(!unmeasured.includes('sk-real'), 'no real key in the table');
	cleanup();
	const measured = renderTui(<ChannelsPane {...props({channels: rows, health: new Map([['ch_openai', {state: 'degraded'}], ['ch_local', {state: 'unavailable'}]])})} />).lastFrame()!;
	assert.match(measured, /on\s+5\s+degraded/);
	assert.match(measured, /off\s+0\s+not in use/);
});

test('at 80 columns base URLs are whole: the columns of least use give way first', () => {
	const rows = [channel('gemini', {format: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com'}), channel('local', {baseUrl: 'http://127.0.0.1:11434/v1'})];
	const frame = renderTui(<ChannelsPane {...props({channels: rows, width: 80})} />).lastFrame()!;
	assert.match(frame, /gemini\s+https:\/\/generativelanguage\.googleapis\.com\s+gpt-4o/);
	assert.match(frame, /local\s+http:\/\/127\.0\.0\.1:11434\/v1\s/);
	assert.doesNotMatch(frame, /PRIO/, 'the priority column gave way');
	assert.ok(frame.split('\n').every(line => line.length <= 80), 'nothing wider than the terminal');
});

test('n: a preset fills format and base URL; the key is masked; addChannel gets what was typed', async () => {
	const real = await recordedActions();
	try {
		const status = statusLog();
		const {stdin, lastFrame} = renderTui(<ChannelsPane {...props({actions: real.actions, onStatus: status.report})} />);
		await press(stdin, 'n');
		await frameWith(lastFrame, 'New channel');
		await press(stdin, keys.down, keys.enter); // Anthropic
		await frameWith(lastFrame, /Name\s+anthropic/);
		assert.match(lastFrame()!, /Base URL\s+https:\/\/api\.anthropic\.com/);
		await press(stdin, keys.enter, keys.enter, keys.enter); // name, format, base URL as filled in
		await press(stdin, ...'sk-ant-secret-1234');
		const masked = await frameWith(lastFrame, /API key\s+\*{18}(?!\*)/);
		assert.ok(!masked.includes('sk-ant-secret'), 'the key is masked while typed');
		await press(stdin, keys.enter);
		await frameWith(lastFrame, /Models\s+claude-sonnet-5-5,claude-haiku-5-5/); // the preset's models, a real value
		await press(stdin, '\u0015', ...'sonnet=claude-sonnet-4-6,haiku=claude-haiku-4-5', keys.enter); // Ctrl+U clears it first
		await frameWith(lastFrame, /Prices\s+none \(see anthropic\.com\/pricing\)/);
		await press(stdin, ...'sonnet=3/15/0.3, haiku=1/5', keys.enter, '3', keys.enter, keys.enter);
		await frameWith(() => status.last()?.text, /Channel "anthropic" added/);
		assert.equal(real.calls[0]!.name, 'addChannel');
		assert.deepEqual(real.calls[0]!.args[0], {
			name: 'anthropic',
			format: 'anthropic',
			baseUrl: 'https://api.anthropic.com',
			models: 'sonnet=claude-sonnet-4-6,haiku=claude-haiku-4-5',
			priority: '3',
			apiKey: 'sk-ant-secret-1234',
			prices: ['sonnet=3/15/0.3', 'haiku=1/5'],
		});
		const [stored] = await listChannels(real.store);
		assert.deepEqual([stored!.format, stored!.priority, stored!.models.map(model => model.name)], ['anthropic', 3, ['sonnet', 'haiku']]);
		assert.deepEqual(stored!.prices, {sonnet: {input: 3, output: 15, cached: 0.3}, haiku: {input: 1, output: 5}});
	} finally {
		await real.close();
	}
});

test("the prices field's placeholder names no figures: where the preset's provider lists them, nothing for a local model, the syntax otherwise", () => {
	const placeholder = (preset: string, models: string) => {
		const field = channelFormFields({...initialChannelValues(), preset, models}).find(item => item.id === 'prices');
		return field?.kind === 'text' ? field.placeholder : undefined;
	};
	assert.equal(placeholder('openai', 'gpt-4o'), "none (see openai.com/api/pricing)");
	assert.equal(placeholder('gemini', 'gemini-2.5-pro'), "none (see ai.google.dev/gemini-api/docs/pricing)");
	assert.equal(placeholder('ollama', 'llama3.2'), 'none (a local model costs nothing)');
	assert.equal(placeholder('custom', 'fast=my-model, big'), 'none, e.g. fast=IN/OUT/CACHED');
	assert.equal(placeholder('custom', ''), 'none, e.g. MODEL=IN/OUT/CACHED');
});

test('Space disables, e edits (an empty key keeps the old one), d asks before removing', async () => {
	const real = await recordedActions();
	try {
		const existing = await addChannel(real.store, {name: 'openai', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-old-key-123456', models: 'gpt-4o'});
		const status = statusLog();
		const {stdin, lastFrame} = renderTui(<ChannelsPane {...props({channels: [existing], actions: real.actions, onStatus: status.report})} />);
		await press(stdin, ' ');
		await frameWith(() => status.last()?.text, /Disabled channel "openai"/);
		assert.deepEqual(real.calls.at(-1), {name: 'setChannelEnabled', args: [existing.id, false]});

		await press(stdin, 'e');
		await frameWith(lastFrame, 'Edit channel "openai"');
		await press(stdin, keys.tab, keys.tab, keys.tab, keys.tab, ...',gpt-4o-mini', keys.tab, keys.tab, keys.tab, keys.enter);
		await frameWith(() => status.last()?.text, /Channel "openai" saved/);
		const [edited] = await listChannels(real.store);
		assert.deepEqual([edited!.apiKey, edited!.models.map(model => model.name)], ['sk-old-key-123456', ['gpt-4o', 'gpt-4o-mini']]);

		await press(stdin, 'd');
		await frameWith(lastFrame, 'Remove channel "openai"?');
		await press(stdin, 'y');
		await frameWith(() => status.last()?.text, /Removed channel "openai"/);
		assert.deepEqual(await listChannels(real.store), []);
	} finally {
		await real.close();
	}
});

test('d on a channel keys are limited to names them in the question, and says which are left with no channel', async () => {
	const real = await recordedActions();
	try {
		const [one, two] = [await addChannel(real.store, {name: 'one', format: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-4o'}), await addChannel(real.store, {name: 'two', format: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-4o'})];
		await createKey(real.store, {name: 'only-one', channels: 'one'});
		await createKey(real.store, {name: 'both', channels: 'one,two'});
		await createKey(real.store, {name: 'any'});
		const keyRecords = await listKeys(real.store);
		const {stdin, lastFrame} = renderTui(<ChannelsPane {...props({channels: [one!, two!], keys: keyRecords, actions: real.actions, width: 80, height: 18})} />);
		await press(stdin, 'd');
		const asked = await frameWith(lastFrame, 'Remove channel "one"?');
		const text = asked.replace(/[│╭╮╰╯─]/g, ' ').replace(/\s+/g, ' ');
		assert.match(text, /Requests for its models go to other channels, or fail with 404\. Keys limited to it: "only-one" \(no channel left: its requests are refused\), "both" \(still "two"\)\. Edit them on 1 Keys \(e\)\. y yes · any other key: no/);
		assert.match(asked, /two\s+openai/, 'the table still shows above the question');
	} finally {
		await real.close();
	}
});

test('t tests the channel against the provider: latency and model count, a model its list does not name (a warning), or its error', async () => {
	const provider = await startFakeProvider('openai');
	const real = await recordedActions();
	try {
		const good = await addChannel(real.store, {name: 'fake', format: 'openai', baseUrl: provider.url, apiKey: provider.apiKey, models: 'gpt-4o-mini'});
		const bad = await addChannel(real.store, {name: 'wrong-key', format: 'openai', baseUrl: provider.url, apiKey: 'sk-wrong', models: 'gpt-4o-mini'});
		const stale = await addChannel(real.store, {name: 'stale', format: 'openai', baseUrl: provider.url, apiKey: provider.apiKey, models: 'gpt-4o-mini,old=gpt-3.5-gone'});
		const status = statusLog();
		const {stdin, lastFrame, rerender} = renderTui(<ChannelsPane {...props({channels: [good, bad, stale], actions: real.actions, onStatus: status.report})} />);
		await press(stdin, 't');
		await frameWith(() => status.last()?.text, /^Channel "fake" answered in \d+ ms \(\d+ models listed\)\.$/);
		assert.equal(status.last()!.kind, 'ok');
		await press(stdin, 'j', 't');
		await frameWith(() => status.last()?.text, /Channel "wrong-key" failed after \d+ ms: HTTP 401/);
		assert.equal(status.last()!.kind, 'error');
		await press(stdin, 'j', 't');
		await frameWith(() => status.last()?.text, /^Channel "stale" answered, but its provider does not list gpt-3\.5-gone: e edits them, Enter shows all\.$/);
		assert.equal(status.last()!.kind, 'warn');
		// The details' "last test" has it whole.
		await press(stdin, keys.enter);
		await frameWith(lastFrame, /last test\s+Channel "stale" answered in \d+ ms \(4 models listed\)\. Its list\s+does not name gpt-3\.5-gone/);
		// Once the channel is changed (its models fixed, say), that test says nothing of it any more.
		const fixed = {...stale, models: [{name: 'gpt-4o-mini', upstream: 'gpt-4o-mini'}], updatedAt: new Date(Date.parse(stale.updatedAt) + 1000).toISOString()};
		rerender(<ChannelsPane {...props({channels: [good, bad, fixed], actions: real.actions, onStatus: status.report})} />);
		await frameWith(lastFrame, /last test\s+not tested since the channel was changed \(last tested at [\d:]+\) \(press t\)/);
	} finally {
		await real.close();
		await provider.close();
	}
});

test('e edits prices: the field lists them; a price taken out is cleared with "model="; a malformed one is refused in the form', async () => {
	const real = await recordedActions();
	try {
		const existing = await addChannel(real.store, {name: 'openai', format: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-4o,fast=gpt-4o-mini', prices: ['gpt-4o=2.5/10/1.25', 'fast=0.15/0.6']});
		const status = statusLog();
		const {stdin, lastFrame} = renderTui(<ChannelsPane {...props({channels: [existing], actions: real.actions, onStatus: status.report})} />);
		await press(stdin, 'e', keys.tab, keys.tab, keys.tab, keys.tab, keys.tab);
		const listed = 'gpt-4o=2.5/10/1.25, fast=0.15/0.6';
		await frameWith(lastFrame, `› Prices       ${listed}`);
		await press(stdin, ...Array.from(listed, () => '\u007F'), ...'gpt-4o=2/eight', keys.tab, keys.tab, keys.enter);
		await frameWith(lastFrame, /Invalid price "gpt-4o=2\/eight": give two or three non-negative numbers/);
		assert.equal(real.calls.filter(call => call.name === 'editChannel').length, 0, 'refused before the service is called');
		await press(stdin, keys.shiftTab, keys.shiftTab, ...Array.from('eight', () => '\u007F'), '8', keys.tab, keys.tab, keys.enter);
		await frameWith(() => status.last()?.text, /Channel "openai" saved/);
		const [call] = real.calls.filter(item => item.name === 'editChannel');
		assert.deepEqual((call!.args[1] as {prices: unknown}).prices, ['gpt-4o=2/8', 'fast=']);
		const [stored] = await listChannels(real.store);
		assert.deepEqual(stored!.prices, {'gpt-4o': {input: 2, output: 8}});
	} finally {
		await real.close();
	}
});

test('details show the prices, and the health with its reason and when the next trial request may go', async () => {
	const now = Date.now();
	const health = {state: 'unavailable' as const, reason: 'HTTP 503 from the provider (3 failures in a row)', since: new Date(now - 5000).toISOString(), retryAt: new Date(now + 25_000).toISOString()};
	const priced = channel('openai', {prices: {'gpt-4o': {input: 2.5, output: 10, cached: 1.25}}});
	const {stdin, lastFrame} = renderTui(<ChannelsPane {...props({channels: [priced, channel('spare')], health: new Map([['ch_openai', health]])})} />);
	await press(stdin, keys.enter);
	const frame = await frameWith(lastFrame, /retry at/);
	assert.match(frame, /prices\s+gpt-4o=2\.5\/10\/1\.25 \(USD per 1M tokens in\/out\/cached\)/);
	assert.match(frame, /health\s+unavailable since \d\d:\d\d:\d\d \(\d+s ago\)/);
	assert.match(frame, /reason\s+HTTP 503 from the provider \(3 failures in a row\)/);
	assert.match(frame, /retry at\s+\d\d:\d\d:\d\d \(in 2\ds\): one trial request/);
	await press(stdin, keys.escape, 'j', keys.enter);
	const spare = await frameWith(lastFrame, /name\s+spare/);
	assert.match(spare, /prices\s+- \(requests cost \$0, marked "no price"; e sets them\)/);
	assert.match(spare, /health\s+- \(not measured/);
	assert.ok(!spare.includes('retry at'));
});

test('after adding, "Press t to test it" tests the new channel, wherever the cursor was', async () => {
	const existing = [channel('alpha'), channel('beta')];
	const added = channel('new-one');
	const tested: string[] = [];
	const status = statusLog();
	const actions: ChannelsPaneProps['actions'] = {
		...props({}).actions,
		addChannel: async () => added,
		testChannel: async ref => (tested.push(ref), {channel: added, result: {ok: true, latencyMs: 5, models: 1, unlisted: [], retiring: [], alternatives: {}}}),
	};
	const {stdin, lastFrame, rerender} = renderTui(<ChannelsPane {...props({channels: existing, actions, onStatus: status.report})} />);
	await press(stdin, keys.down, 'n');
	await frameWith(lastFrame, 'New channel');
	await press(stdin, keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.enter);
	await frameWith(() => status.last()?.text, 'Channel "new-one" added. Press t to test it.');
	rerender(<ChannelsPane {...props({channels: [existing[0]!, added, existing[1]!], actions, onStatus: status.report})} />);
	await press(stdin, 't');
	await frameWith(() => status.last()?.text, 'Channel "new-one" answered in 5 ms (1 model listed).');
	assert.deepEqual(tested, ['ch_new-one']);
});

test('a channel\'s details show the newer of this TUI\'s own test and the one kept in the store', async () => {
	const claude = channel('claude');
	const unexpected = async () => assert.fail('unexpected call');
	const actions = {addChannel: unexpected, editChannel: unexpected, setChannelEnabled: unexpected, removeChannel: unexpected, testChannel: async () => ({channel: claude, result: {ok: true as const, latencyMs: 5, models: 1, unlisted: [], retiring: [], alternatives: {}}})};
	const kept = (at: number, latencyMs: number, by: 'test' | 'probe' = 'test'): ReadonlyMap<string, StoredTest> => new Map([[claude.id, {at: new Date(at).toISOString(), channelUpdatedAt: claude.updatedAt, result: {ok: false, latencyMs, status: 401, error: 'HTTP 401: Incorrect API key'}, by}]]);
	const {stdin, lastFrame, rerender} = renderTui(<ChannelsPane {...props({channels: [claude], actions, storedTests: kept(Date.now() - 60_000, 7)})} />);
	await press(stdin, keys.enter);
	await frameWith(lastFrame, /last test\s+Channel "claude" failed after 7 ms.*\(tested at \d\d:\d\d:\d\d\)/s);
	// Tested here: this TUI's own result is the newer.
	await press(stdin, 't');
	await frameWith(lastFrame, /last test\s+Channel "claude" answered in 5 ms/);
	// A gateway's --probe-every check after it: its result, read from the store, is the newer now, and says who ran it.
	rerender(<ChannelsPane {...props({channels: [claude], actions, storedTests: kept(Date.now() + 1000, 9, 'probe')})} />);
	await frameWith(lastFrame, /last test\s+Channel "claude" failed after 9 ms.*\(checked by the gateway at[\s│]+\d\d:\d\d:\d\d\)/s);
});

test("a failed test names the channel once and says what to press to change it, not which command to run", () => {
	const error = 'Channel "nowhere" could not be reached (connect ECONNREFUSED 127.0.0.1:9). Check its base URL with `gateway-tui channels test nowhere`.';
	assert.equal(probeText('nowhere', {ok: false, latencyMs: 3, error}), 'Channel "nowhere" failed after 3 ms: could not be reached (connect ECONNREFUSED 127.0.0.1:9). Check its base URL and key (e edits the channel).');
	assert.equal(probeText('nowhere', {ok: false, latencyMs: 3, error: 'HTTP 401: Incorrect API key'}), 'Channel "nowhere" failed after 3 ms: HTTP 401: Incorrect API key');
});

test("a test that found models to change says which in the status bar's two lines at 80 columns, the rest in the details", () => {
	const text = probeWarningText('claude', {ok: true, latencyMs: 9, models: 5, unlisted: ['claude-opus-9'], retiring: [{model: 'claude-sonnet-4-6', retiresAt: '2026-11-30T00:00:00Z'}], alternatives: {'claude-sonnet-4-6': ['claude-sonnet-5-5']}});
	assert.equal(text, 'Channel "claude" answered, but its provider does not list claude-opus-9 and retires claude-sonnet-4-6 on 2026-11-30: e edits them, Enter shows all.');
	assert.ok(text.length <= 2 * 77, 'two lines of the status bar at 80 columns');
	// Tested from the channel's details, which are open: where in them to look.
	const open = probeWarningText('claude', {ok: true, latencyMs: 9, models: 5, unlisted: ['claude-opus-9'], retiring: [{model: 'claude-sonnet-4-6', retiresAt: '2026-11-30T00:00:00Z'}], alternatives: {}}, true);
	assert.equal(open, 'Channel "claude" answered, but its provider does not list claude-opus-9 and retires claude-sonnet-4-6 on 2026-11-30: e edits them; "last test" says all.');
	assert.ok(open.length <= 2 * 77, 'two lines of the status bar at 80 columns');
	assert.match(probeWarningText('claude', {ok: true, latencyMs: 9, models: 5, unlisted: [], retiring: [{model: 'claude-x', retiresAt: null}], alternatives: {}}), /its provider retires claude-x \(no date given\): e edits/);
});

test("a channel's details taller than the pane scroll by PgUp/PgDn, their keys and position on the last line", async () => {
	const {stdin, lastFrame} = renderTui(<ChannelsPane {...props({channels: [channel('openai')], width: 60, height: 13})} />);
	await press(stdin, keys.enter);
	const top = await frameWith(lastFrame, /name +openai/);
	assert.equal(top.split('\n').length, 13, top);
	assert.match(top, /PgUp\/PgDn: lines 1–9 of \d+ · Esc back/, top);
	await press(stdin, '\u001B[6~', '\u001B[6~');
	const bottom = await frameWith(lastFrame, /updated +2026/);
	assert.match(bottom, /PgUp\/PgDn: lines \d+–(\d+) of \1 /, bottom);
});

test('the list\'s HEALTH of a healthy channel that lately lacked a model reads "lacks model" until its time, then healthy again', async () => {
	const now = Date.now();
	const health = {state: 'healthy' as const, reason: null, since: '', retryAt: null, lacking: [{model: 'claude-opus-4-1', until: new Date(now + 1200).toISOString()}]};
	const {lastFrame} = renderTui(<ChannelsPane {...props({channels: [channel('claude'), channel('other')], health: new Map<string, HealthInfo>([['ch_claude', health], ['ch_other', {state: 'healthy'}]])})} />);
	assert.match(await frameWith(lastFrame, /claude .*lacks model/), /other .*healthy/);
	await frameWith(lastFrame, /claude .*healthy/, 4000);
	const two = {...health, lacking: [{model: 'a', until: new Date(now + 60_000).toISOString()}, {model: 'b', until: new Date(now + 60_000).toISOString()}]};
	const again = renderTui(<ChannelsPane {...props({channels: [channel('claude')], health: new Map([['ch_claude', two]])})} />);
	await frameWith(again.lastFrame, /claude .*lacks 2/);
});

test('details of a healthy channel that lacks a model say which, until when, and what happens to its requests; a model past its time is left out, and drops out while shown', async () => {
	// As the core tells it when a 404 for the model sent a request on: healthy, no "since" of its own.
	const now = Date.now();
	const lacking = [
		{model: 'gpt-3.5-turbo', until: new Date(now - 1000).toISOString()},
		{model: 'claude-sonnet-4-5', until: new Date(now + 9.5 * 60_000).toISOString()},
		{model: 'claude-opus-4-1', until: new Date(now + 1500).toISOString()},
	];
	const health = {state: 'healthy' as const, reason: null, since: '', retryAt: null, lacking};
	const {stdin, lastFrame} = renderTui(<ChannelsPane {...props({channels: [channel('claude')], health: new Map([['ch_claude', health]])})} />);
	await press(stdin, keys.enter);
	const frame = await frameWith(lastFrame, /lacks/);
	assert.match(frame, /health\s+healthy\s+│/, 'no "since" where none is known');
	const flat = (text: string) => text.replaceAll(/[│\s]+/g, ' ');
	assert.match(flat(frame), new RegExp(`lacks claude-sonnet-4-5 until ${clock(lacking[1]!.until)} \\(in 9m\\), claude-opus-4-1 until ${clock(lacking[2]!.until)} \\(in [01]s\\): its provider answered 404 \\(retired or renamed\\?\\), so other channels serving them go first till then \\(t tests the channel, e edits it\\)`));
	assert.doesNotMatch(frame, /gpt-3.5-turbo/, 'remembered no more');
	// Its time passes while the details are shown: the pane redraws without it.
	const later = await frameWith(lastFrame, frame => /lacks claude-sonnet-4-5 until [\d:]+ \(in 9m\): its provider answered 404 \(retired or renamed\?\), so other channels serving it go/.test(flat(frame)), 4000);
	assert.doesNotMatch(later, /claude-opus-4-1/);
});
