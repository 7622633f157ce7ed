/** @jsxRuntime automatic @jsxImportSource react */
/** Key limits in the Keys pane: set in the new-key form, changed with `e`, refused in the form, shown with their use. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup} from 'ink-testing-library';
import {KeysPane, type KeysPaneProps} from '../../source/ui/panes/keys-pane.js';
import {KeyLimiter} from '../../source/proxy/limits.js';
import {createKey} from '../../source/services/keys.js';
import {liveLimitUse} from '../../source/ui/limit-view.js';
import {fakeClipboard, frameWith, keys, press, recordedActions, renderTui, statusLog, type Call} from './helpers.js';
import {listKeys} from '../../source/store/keys.js';
import {limitsColor} from '../../source/ui/panes/key-views.js';
import {reachedLimit} from '../../source/base/periods.js';
import {theme} from '../../source/ui/theme.js';
import type {ChannelRecord} from '../../source/base/records.js';

/** A time in the middle of a minute, a day and a month, for a limiter whose windows must not turn over during a test. */
const midMinute = new Date(2026, 5, 15, 12, 0, 30).getTime();

afterEach(() => cleanup());

const backspace = '\u007F';
const erase = (count: number) => Array.from({length: count}, () => backspace);

function props(overrides: Partial<KeysPaneProps>): KeysPaneProps {
	const unexpected = async () => assert.fail('unexpected call');
	return {
		keys: [],
		channels: [],
		lastUsed: new Map(),
		requests: new Map(),
		actions: {createKey: unexpected, editKey: unexpected, revokeKey: unexpected, rotateKey: unexpected, deleteKey: unexpected},
		clipboard: fakeClipboard(),
		onStatus: () => {},
		onCapture: () => {},
		active: true,
		width: 100,
		height: 24,
		...overrides,
	};
}

const callsOf = (calls: readonly Call[], name: Call['name']) => calls.filter(call => call.name === name);

test('the new-key form sends its limits to createKey as the flags of `keys create`', async () => {
	const real = await recordedActions();
	try {
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({actions: real.actions})} />);
		await press(stdin, 'n', ...'agent', keys.tab, keys.tab, keys.tab, keys.tab, keys.tab);
		await frameWith(lastFrame, /› Limits\s+› none/);
		await press(stdin, keys.down);
		await frameWith(lastFrame, /Requests\/min/);
		await press(stdin, keys.enter, ...'60', keys.enter, keys.enter, ...'10000', keys.enter, keys.enter, '5');
		// A budget brings its period (month unless chosen) and its warning threshold.
		await frameWith(lastFrame, /Budget USD\s+5[\s\S]*Budget\s+per month[\s\S]*Warn at %/);
		await press(stdin, keys.enter, keys.up, keys.up, keys.enter, ...'90', keys.enter, keys.enter);
		await frameWith(lastFrame, 'Key "agent" created');
		assert.deepEqual(callsOf(real.calls, 'createKey')[0]!.args[0], {name: 'agent', description: '', models: [], channels: [], expiresIn: undefined, expiresAt: undefined, rpm: '60', tpm: '10000', budget: '5/day', budgetWarn: '90'});
		const [stored] = await listKeys(real.store);
		assert.deepEqual(stored!.limits, {rpm: 60, tpm: 10000, budget: {usd: 5, period: 'daily'}, budgetWarnPercent: 90});
	} finally {
		await real.close();
	}
});

test('e edits a key: only what changed goes to editKey; an emptied limit is removed with "none"; a budget over unpriced models warns', async () => {
	const real = await recordedActions();
	try {
		const key = await createKey(real.store, {name: 'agent', description: 'the agent', rpm: '60', budget: '20/month', budgetWarn: '80'});
		const status = statusLog();
		const unpriced: ChannelRecord = {v: 1, id: 'ch_local', name: 'local', format: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: null, models: [{name: 'llama3.2', upstream: 'llama3.2'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'};
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: [key], channels: [unpriced], actions: real.actions, onStatus: status.report})} />);
		await press(stdin, 'e');
		await frameWith(lastFrame, /Edit key "agent"[\s\S]*Name\s+agent[\s\S]*Description\s+the agent/);
		await press(stdin, keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.enter); // to Limits, which are set: on to rpm
		await frameWith(lastFrame, /› Requests\/min\s+60/);
		await press(stdin, ...erase(2), keys.tab, keys.tab, keys.tab, ...'5000', keys.tab, ...erase(2), ...'25', keys.tab, keys.tab, ...erase(2), keys.tab);
		await frameWith(lastFrame, /Enter submits/);
		await press(stdin, keys.enter);
		await frameWith(() => status.last()?.text, /Saved key "agent"/);
		assert.deepEqual(status.last(), {kind: 'warn', text: 'Saved key "agent". Its budget cannot count llama3.2 on "local" (no price, so $0): 2, then e on the channel sets prices.'});
		assert.deepEqual(callsOf(real.calls, 'editKey')[0]!.args, [key.id, {rpm: 'none', tpd: '5000', budget: '25/month', budgetWarn: 'none'}]);
		const [stored] = await listKeys(real.store);
		assert.deepEqual([stored!.description, stored!.limits], ['the agent', {tpd: 5000, budget: {usd: 25, period: 'monthly'}}]);
		await frameWith(lastFrame, /NAME\s+(KEY\s+)?MODELS/);
	} finally {
		await real.close();
	}
});

