/** @jsxRuntime automatic @jsxImportSource react */
/** Usage pane: totals by key and model for today / all time, and the live log, newest first. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup} from 'ink-testing-library';
import {UsagePane} from '../../source/ui/panes/usage-pane.js';
import type {Capture} from '../../source/ui/commands.js';
import type {RequestFinished} from '../../source/base/events.js';
import type {UsageRow} from '../../source/base/usage-types.js';
import {emptyRow} from '../../source/ui/session-usage.js';
import type {UsageSnapshot} from '../../source/ui/usage-view.js';
import {delay, frameWith, keys, loggedRequest, press, renderTui} from './helpers.js';

afterEach(() => cleanup());

const row = (group: string, requests: number, failed: number, inputTokens: number, outputTokens: number): UsageRow => ({...emptyRow(group), requests, failed, succeeded: requests - failed, inputTokens, outputTokens});

const usage: UsageSnapshot = {
	today: {byKey: [row('laptop', 3, 1, 1200, 300)], byModel: [row('gpt-4o-mini', 3, 1, 1200, 300)]},
	all: {byKey: [row('laptop', 40, 2, 52_000, 9_100), row('ci', 7, 0, 700, 70)], byModel: [row('gpt-4o-mini', 47, 2, 52_700, 9_170)]},
	lastDay: [],
	error: null,
};


test('totals of today and all time; t switches the tables between them', async () => {
	const {stdin, lastFrame} = renderTui(<UsagePane usage={usage} log={[]} source="stored" active width={110} height={22} />);
	const today = lastFrame()!;
	assert.match(today, /Today: 3 requests, 1 failed, 1\.2k in, 300 out/);
	assert.match(today, /All time: 47 requests, 2 failed, 52\.7k in, 9\.2k out/);
	assert.match(today, /laptop\s+3\s+1\s+1\.2k\s+300/);
	assert.ok(!/ci\s+7/.test(today));
	await press(stdin, 't');
	const all = await frameWith(lastFrame, 'all time (t: today)');
	assert.match(all, /laptop\s+40\s+2\s+52k\s+9\.1k/);
	assert.match(all, /ci\s+7\s+0\s+700\s+70/);
	assert.match(all, /gpt-4o-mini\s+47\s+2\s+52\.7k\s+9\.2k/);
	await press(stdin, 'tt'); // twice before a render: back where it was
	await delay(50);
	assert.match(lastFrame()!, /all time \(t: today\)[\s\S]*laptop\s+40\s+2\s+52k/);
});

test('one request is "1 request", not "1 requests"', () => {
	const one = renderTui(<UsagePane usage={{...usage, today: {byKey: [row('laptop', 1, 0, 12, 8)], byModel: [row('m', 1, 0, 12, 8)]}}} log={[]} source="stored" active width={110} height={22} />).lastFrame()!;
	assert.match(one, /Today: 1 request, 0 failed, 12 in, 8 out/);
});

test('the log shows time, key, model, channel, formats, status, latency and tokens, newest first', () => {
	const log = [
		loggedRequest('b', {model: 'claude-sonnet-4-6', inboundFormat: 'openai', outboundFormat: 'anthropic', channelName: 'claude', status: 502, outcome: 'error', latencyMs: 2300, usage: null, error: 'Channel "claude" could not be reached'}),
		loggedRequest('a'),
	];
	const frame = renderTui(<UsagePane usage={usage} log={log} source="session" active width={110} height={22} />).lastFrame()!;
	const lines = frame.split('\n');
	const first = lines.findIndex(line => line.includes('claude-sonnet-4-6'));
	const second = lines.findIndex(line => /gpt-4o-mini\s+openai\s+openai\s+200/.test(line));
	assert.ok(first > 0 && second > first, 'newest first');
	assert.match(lines[first]!, /laptop\s+claude-sonnet-4-6\s+claude\s+openai→anthropic\s+502\s+2\.3s\s+-/);
	assert.match(lines[second]!, /\d\d:\d\d:\d\d\s+laptop\s+gpt-4o-mini\s+openai\s+openai\s+200\s+120ms\s+11\/7/);
});

test('↓ selects a request and Enter shows it in full, with its error; Esc goes back', async () => {
	const log = [loggedRequest('b', {status: 401, outcome: 'error', keyName: null, error: 'The API key sent is not a gateway virtual key.'}), loggedRequest('a')];
	const {stdin, lastFrame} = renderTui(<UsagePane usage={usage} log={log} source="stored" active width={110} height={22} />);
	await press(stdin, keys.down, keys.enter);
	const details = await frameWith(lastFrame, 'The API key sent is not a gateway virtual key.');
	assert.match(details, /request\s+POST \/v1\/chat\/completions/);
	assert.match(details, /status\s+401 error/);
	assert.match(details, /time\s+\d{4}-\d\d-\d\d 10:11:12\.000\b/, 'its time in full, local (as the TIME column)');
	await press(stdin, keys.escape);
	await frameWith(lastFrame, 'Paused on a request · g or Esc: back to live');
	await press(stdin, keys.escape);
	await frameWith(lastFrame, 'Live requests, newest first');
});

test('Enter while the log follows shows the newest request, and the log stays on it behind the details; with no requests it does nothing', async () => {
	const log = [loggedRequest('b', {status: 429, outcome: 'error', error: 'The virtual key "laptop" is over its limit of 10 requests per minute.'}), loggedRequest('a')];
	const {stdin, lastFrame} = renderTui(<UsagePane usage={usage} log={log} source="stored" active width={110} height={22} />);
	await press(stdin, keys.enter);
	const details = await frameWith(lastFrame, 'over its limit of 10 requests per minute');
	assert.match(details, /status\s+429 error/);
	await press(stdin, keys.escape);
	await frameWith(lastFrame, 'Paused on a request · g or Esc: back to live');
	const empty = renderTui(<UsagePane usage={usage} log={[]} source="stored" active width={110} height={22} />);
	await press(empty.stdin, keys.enter);
	await delay(50);
	assert.match(empty.lastFrame()!, /Live requests, newest first/);
});

test('an interrupted stream: "closed", its tokens marked as the gateway’s estimate in the log and explained in the details', async () => {
	const cut = {stream: true, outcome: 'aborted', latencyMs: 900, error: 'client disconnected before the answer was complete'} as const;
	// An Anthropic stream cut short: the prompt is the provider's (message_start), the output the gateway's.
	const log = [loggedRequest('b', {...cut, usage: {inputTokens: 15, outputTokens: 3, estimated: true}}), loggedRequest('a', {...cut, usage: {inputTokens: 12_500, outputTokens: 20, cachedTokens: 9000, estimated: true, estimatedOnly: 'output'}})];
	const {stdin, lastFrame} = renderTui(<UsagePane usage={usage} log={log} source="session" active width={110} height={22} />);
	assert.match(lastFrame()!, /gpt-4o-mini\s+openai\s+openai\s+closed\s+900ms\s+~15\/~3/);
	assert.match(lastFrame()!, /gpt-4o-mini\s+openai\s+openai\s+closed\s+900ms\s+12\.5k\/~20/);
	await press(stdin, keys.down, keys.down, keys.enter);
	const details = await frameWith(lastFrame, 'estimated by the gateway');
	assert.match(details, /status\s+200, the client closed the connection before the end/);
	assert.match(details.replace(/\s*│\s*/g, ' ').replace(/\s+/g, ' '), /tokens 12,500 in, about 20 out, 9,000 cached \(the output estimated by the gateway: the stream ended before the provider reported its usage\)/);
});

