/** @jsxRuntime automatic @jsxImportSource react */
/** The whole App over a real store and event bus: panes, global keys, live log, status bar. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {clock} from '../../source/ui/text.js';
import {rmSync} from 'node:fs';
import {cleanup} from 'ink-testing-library';
import {App} from '../../source/ui/app.js';
import {channelWarning, EventBus, type RequestFinished} from '../../source/base/events.js';
import {addChannel, editChannel} from '../../source/services/channels.js';
import {saveChannelTest} from '../../source/store/channel-tests.js';
import {createKey} from '../../source/services/keys.js';
import {Store} from '../../source/store/index.js';
import {lastUsed, listKeys, recordLastUsed} from '../../source/store/keys.js';
import {listChannels} from '../../source/store/channels.js';
import {createModel, type ModelOptions} from '../../source/ui/model.js';
import {KeyLimiter} from '../../source/proxy/limits.js';
import {liveLimitUse} from '../../source/ui/limit-view.js';
import {tempHome} from '../helpers/gateway.js';
import {UsageRecorder} from '../../source/proxy/usage-recorder.js';
import {openRequestLog, usageSummaries} from '../../source/store/usage-summary.js';
import {persistedUse} from '../../source/store/limit-use.js';
import {publishedHealth, publishedHealthKey} from '../../source/store/published-health.js';
import {readUsage} from '../../source/ui/usage-view.js';
import type {UsageSource} from '../../source/ui/session-usage.js';
import {finished as usageEvent} from '../usage/events.js';
import type {ListenState} from '../../source/ui/components/chrome.js';
import {fakeClipboard, frameWith, keys, press, renderTui} from './helpers.js';
import {startFakeProvider} from '../helpers/fake-providers.js';

/** A time in the middle of a minute, a day and a month, for a limiter whose windows must not turn over during a test. */
const midMinute = new Date(2026, 5, 15, 12, 0, 30).getTime();

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
	cleanup();
	for (const close of opened.splice(0)) await close();
});

async function setup(listen: ListenState = {url: 'http://127.0.0.1:4321', error: null}, options: ModelOptions = {}) {
	const home = tempHome();
	const store = await Store.open(home);
	const events = new EventBus();
	const model = createModel(store, events, {serving: listen.error === null, ...options});
	opened.push(async () => {
		model.dispose();
		await store.close();
		rmSync(home, {recursive: true, force: true});
	});
	const clipboard = fakeClipboard();
	const app = renderTui(<App model={model} clipboard={clipboard} listen={listen} baseUrl="http://127.0.0.1:4321" />);
	return {store, events, model, clipboard, ...app};
}

const finished = (id: string, extra: Partial<RequestFinished> = {}): RequestFinished => ({
	id, time: new Date().toISOString(), method: 'POST', path: '/v1/messages', keyId: 'key_x', keyName: 'laptop', model: 'claude-sonnet-4-6', upstreamModel: 'claude-sonnet-4-6', channelId: 'ch', channelName: 'claude',
	inboundFormat: 'anthropic', outboundFormat: 'anthropic', stream: true, status: 200, outcome: 'ok', latencyMs: 42, ttfbMs: 10, usage: {inputTokens: 30, outputTokens: 5}, error: null, warnings: [], eventType: 'routed', attempts: ['claude'], costUsd: 0, unpriced: false, ...extra,
});

