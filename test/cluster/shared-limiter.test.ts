/**
 * The shared limiter's own rules, with counters the test controls (the real ones are tested on real
 * servers in test/store/counters.test.ts and test/cluster/): what the store answers decides, keys
 * without limits never ask it, a store that fails makes the gateway count alone (open) or refuse
 * with a 503 (closed) — warning once, asking again a second later, and saying when it is back —
 * and a store that does not answer is given up on after the time-out.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {EventBus} from '../../source/base/events.js';
import {GatewayError, UserError} from '../../source/base/errors.js';
import type {LimitUse} from '../../source/base/periods.js';
import type {KeyLimits, KeyRecord} from '../../source/base/records.js';
import {guardCounters, type SharedCounters} from '../../source/store/counters.js';
import {limitsFailFromEnv, SharedLimiter, type LimitsFail} from '../../source/proxy/shared-limits.js';
import {FakeClock} from '../helpers/fake-clock.js';

const key = (name: string, limits?: KeyLimits): KeyRecord => ({
	v: 1, id: `key_${name}`, name, description: '', secret: 'x', hash: '0'.repeat(64), models: [], channels: [],
	expiresAt: null, revokedAt: null, createdAt: '2026-01-01T00:00:00.000Z', ...(limits ? {limits} : {}),
});

const zero: LimitUse = {rpm: 0, rpd: 0, tpm: 0, tpd: 0, spendUsd: 0};

/** Counters that count like the store (one process, so trivially atomic), or fail while `down`. */
function fakeCounters() {
	const counts = new Map<string, {rpm: number; rpd: number; tpm: number; tpd: number; spendUsd: number}>();
	const state = {down: false, calls: 0};
	const get = (id: string) => counts.get(id) ?? counts.set(id, {...zero}).get(id)!;
	const fail = () => {
		state.calls++;
		if (state.down) throw new Error('The store redis://:****@db:6379/0 failed while counting (connect ECONNREFUSED).');
	};
	const counters: SharedCounters = {
		async admit(id, _windows, limits) {
			fail();
			const use = get(id);
			const over = (limit: number | undefined, used: number) => limit !== undefined && used >= limit;
			if (over(limits.budgetUsd, use.spendUsd) || over(limits.rpm, use.rpm) || over(limits.rpd, use.rpd) || over(limits.tpm, use.tpm) || over(limits.tpd, use.tpd)) return {admitted: false, use: {...use}};
			use.rpm++;
			use.rpd++;
			return {admitted: true, use: {...use}};
		},
		async add(id, _windows, tokens, costUsd) {
			fail();
			const use = get(id);
			use.tpm += tokens;
			use.tpd += tokens;
			use.spendUsd += costUsd;
			return {...use};
		},
		async seed(id, _windows, seed) {
			fail();
			const use = get(id);
			for (const name of ['rpm', 'rpd', 'tpm', 'tpd', 'spendUsd'] as const) use[name] = Math.max(use[name], seed[name]);
			return {...use};
		},
		close: async () => {},
	};
	return {counters, counts: get, state};
}

function setup(fail: LimitsFail = 'open') {
	const clock = new FakeClock('2026-03-10T12:00:10');
	const events = new EventBus();
	const warnings: string[] = [];
	events.on('warning', ({message}) => warnings.push(message));
	const fake = fakeCounters();
	const limiter = new SharedLimiter(fake.counters, {fail, timeoutMs: 1000, retryMs: 1000}, events, clock.now);
	return {clock, events, warnings, fake, limiter};
}

async function refusal(run: () => void | Promise<void>): Promise<GatewayError> {
	try {
		await run();
	} catch (error) {
		assert.ok(error instanceof GatewayError, String(error));
		return error;
	}
	assert.fail('expected a refusal');
}

test('the store decides: another gateway\'s requests count, the refusal names the limit, use() mirrors the store', async () => {
	const {fake, limiter} = setup();
	const ci = key('ci', {rpm: 3});
	fake.counts(ci.id).rpm = 2; // two requests through another gateway
	await limiter.admit(ci);
	const error = await refusal(() => limiter.admit(ci));
	assert.equal(error.status, 429);
	assert.match(error.message, /The virtual key "ci" is over its limit of 3 requests per minute \(used 3\)\. It resets in 50 s/);
	assert.equal(limiter.use(ci).rpm, 3);
});