test('a request whose client left before its answer came: its prompt marked as the gateway\'s estimate, and why', async () => {
	const log = [loggedRequest('a', {stream: false, outcome: 'aborted', latencyMs: 300, ttfbMs: null, error: 'client disconnected before the answer was complete', usage: {inputTokens: 15, outputTokens: 0, estimated: true, estimatedOnly: 'input'}})];
	const {stdin, lastFrame} = renderTui(<UsagePane usage={usage} log={log} source="session" active width={110} height={22} />);
	assert.match(lastFrame()!, /300ms\s+~15\/0/);
	await press(stdin, keys.enter);
	const details = await frameWith(lastFrame, 'estimated by the gateway');
	assert.match(details.replace(/\s*│\s*/g, ' ').replace(/\s+/g, ' '), /tokens about 15 in, 0 out \(the prompt estimated by the gateway: the client left before the answer came, while the provider had the prompt\)/);
});

test('totals and tables show the cost; tokens without a price are marked "no price"', () => {
	const priced = (group: string, costUsd: number, unpriced: boolean): UsageRow => ({...row(group, 2, 0, 1000, 100), costUsd, unpriced});
	const costs: UsageSnapshot = {
		today: {byKey: [priced('laptop', 4.2, false), priced('ci', 0.0031, false)], byModel: [priced('gpt-4o', 4.2031, false)]},
		all: {byKey: [priced('laptop', 4.2, true), priced('ci', 0, true)], byModel: [priced('gpt-4o', 4.2, false), priced('llama3.2', 0, true)]},
		lastDay: [],
		error: null,
	};
	const frame = renderTui(<UsagePane usage={costs} log={[]} source="stored" active width={110} height={22} />).lastFrame()!;
	assert.match(frame, /Today: 4 requests, 0 failed, 2k in, 200 out, \$4\.20(?! \+)/);
	assert.match(frame, /All time: 4 requests, 0 failed, 2k in, 200 out, \$4\.20 \+ no price/);
	assert.match(frame, /BY KEY\s+REQS\s+FAIL\s+IN\s+OUT\s+COST/);
	assert.match(frame, /laptop\s+2\s+0\s+1k\s+100\s+\$4\.20/);
	assert.match(frame, /ci\s+2\s+0\s+1k\s+100\s+\$0\.0031/);
	cleanup();
	const allTime = renderTui(<UsagePane usage={{...costs, today: costs.all}} log={[]} source="stored" active width={110} height={22} />).lastFrame()!;
	assert.match(allTime, /ci\s+2\s+0\s+1k\s+100\s+no price/);
	assert.match(allTime, /llama3\.2\s+2\s+0\s+1k\s+100\s+no price/);
});