test('1-4, Tab and Shift+Tab switch panes; ? lists the keys of the pane; the footer shows them too', async () => {
	const {stdin, lastFrame} = await setup();
	await frameWith(lastFrame, /Virtual keys\s+0 keys/);
	assert.match(lastFrame()!, /n new\s+e edit\s+c copy\s+r revoke/);
	assert.match(lastFrame()!, /● http:\/\/127\.0\.0\.1:4321/);
	await press(stdin, '2');
	await frameWith(lastFrame, /Channels\s+0 provider connections/);
	await press(stdin, keys.tab);
	const endpoints = await frameWith(lastFrame, 'point any OpenAI, Anthropic or Gemini client here');
	assert.match(endpoints, /c copy\s+a take over\s+u undo\s+←→ key\s+↑↓ select/);
	await press(stdin, keys.tab);
	await frameWith(lastFrame, /Usage\s+today/);
	await press(stdin, keys.shiftTab, keys.shiftTab);
	await frameWith(lastFrame, /Channels\s+0 provider/);
	await press(stdin, '?');
	const help = await frameWith(lastFrame, 'Keys of the Channels pane');
	assert.match(help, /Space\s+Enable or disable the channel/);
	assert.match(help, /q\/Ctrl\+C quit/);
	await press(stdin, keys.escape, '1');
	await frameWith(lastFrame, /Virtual keys/);
});

test('the first frame shows the keys and channels the TUI read before it took the screen, never an empty store', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	await addChannel(store, {name: 'claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com', models: 'claude-sonnet-4-6'});
	const laptop = await createKey(store, {name: 'laptop'});
	await recordLastUsed(store, new Map([[laptop.id, new Date(Date.now() - 5 * 60_000).toISOString()]]));
	const model = createModel(store, new EventBus(), {initial: {keys: await listKeys(store), channels: await listChannels(store), lastUsed: await lastUsed(store)}});
	opened.push(async () => {
		model.dispose();
		await store.close();
		rmSync(home, {recursive: true, force: true});
	});
	const {frames, lastFrame} = renderTui(<App model={model} clipboard={fakeClipboard()} listen={{url: 'http://127.0.0.1:4321', error: null}} baseUrl="http://127.0.0.1:4321" />);
	// Without them, the first frames said "0 keys" and "No keys yet. Press n to create one." until the store was read.
	assert.match(frames[0]!, /Virtual keys\s+1 key /);
	assert.match(frames[0]!, /laptop\s+sk-gtui-.*5m ago/, 'the key and when it was last used');
	assert.doesNotMatch(frames[0]!, /No keys yet/);
	// The view still reads the store once shown: a key made since appears, and nothing in between was empty.
	await createKey(store, {name: 'ci'});
	await model.data.reload();
	await frameWith(lastFrame, /ci\s+sk-gtui-/);
	assert.ok(frames.every(frame => !frame.includes('No keys yet')), 'no frame showed an empty store');
	assert.equal(model.data.snapshot.current.keys.find(key => key.name === 'laptop')?.id, laptop.id);
});

test('the first frame counts the requests the store holds and what limited keys used, never zeros; the live log opens with the stored requests', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	const channel = await addChannel(store, {name: 'claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com', models: 'claude-sonnet-4-6'});
	const laptop = await createKey(store, {name: 'laptop', rpd: '100'});
	const recorder = new UsageRecorder(store, {adopt: false});
	for (let index = 0; index < 3; index++) recorder.record(usageEvent({keyId: laptop.id, keyName: 'laptop', channelId: channel.id, channelName: 'claude'}, channel));
	await recorder.close();
	const storedUsage: UsageSource = queries => usageSummaries(store, queries);
	const keyList = await listKeys(store);
	const model = createModel(store, new EventBus(), {
		initial: {keys: keyList, channels: await listChannels(store), lastUsed: await lastUsed(store)},
		storedUsage,
		initialUsage: await readUsage(storedUsage),
		initialLimits: await persistedUse(store, keyList),
		storedLog: {open: want => openRequestLog(store, want)},
	});
	opened.push(async () => {
		model.dispose();
		await store.close();
		rmSync(home, {recursive: true, force: true});
	});
	const {frames, stdin, lastFrame} = renderTui(<App model={model} clipboard={fakeClipboard()} listen={{url: 'http://127.0.0.1:4321', error: null}} baseUrl="http://127.0.0.1:4321" />);
	// Without them, the first frames said 0 under REQS and "0 requests today", and the limits without their use, until the totals were read.
	assert.match(frames[0]!, /laptop\s+sk-gtui-.*\s3\s+rpd 3\/100/, 'the key\'s requests and its use of its limit');
	assert.match(frames[0]!, /3 requests today/);
	await press(stdin, '4');
	await frameWith(lastFrame, /Today: 3 requests, 0 failed/);
	// The live log opens with the requests the store recorded before this session.
	const log = await frameWith(lastFrame, /laptop\s+gpt-4o-mini\s+claude\s+openai\s+200/);
	assert.equal(log.match(/laptop\s+gpt-4o-mini\s+claude/g)?.length, 3);
	assert.doesNotMatch(log, /No requests yet/);
	assert.ok(frames.every(frame => !/\b0 requests today/.test(frame)), 'no frame counted zero requests');
});

