import {test} from 'node:test';
import assert from 'node:assert/strict';
import {KeyLimiter} from '../../source/proxy/limits.js';
import {EventBus} from '../../source/base/events.js';
import {GatewayError} from '../../source/base/errors.js';
import type {KeyRecord, KeyLimits} from '../../source/base/records.js';
import {periodBounds} from '../../source/base/periods.js';
import {type BudgetWarning} from '../../source/base/events.js';
import {FakeClock} from '../helpers/fake-clock.js';

const key = (name: string, limits: KeyLimits): KeyRecord => ({
	v: 1,
	id: `key_${name}`,
	name,
	description: '',
	secret: 'x',
	hash: '0'.repeat(64),
	models: [],
	channels: [],
	expiresAt: null,
	revokedAt: null,
	createdAt: '2026-01-01T00:00:00.000Z',
	limits,
});

function refusal(run: () => void): GatewayError {
	try {
		run();
	} catch (error) {
		assert.ok(error instanceof GatewayError);
		return error;
	}
	assert.fail('expected a refusal');
}

test('requests per minute: the limit holds, the answer says when it resets, the next minute admits again', async () => {
	const time = new FakeClock('2026-03-10T12:00:15');
	const limiter = new KeyLimiter(undefined, time.now);
	const ci = key('ci', {rpm: 3});
	for (let i = 0; i < 3; i++) limiter.admit(ci);
	const error = refusal(() => limiter.admit(ci));
	assert.deepEqual([error.status, error.kind, error.code, error.retryAfter], [429, 'rate_limit', 'rate_limit_exceeded', '45']);
	assert.match(error.message, /"ci" is over its limit of 3 requests per minute \(used 3\)\. It resets in 45 s/);
	limiter.admit(key('other', {rpm: 3}));
	await time.advance(45_000);
	limiter.admit(ci);
});

test('requests per day reset at local midnight', async () => {
	const time = new FakeClock('2026-03-10T23:59:00');
	const limiter = new KeyLimiter(undefined, time.now);
	const daily = key('daily', {rpd: 2});
	limiter.admit(daily);
	limiter.admit(daily);
	const error = refusal(() => limiter.admit(daily));
	assert.equal(error.retryAfter, '60');
	assert.match(error.message, /2 requests per day/);
	await time.advance(60_000);
	limiter.admit(daily);
});

test('token limits count finished requests; a request in flight is not cut off, the next is refused', async () => {
	const time = new FakeClock('2026-03-10T10:00:00');
	const limiter = new KeyLimiter(undefined, time.now);
	const tokens = key('tokens', {tpm: 1000, tpd: 5000});
	limiter.admit(tokens);
	limiter.admit(tokens);
	limiter.record(tokens, 1200, 0);
	assert.match(refusal(() => limiter.admit(tokens)).message, /1000 tokens per minute \(used 1200\)/);
	await time.advance(60_000);
	limiter.admit(tokens);
	limiter.record(tokens, 3900, 0);
	await time.advance(60_000);
	assert.match(refusal(() => limiter.admit(tokens)).message, /5000 tokens per day \(used 5100\)/);
});

test('budgets: spend accumulates, a warning fires once at the threshold, over budget is insufficient_quota, the period resets', async () => {
	const time = new FakeClock('2026-03-31T20:00:00');
	const events = new EventBus();
	const warnings: BudgetWarning[] = [];
	events.on('key:budget', warning => warnings.push(warning));
	const limiter = new KeyLimiter(events, time.now);
	const agent = key('agent', {budget: {usd: 5, period: 'monthly'}, budgetWarnPercent: 80});
	limiter.admit(agent);
	limiter.record(agent, 100, 3.9, time.now());
	assert.equal(warnings.length, 0);
	limiter.record(agent, 100, 0.2, time.now());
	limiter.record(agent, 100, 0.1, time.now());
	assert.equal(warnings.length, 1, 'once per period');
	assert.deepEqual({...warnings[0]!, spentUsd: Number(warnings[0]!.spentUsd.toFixed(2))}, {keyId: 'key_agent', keyName: 'agent', spentUsd: 4.1, budgetUsd: 5, period: 'monthly', percent: 82});
	limiter.admit(agent);
	limiter.record(agent, 100, 0.9, time.now());
	const error = refusal(() => limiter.admit(agent));
	assert.deepEqual([error.status, error.kind, error.code], [429, 'insufficient_quota', 'insufficient_quota']);
	assert.match(error.message, /"agent" has spent \$5\.10 of its \$5\.00 budget this month\. It resets in 4 h/);
	await time.advance(4 * 3_600_000);
	limiter.admit(agent);
});

test('a total budget never resets and has no retry-after', () => {
	const time = new FakeClock('2026-03-10T10:00:00');
	const limiter = new KeyLimiter(undefined, time.now);
	const once = key('once', {budget: {usd: 1, period: 'total'}});
	limiter.record(once, 10, 1, time.now());
	const error = refusal(() => limiter.admit(once));
	assert.equal(error.retryAfter, undefined);
	assert.match(error.message, /never resets: raise it/);
});

test('restored counters apply at once (a restart does not reset a day or a month)', () => {
	const limiter = new KeyLimiter(undefined, new FakeClock('2026-03-10T10:00:00').now);
	const restored = key('restored', {rpd: 100, budget: {usd: 10, period: 'monthly'}});
	limiter.restore(restored, {rpd: 100, spendUsd: 3});
	assert.match(refusal(() => limiter.admit(restored)).message, /100 requests per day/);
	assert.equal(limiter.use(restored).spendUsd, 3);
});

test('weekly periods start on Monday', () => {
	const {start, next} = periodBounds('weekly', new Date('2026-03-12T15:00:00').getTime());
	assert.equal(start.getDay(), 1);
	assert.equal(start.getDate(), 9);
	assert.equal(next!.getDate(), 16);
});