test('"Limits: none" on edit removes every limit the key had', async () => {
	const real = await recordedActions();
	try {
		const key = await createKey(real.store, {name: 'agent', tpm: '1000', budget: '5/week'});
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: [key], actions: real.actions})} />);
		await press(stdin, 'e', keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.up, keys.enter);
		await frameWith(lastFrame, /Limits\s+none/);
		await press(stdin, keys.enter);
		await frameWith(lastFrame, /NAME\s+(KEY\s+)?MODELS/);
		assert.deepEqual(callsOf(real.calls, 'editKey')[0]!.args[1], {tpm: 'none', budget: 'none'});
		assert.equal((await listKeys(real.store))[0]!.limits, undefined);
	} finally {
		await real.close();
	}
});

test('a limit the service refuses is shown in the form, which stays open with what was typed and the focus on that field', async () => {
	const real = await recordedActions();
	try {
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({actions: real.actions})} />);
		await press(stdin, 'n', ...'agent', keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.down, keys.enter, ...'sixty');
		await press(stdin, keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.enter);
		const frame = await frameWith(lastFrame, /Requests\/min: "sixty" is not a whole number above 0\. Type one, or leave the field empty for\s+│\n│ no limit\./);
		assert.doesNotMatch(frame, /--rpm/);
		assert.match(frame, /New virtual key/);
		assert.equal(callsOf(real.calls, 'createKey').length, 1);
		assert.deepEqual(await listKeys(real.store), [], 'nothing was created');
		// The refusal names its field, and the focus went there: the fix is typed at once.
		await frameWith(lastFrame, /› Requests\/min\s+sixty/);
		await press(stdin, ...erase(5), ...'60', keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.enter);
		await frameWith(lastFrame, 'Key "agent" created');
		assert.deepEqual((await listKeys(real.store))[0]!.limits, {rpm: 60});
	} finally {
		await real.close();
	}
});

test('the table shows each limit with its use, as the limiter counts it; Enter shows them in full', async () => {
	const real = await recordedActions();
	try {
		const agent = await createKey(real.store, {name: 'agent', rpm: '60', budget: '20/month'});
		const free = await createKey(real.store, {name: 'free'});
		// A fixed time in the middle of a minute and of a month: on the wall clock, a window turning over between two reads changed the numbers.
		const limiter = new KeyLimiter(undefined, () => midMinute);
		limiter.admit(agent);
		limiter.admit(agent);
		limiter.record(agent, 1200, 4.2);
		const limitUse = await liveLimitUse(limiter)([agent, free]);
		assert.deepEqual([...limitUse.keys()], [agent.id], 'keys without limits have no use to show');
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: [agent, free], limitUse, width: 140})} />);
		const frame = lastFrame()!;
		assert.match(frame, /agent\s+sk-gtui-.*\s+0\s+rpm 2\/60 · \$4\.20 of \$20\.00 this month/);
		assert.match(frame, /free\s+sk-gtui-.*\s+0\s+-/);
		await press(stdin, keys.enter);
		await frameWith(lastFrame, /limits\s+rpm 2\/60 · \$4\.20 of \$20\.00 this month/);
		cleanup();
		const narrow = renderTui(<KeysPane {...props({keys: [agent, free], limitUse, width: 100})} />).lastFrame()!;
		assert.match(narrow, /NAME\s+MODELS\s+CHANNELS\s+STATE\s+LAST USED\s+REQS\s+LIMITS/, 'the key prefix gives way to the limits');
		assert.match(narrow, /agent\s+all\s+all\s+active\s+-\s+0\s+rpm 2\/60 · \$4\.20 of \$20\.00 this month/);
	} finally {
		await real.close();
	}
});

test('LIMITS is red where the next request is refused (a limit reached, the budget spent), yellow past the warning threshold', async () => {
	const real = await recordedActions();
	try {
		const agent = await createKey(real.store, {name: 'agent', rpm: '3', budget: '10/month', budgetWarn: '50%'});
		const free = await createKey(real.store, {name: 'free'});
		const use = (rpm: number, spendUsd: number) => ({rpm, rpd: rpm, tpm: 0, tpd: 0, spendUsd});
		assert.equal(limitsColor(free, undefined), theme.muted, 'no limits');
		assert.equal(limitsColor(agent, use(2, 4.99)), undefined, 'within them');
		assert.equal(limitsColor(agent, use(2, 5)), theme.warn, 'half the budget: its warning');
		assert.equal(limitsColor(agent, use(3, 0)), theme.error, 'rpm reached');
		assert.equal(limitsColor(agent, use(0, 10)), theme.error, 'the budget spent');
		// The same rule as the limiter's refusal.
		const limiter = new KeyLimiter(undefined, () => midMinute);
		for (let i = 0; i < 3; i++) limiter.admit(agent);
		assert.equal(reachedLimit(agent.limits, limiter.use(agent)), 'rpm');
		assert.throws(() => limiter.admit(agent), /over its limit of 3 requests per minute/);
	} finally {
		await real.close();
	}
});

test('"none" clears the warning threshold, and removing a budget removes its threshold too (service: parseLimits)', async () => {
	const real = await recordedActions();
	try {
		await createKey(real.store, {name: 'agent', rpm: '60', budget: '5/day', budgetWarn: '90%'});
		const edited = await real.actions.editKey('agent', {budget: 'none'});
		assert.deepEqual(edited.limits, {rpm: 60});
		const cleared = await real.actions.editKey('agent', {budget: '5/day', budgetWarn: '90'});
		assert.deepEqual((await real.actions.editKey(cleared.id, {budgetWarn: 'none'})).limits, {rpm: 60, budget: {usd: 5, period: 'daily'}});
	} finally {
		await real.close();
	}
});