test('store changes show up; finished requests reach the live log and the status bar', async () => {
	const {store, events, model, stdin, lastFrame} = await setup();
	await addChannel(store, {name: 'claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com', models: 'claude-sonnet-4-6'});
	await createKey(store, {name: 'laptop'});
	await model.data.reload();
	await frameWith(lastFrame, /laptop\s+sk-gtui-/);
	assert.match(lastFrame()!, /1 of 1 channels healthy/);
	for (let index = 0; index < 3; index++) events.emit('request:finished', finished(String(index)));
	await press(stdin, '4');
	const frame = await frameWith(lastFrame, /Today: 3 requests, 0 failed, 90 in, 15 out/);
	assert.match(frame, /3 requests today  ·/);
	assert.match(frame, /laptop\s+claude-sonnet-4-6\s+claude\s+anthropic\s+200\s+42ms\s+30\/5/);
});

test('the status bar and the Usage pane count the same requests and failures at the same moment', async () => {
	const {events, stdin, lastFrame} = await setup();
	await press(stdin, '4');
	// An upstream error, a client that hung up (not a failure, as the stored summary counts it), and a dead key (no key, a 401).
	const outcomes: Array<Partial<RequestFinished>> = [{}, {status: 502, outcome: 'error'}, {status: 200, outcome: 'aborted'}, {status: 401, outcome: 'error', keyId: null, keyName: null, channelId: null, channelName: null, usage: null}, {}];
	outcomes.forEach((extra, index) => events.emit('request:finished', finished(`r${index}`, extra)));
	const frame = await frameWith(lastFrame, /Today: 5 requests/);
	const pane = /Today: (\d+) requests, (\d+) failed/.exec(frame)!;
	const bar = /(\d+) requests today \((\d+) failed\)/.exec(frame)!;
	assert.deepEqual([bar[1], bar[2]], [pane[1], pane[2]], frame);
	assert.deepEqual([pane[1], pane[2]], ['5', '2']);
});

test('the status bar shows the requests the core has in flight, from any pane, and nothing once they are done', async () => {
	const {events, stdin, lastFrame} = await setup();
	await frameWith(lastFrame, /0 requests today/);
	// Said once, as the count changes: the model follows the bus from its start, before a frame subscribes.
	events.emit('requests:in-flight', 2);
	await frameWith(lastFrame, /0 requests today {2}· {2}2 in flight {2}·/);
	await press(stdin, '4');
	await frameWith(lastFrame, /Live requests[\s\S]*2 in flight/);
	events.emit('request:finished', finished('r1'));
	events.emit('requests:in-flight', 1);
	await frameWith(lastFrame, /1 request today {2}· {2}1 in flight/);
	events.emit('requests:in-flight', 0);
	const frame = await frameWith(lastFrame, /1 request today {2}· {2}0 of 0 channels/);
	assert.doesNotMatch(frame, /in flight/);
});

test('typed ahead in one chunk across a pane switch and a form opening: 1, n, a name, Enter and more land in the form', async () => {
	const {stdin, lastFrame} = await setup();
	await press(stdin, '4');
	await frameWith(lastFrame, /Usage/);
	stdin.write('1nlaptop\rq2?'); // q, 2 and ? are text here: the form has the keyboard
	const frame = await frameWith(lastFrame, /Description  q2\?/);
	assert.match(frame, /Name {9}laptop/);
	assert.match(frame, /New virtual key/);
});