test('keys without limits never ask the store, and admit synchronously', () => {
	const {fake, limiter} = setup();
	assert.equal(limiter.admit(key('free')), undefined);
	assert.equal(fake.state.calls, 0);
});

test('finished requests add their tokens and cost to the store; a budget crossed through another gateway warns here too', async () => {
	const {fake, limiter, events} = setup();
	const budgets: number[] = [];
	events.on('key:budget', warning => budgets.push(warning.percent));
	const agent = key('agent', {budget: {usd: 5, period: 'daily'}, budgetWarnPercent: 80});
	fake.counts(agent.id).spendUsd = 3.9; // spent through another gateway
	limiter.record(agent, 100, 0.2);
	await limiter.settle();
	assert.deepEqual([fake.counts(agent.id).tpd, fake.counts(agent.id).spendUsd.toFixed(2)], [100, '4.10']);
	assert.deepEqual(budgets, [82]);
	fake.counts(agent.id).spendUsd = 5;
	assert.match((await refusal(() => limiter.admit(agent))).message, /has spent \$5\.00 of its \$5\.00 budget today/);
});

test('fail open: the gateway counts alone (its own limits still hold), warns once, asks again after a second, says when the store is back', async () => {
	const {fake, limiter, clock, warnings} = setup('open');
	const ci = key('ci', {rpm: 3});
	await limiter.admit(ci);
	fake.state.down = true;
	await limiter.admit(ci);
	await limiter.admit(ci);
	assert.match((await refusal(() => limiter.admit(ci))).message, /3 requests per minute \(used 3\)/, 'counted from the last known count');
	assert.equal(fake.state.calls, 2, 'after a failure the store is not asked again for a second');
	assert.equal(warnings.length, 1);
	assert.match(warnings[0]!, /^Key limits cannot be counted in the shared store: The store redis:\/\/:\*\*\*\*@db:6379\/0 failed .* Until it answers, this gateway counts key limits on its own \(GATEWAY_TUI_LIMITS_FAIL=open\)/);
	await clock.advance(60_000);
	fake.state.down = false;
	await limiter.admit(ci);
	assert.equal(fake.state.calls, 3);
	assert.equal(warnings[1], 'The shared store answers again: key limits are counted across all gateways on it again.');
});

test('fail closed: limited keys get a 503 that says why, keys without limits pass', async () => {
	const {fake, limiter, warnings} = setup('closed');
	fake.state.down = true;
	const error = await refusal(() => limiter.admit(key('ci', {rpm: 100})));
	assert.deepEqual([error.status, error.code, error.retryAfter], [503, 'limits_unavailable', '1']);
	assert.match(error.message, /cannot be checked: the gateway's shared store is unreachable, and this gateway refuses requests of keys with limits until it answers again\. Try again shortly/);
	assert.match(warnings[0]!, /refuses requests of keys with limits with a 503 \(GATEWAY_TUI_LIMITS_FAIL=closed\); set GATEWAY_TUI_LIMITS_FAIL=open to count limits per gateway instead\./);
	await limiter.admit(key('free'));
});

test('a store that does not answer is given up on after the time-out, with the store\'s own error', async () => {
	const silent: SharedCounters = {admit: () => new Promise(() => {}), add: () => new Promise(() => {}), seed: () => new Promise(() => {}), close: async () => {}};
	const guarded = guardCounters(silent, 100, (action, error) => new Error(`The store redis://:****@db failed while ${action} (${(error as Error).message}).`));
	const started = Date.now();
	await assert.rejects(guarded.admit('key_a', {minuteStart: 0, dayStart: 0, spendPeriod: 'total', spendStart: 0, keepMs: 0}, {rpm: 1}), /The store redis:\/\/:\*\*\*\*@db failed while counting a request against key limits \(no answer within 100 ms\)\./);
	assert.ok(Date.now() - started < 1000);
});

test('GATEWAY_TUI_LIMITS_FAIL: open (the default) or closed; anything else says what to write', () => {
	assert.equal(limitsFailFromEnv({}), 'open');
	assert.equal(limitsFailFromEnv({GATEWAY_TUI_LIMITS_FAIL: 'Closed'}), 'closed');
	assert.throws(() => limitsFailFromEnv({GATEWAY_TUI_LIMITS_FAIL: 'shut'}), (error: unknown) => error instanceof UserError && /GATEWAY_TUI_LIMITS_FAIL="shut" is not open or closed\. Set it to open .* or closed/.test(error.message));
});