test('the log follows the newest until the user moves; then it stays put, counts what arrived ("3 new ↑"), and g goes back to live', async () => {
	const older = Array.from({length: 30}, (_, index) => loggedRequest(`r${index}`, {model: `model-${index}`})).reverse();
	const view = (log: readonly RequestFinished[]) => <UsagePane usage={usage} log={log} source="stored" active width={110} height={22} />;
	const {stdin, lastFrame, rerender} = renderTui(view(older));
	assert.match(lastFrame()!, /Live requests, newest first/);
	assert.match(lastFrame()!, /model-29/);
	assert.match(lastFrame()!, /↓ \d+ more/, 'rows out of sight are counted');

	await press(stdin, keys.down, keys.down);
	await frameWith(lastFrame, 'Paused on a request');
	const newer = [loggedRequest('n3', {model: 'model-new-3'}), loggedRequest('n2', {model: 'model-new-2'}), loggedRequest('n1', {model: 'model-new-1'}), ...older];
	rerender(view(newer));
	const paused = await frameWith(lastFrame, '3 new ↑');
	assert.doesNotMatch(paused, /model-new-3/, 'the view stays on the chosen request');

	await press(stdin, 'g');
	const live = await frameWith(lastFrame, 'Live requests, newest first');
	assert.match(live, /model-new-3/);
	assert.doesNotMatch(live, /new ↑/);
});

test('/ filters the log by key, model, channel or status; Esc clears the filter', async () => {
	const log = [loggedRequest('a', {status: 429, outcome: 'error', model: 'gpt-4o'}), loggedRequest('b', {keyName: 'ci', model: 'claude-sonnet-4-6', channelName: 'anthropic'}), loggedRequest('c', {model: 'gemini-2.5-flash'})];
	const captured: Capture[] = [];
	const {stdin, lastFrame} = renderTui(<UsagePane usage={usage} log={log} source="stored" active width={110} height={22} onCapture={on => captured.push(on)} />);
	await press(stdin, '/', ...'4xx');
	const filtered = await frameWith(lastFrame, /Filter \/ 4xx/);
	assert.match(filtered, /gpt-4o\s/);
	assert.doesNotMatch(filtered, /claude-sonnet|gemini-2\.5/);
	await press(stdin, '\u0015', ...'ci anthropic', keys.enter);
	const byKey = await frameWith(lastFrame, 'filter "ci anthropic": 1 of 3');
	assert.match(byKey, /claude-sonnet-4-6/);
	assert.doesNotMatch(byKey, /gemini-2\.5|429/);
	await press(stdin, '/', keys.escape);
	const cleared = await frameWith(lastFrame, /Live requests, newest first\s/);
	assert.match(cleared, /gemini-2\.5-flash/);
	assert.deepEqual(captured, ['filter', null, 'filter', null], 'global keys pause while the filter is typed');
});