test('while a form is open, global keys are typed into it', async () => {
	const {stdin, lastFrame} = await setup();
	await press(stdin, 'n', 'q', '2', '?');
	const frame = await frameWith(lastFrame, /Name\s+q2\?/);
	assert.match(frame, /New virtual key/);
	await press(stdin, keys.escape, '2');
	await frameWith(lastFrame, /Channels\s+0 provider/);
});

test('a port in use is shown with the flag to choose another', async () => {
	const {stdin, lastFrame} = await setup({url: null, error: 'Port 11580 is already in use (another gateway-tui?). Stop that process or choose another port with --port.'});
	await frameWith(lastFrame, /✖ Port 11580 is already in use .*/);
	assert.match(lastFrame()!.replaceAll(/\s+/g, ' '), /choose another port with --port\. Keys and channels still work here\./);
	await press(stdin, '2');
	await frameWith(lastFrame, /HEALTH/);
	assert.match(lastFrame()!, /0 provider connections/);
});

test('a TUI whose port another gateway holds shows the channel health the gateways serving on the store publish', async () => {
	const {store, model, stdin, lastFrame} = await setup({url: null, error: 'Port 11580 is already in use (another gateway-tui?). Stop that process or choose another port with --port.'});
	const channel = await addChannel(store, {name: 'flaky', format: 'openai', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-real-0123456789abcdef', models: 'm'});
	await addChannel(store, {name: 'fine', format: 'openai', baseUrl: 'https://api.example.org/v1', apiKey: 'sk-real-abcdef0123456789', models: 'n'});
	await model.data.reload();
	await press(stdin, '2');
	await frameWith(lastFrame, /flaky .* -/);
	assert.doesNotMatch(lastFrame()!, /healthy|unavailable/, 'no gateway publishes yet: nothing is known');
	// Two gateways serve on the store: one sees the channel unavailable, the other has had no trouble.
	const now = new Date().toISOString();
	const view = {channelId: channel.id, channelName: 'flaky', state: 'unavailable' as const, reason: 'HTTP 500 (3 failures in a row)', since: now, retryAt: null};
	await publishedHealth(store).set(publishedHealthKey('gw_a'), {v: 1, updatedAt: now, pid: 1, channels: {[channel.id]: view}});
	await publishedHealth(store).set(publishedHealthKey('gw_b'), {v: 1, updatedAt: now, pid: 2, channels: {}});
	await frameWith(lastFrame, /flaky .*unavailable/);
	assert.match(lastFrame()!, /fine .*healthy/);
	await press(stdin, keys.enter);
	const details = (await frameWith(lastFrame, /measured by/)).replaceAll(/[\s│]+/g, ' ');
	assert.match(details, /health unavailable since/);
	assert.match(details, /measured by the 2 gateways serving on this store \(this process does not serve\); 1 of them sees it unavailable/);
	assert.match(details, /reason HTTP 500 \(3 failures in a row\)/);
	// The other gateway's provider lately answered 404 for the channel's model: the details say so, with its time.
	const until = new Date(Date.now() + 8.5 * 60_000).toISOString();
	await publishedHealth(store).set(publishedHealthKey('gw_b'), {v: 1, updatedAt: new Date().toISOString(), pid: 2, channels: {[channel.id]: {...view, state: 'healthy', reason: null, since: '', lacking: [{model: 'm', until}]}}});
	const lacks = (await frameWith(lastFrame, /lacks/)).replaceAll(/[\s│]+/g, ' ');
	assert.match(lacks, new RegExp(`lacks m until ${clock(until)} \\(in 8m\\): its provider answered 404`));
});

test('while the core is starting the status bar says so and health is not shown; a core that then cannot listen shows what the store\'s gateways publish', async () => {
	let settle!: (serving: boolean) => void;
	const serving = new Promise<boolean>(resolve => (settle = resolve));
	const {store, model, stdin, lastFrame, rerender, clipboard} = await setup({url: 'http://127.0.0.1:4321', error: null, starting: true}, {serving});
	const channel = await addChannel(store, {name: 'flaky', format: 'openai', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-real-0123456789abcdef', models: 'm'});
	await model.data.reload();
	await frameWith(lastFrame, /● starting the gateway on http:\/\/127\.0\.0\.1:4321…/);
	await press(stdin, '2');
	await frameWith(lastFrame, /flaky .* -/);
	// Another gateway serves on the store; while this one may still serve, that is not what is shown.
	const now = new Date().toISOString();
	const view = {channelId: channel.id, channelName: 'flaky', state: 'unavailable' as const, reason: 'HTTP 500 (3 failures in a row)', since: now, retryAt: null};
	await publishedHealth(store).set(publishedHealthKey('gw_a'), {v: 1, updatedAt: now, pid: 1, channels: {[channel.id]: view}});
	await new Promise(resolve => setTimeout(resolve, 100));
	assert.match(lastFrame()!, /flaky .* -/);
	assert.doesNotMatch(lastFrame()!, /unavailable|healthy/);
	// Its port was taken after all.
	settle(false);
	rerender(<App model={model} clipboard={clipboard} listen={{url: null, error: 'Port 4321 is already in use (another gateway-tui?). Stop that process or choose another port with --port.'}} baseUrl="http://127.0.0.1:4321" />);
	await frameWith(lastFrame, /flaky .*unavailable/);
	assert.match(lastFrame()!, /Port 4321 is already in use/);
	assert.doesNotMatch(lastFrame()!, /starting the gateway/);
});

test('a core that starts serving measures health here: the channels are healthy until it says otherwise', async () => {
	let settle!: (serving: boolean) => void;
	const {store, events, model, stdin, lastFrame} = await setup({url: 'http://127.0.0.1:4321', error: null, starting: true}, {serving: new Promise<boolean>(resolve => (settle = resolve))});
	const channel = await addChannel(store, {name: 'flaky', format: 'openai', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-real-0123456789abcdef', models: 'm'});
	await model.data.reload();
	await press(stdin, '2');
	await frameWith(lastFrame, /flaky .* -/);
	settle(true);
	await frameWith(lastFrame, /flaky .*healthy/);
	events.emit('channel:health', {channelId: channel.id, channelName: 'flaky', state: 'unavailable', reason: 'HTTP 500 (3 failures in a row)', since: new Date().toISOString(), retryAt: null});
	await frameWith(lastFrame, /flaky .*unavailable/);
});

test('a key crossing its budget warning threshold shows in the status bar', async () => {
	const {events, lastFrame} = await setup();
	await frameWith(lastFrame, /Virtual keys/);
	events.emit('key:budget', {keyId: 'key_agent', keyName: 'agent', spentUsd: 4.1, budgetUsd: 5, period: 'daily', percent: 82});
	const frame = await frameWith(lastFrame, /! key agent: 82% of its \$5\.00 budget spent today \(\$4\.10\)/);
	assert.match(frame.replaceAll(/\s+/g, ' '), /To raise it: 1, then e on the key\./);
});

test("the Keys table shows live limit use from the gateway's limiter, refreshed as requests finish", async () => {
	// A fixed time in the middle of a minute and of a month: on the wall clock, a window turning over between two reads changed the numbers.
	const limiter = new KeyLimiter(undefined, () => midMinute);
	const {store, events, model, stdin, lastFrame} = await setup(undefined, {limitUse: liveLimitUse(limiter), limitPollMs: 60_000});
	const agent = await createKey(store, {name: 'agent', rpm: '60', budget: '20/month'});
	await model.data.reload();
	await frameWith(lastFrame, /agent\s+(sk-gtui-\S+\s+)?all\s+all/);
	limiter.admit(agent);
	limiter.record(agent, 500, 1.5);
	events.emit('request:finished', finished('1'));
	await press(stdin, keys.enter);
	await frameWith(lastFrame, /limits\s+rpm 1\/60 · \$1\.50 of \$20\.00 this month/);
});

test('a result in the status bar ("copied …") goes when another pane is shown; the traffic charts draw live requests', async () => {
	const {model, events, stdin, lastFrame} = await setup();
	await model.actions.createKey({name: 'laptop'});
	await press(stdin, '3');
	await frameWith(lastFrame, '‹ laptop ›');
	await press(stdin, 'c');
	await frameWith(lastFrame, /copied OPENAI_BASE_URL snippet/);
	await press(stdin, '4');
	const usage = await frameWith(lastFrame, /Usage\s+today/);
	assert.doesNotMatch(usage, /copied/);
	for (let index = 0; index < 3; index++) events.emit('request:finished', finished(`r${index}`));
	await frameWith(lastFrame, /req\/min\s+[▁-█] 3 in 1h/);
});

test('what a pane reported (a test\'s warning naming that pane\'s keys) goes when another pane is shown; the gateway\'s warnings stay; ? keeps both', async () => {
	const provider = await startFakeProvider('openai', {models: ['gpt-4o']});
	try {
		const {store, model, events, stdin, lastFrame} = await setup();
		await addChannel(store, {name: 'old', format: 'openai', baseUrl: provider.url, apiKey: provider.apiKey, models: 'gpt-4o,gpt-3.5-turbo'});
		await model.data.reload();
		await press(stdin, '2');
		await frameWith(lastFrame, /old\s+openai/);
		await press(stdin, 't');
		const tested = await frameWith(lastFrame, /does not list gpt-3\.5-turbo/, 5000);
		assert.match(tested.replaceAll(/\s+/g, ' '), /e edits them, Enter shows all\./);
		// Tested again from its details, which are open: where in them the rest is.
		await press(stdin, keys.enter, 't');
		await frameWith(lastFrame, frame => /e edits them; "last test" says all\./.test(frame.replaceAll(/\s+/g, ' ')), 5000);
		// On the Keys pane "e" edits a key: the Channels pane's hint is not shown there.
		await press(stdin, '1');
		assert.doesNotMatch(await frameWith(lastFrame, /Virtual keys/), /does not list/);
		events.emit('warning', {message: 'could not reload keys and channels after a change (store locked); still serving what was read before'});
		await frameWith(lastFrame, /could not reload keys/);
		await press(stdin, '3');
		assert.match(await frameWith(lastFrame, /Endpoints/), /could not reload keys/, 'the gateway\'s warning is no pane\'s');
		await press(stdin, '?');
		const help = (await frameWith(lastFrame, /Messages, newest first/)).replaceAll(/[│\s]+/g, ' ');
		assert.match(help, /could not reload keys/);
		assert.match(help, /does not list gpt-3\.5-turbo/);
	} finally {
		await provider.close();
	}
});

test('a channel\'s last test kept in the store (an earlier run\'s, another process\'s) shows in its details, with when it ran', async () => {
	const {store, model, stdin, lastFrame} = await setup();
	const channel = await addChannel(store, {name: 'kept', format: 'openai', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-real-0123456789abcdef', models: 'gpt-4o'});
	const yesterday = new Date(Date.now() - 86_400_000);
	await saveChannelTest(store, channel, {ok: true, latencyMs: 12, models: 3, unlisted: [], retiring: [], alternatives: {}}, yesterday);
	await model.data.reload();
	await press(stdin, '2');
	await frameWith(lastFrame, /kept\s+openai/);
	await press(stdin, keys.enter);
	const day = `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][yesterday.getMonth()]} ${yesterday.getDate()}`;
	await frameWith(lastFrame, frame => frame.replaceAll(/[│\s]+/g, ' ').includes(`last test Channel "kept" answered in 12 ms (3 models listed). (tested on ${day})`));
	// The channel changed since: that test says nothing of its new settings.
	await editChannel(store, 'kept', {priority: '2'});
	await model.data.reload();
	await frameWith(lastFrame, frame => frame.replaceAll(/[│\s]+/g, ' ').includes(`last test not tested since the channel was changed (last tested on ${day}) (press t)`));
});

test('a failed-over request\'s details name every channel it tried, and its warnings', async () => {
	const {events, stdin, lastFrame} = await setup();
	await press(stdin, '4');
	await frameWith(lastFrame, /Live requests/);
	const warning = 'channel "claude" has no model "claude-sonnet-4-6" any more (its provider answered HTTP 404), so the request went on to the next channel serving "sonnet"';
	events.emit('request:finished', finished('r1', {channelName: 'backup', attempts: ['claude', 'backup'], eventType: 'failover', warnings: [warning]}));
	await frameWith(lastFrame, /laptop/);
	await press(stdin, keys.enter);
	const details = await frameWith(lastFrame, /channel\s+claude → backup \(failed over\)/);
	assert.match(details, /warnings\s+channel "claude" has no model/);
});

test("the Endpoints pane shows the snippets of the key last selected or created on the Keys pane; its own ←/→ choice holds until the next", async () => {
	const {store, model, stdin, lastFrame} = await setup();
	await createKey(store, {name: 'laptop'});
	const ci = await createKey(store, {name: 'ci'});
	await model.data.reload();
	await frameWith(lastFrame, /Virtual keys\s+2 keys/);
	// Nothing chosen yet: the first key.
	await press(stdin, '3');
	await frameWith(lastFrame, /‹ laptop ›/);
	await press(stdin, '1', keys.down, '3');
	assert.ok((await frameWith(lastFrame, /‹ ci ›/)).includes(ci.secret), "ci's secret in the snippet");
	// Chosen here with ←: kept while the Keys pane's selection does not move.
	await press(stdin, keys.left);
	await frameWith(lastFrame, /‹ laptop ›/);
	await press(stdin, '1', '3');
	await frameWith(lastFrame, /‹ laptop ›/);
	// A key created on the Keys pane: "3 Endpoints: ready-to-paste snippets" are its own.
	await press(stdin, '1', 'n');
	await frameWith(lastFrame, /New virtual key/);
	await press(stdin, 'agent', keys.enter, keys.enter, keys.enter, keys.enter, keys.enter, keys.enter, keys.enter);
	await frameWith(lastFrame, /Key "agent" created/);
	await press(stdin, '3');
	await frameWith(lastFrame, /‹ agent ›\s+active · 3 of 3/);
});

test("a gateway's warning about a channel says its next step with the TUI's pane and key, not the CLI's command", async () => {
	const {events, lastFrame} = await setup();
	await frameWith(lastFrame, /Virtual keys/);
	events.emit('warning', channelWarning('channel "oai" has no model "gpt-5" any more (HTTP 404). Check it: ', 'oai', 'test', '.'));
	const frame = await frameWith(lastFrame, /Check it: 2, then t on "oai"\./);
	assert.ok(!frame.includes('gateway-tui channels'), frame);
});

test('a warning too long for the status bar is cut with "? shows all", and ? shows it whole above the keys', async () => {
	const {events, stdin, lastFrame} = await setup();
	await frameWith(lastFrame, /Virtual keys/);
	// Three lines at this terminal's width (100 columns).
	const long = 'channel "anthropic" has no model "claude-haiku-5-5" any more (HTTP 404; retired or renamed?): requests for it try the other channels serving it first, for 10 minutes or until the channel is changed. Check it: gateway-tui channels test anthropic';
	events.emit('warning', {message: long});
	await frameWith(lastFrame, /… \(\? shows all\)/);
	await press(stdin, '?');
	const help = await frameWith(lastFrame, /Messages, newest first/);
	assert.ok(help.replaceAll(/[│\s]+/g, ' ').includes('gateway-tui channels test anthropic'), help);
	await press(stdin, keys.escape);
	await frameWith(lastFrame, /Virtual keys/);
});
