/**
 * The shared key-limit counters on a real Redis and a real PostgreSQL: two stores on one database
 * (as two gateways would have) admit exactly the limit between them, windows roll over, tokens and
 * spend add up, seeding only raises, and sqlite has none (its limits count in memory).
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {Store} from '../../source/store/index.js';
import type {CounterWindows} from '../../source/store/counters.js';
import {storeKinds, tempDir} from './stores.js';

const {kinds} = storeKinds();
const minute = 60_000;
const start = Date.parse('2026-03-10T12:00:00Z');
const windows = (at: number, spendPeriod = 'daily', spendStart = start - 12 * 3600_000): CounterWindows => ({
	minuteStart: Math.floor(at / minute) * minute,
	dayStart: start - 12 * 3600_000,
	spendPeriod,
	spendStart,
	keepMs: 2 * 86_400_000,
});

test('sqlite has no shared counters: its limits count in memory', async () => {
	const store = await Store.open(`sqlite://${tempDir()}/gateway.sqlite`);
	assert.equal(store.counters(1000), null);
	await store.close();
});

for (const kind of kinds.filter(item => item.name !== 'sqlite')) {
	test(`${kind.name}: 50 concurrent admissions through two stores against rpm 10 admit exactly 10`, {skip: kind.skip}, async () => {
		const url = await kind.freshUrl();
		const [one, two] = await Promise.all([Store.open(url, {home: tempDir()}), Store.open(url, {home: tempDir()})]);
		try {
			const counters = [one.counters(2000)!, two.counters(2000)!];
			const results = await Promise.all(Array.from({length: 50}, (_, index) => counters[index % 2]!.admit('key_a', windows(start), {rpm: 10})));
			assert.equal(results.filter(result => result.admitted).length, 10);
			const refused = results.find(result => !result.admitted)!;
			assert.equal(refused.use.rpm, 10, 'a refusal reports the counts that refused it');
			assert.equal((await counters[0]!.admit('key_b', windows(start), {rpm: 10})).admitted, true, 'another key is unaffected');
			const next = await counters[1]!.admit('key_a', windows(start + minute), {rpm: 10, rpd: 11});
			assert.deepEqual([next.admitted, next.use.rpm, next.use.rpd], [true, 1, 11], 'a new minute, the same day');
			const full = await counters[0]!.admit('key_a', windows(start + minute), {rpm: 10, rpd: 11});
			assert.deepEqual([full.admitted, full.use.rpd], [false, 11]);
			const lagging = await counters[0]!.admit('key_a', windows(start), {rpm: 10});
			assert.equal(lagging.use.rpm, 2, 'a lagging clock counts into the newest minute');
		} finally {
			await Promise.all([one.close(), two.close()]);
		}
	});

	test(`${kind.name}: tokens and spend add up across stores, refuse at the budget, reset with the period; seeding only raises`, {skip: kind.skip}, async () => {
		const url = await kind.freshUrl();
		const [one, two] = await Promise.all([Store.open(url, {home: tempDir()}), Store.open(url, {home: tempDir()})]);
		try {
			const [a, b] = [one.counters(2000)!, two.counters(2000)!];
			await a.add('key_t', windows(start), 18, 0.018);
			const added = await b.add('key_t', windows(start), 18, 0.018);
			assert.deepEqual([added.tpm, added.tpd], [36, 36]);
			assert.ok(Math.abs(added.spendUsd - 0.036) < 1e-12, String(added.spendUsd));
			const refused = await a.admit('key_t', windows(start), {budgetUsd: 0.03, tpm: 100});
			assert.equal(refused.admitted, false);
			assert.equal((await b.admit('key_t', windows(start), {tpm: 30})).admitted, false, 'tokens per minute reached');
			assert.equal((await b.admit('key_t', windows(start + minute), {tpm: 30})).admitted, true, 'a new minute');
			const nextDay = await a.admit('key_t', windows(start + minute, 'daily', start + 12 * 3600_000), {budgetUsd: 0.03});
			assert.deepEqual([nextDay.admitted, nextDay.use.spendUsd], [true, 0], 'a new budget period starts from 0');
			const monthly = await a.add('key_t', windows(start + minute, 'monthly', start - 9 * 86_400_000), 1, 0.5);
			assert.equal(monthly.spendUsd, 0.5, 'another budget period is counted apart');

			const seeded = await b.seed('key_s', windows(start), {rpm: 3, rpd: 40, tpm: 100, tpd: 5000, spendUsd: 1.25});
			assert.deepEqual(seeded, {rpm: 3, rpd: 40, tpm: 100, tpd: 5000, spendUsd: 1.25});
			const again = await a.seed('key_s', windows(start), {rpm: 1, rpd: 50, tpm: 0, tpd: 0, spendUsd: 1});
			assert.deepEqual(again, {rpm: 3, rpd: 50, tpm: 100, tpd: 5000, spendUsd: 1.25}, 'the larger of each');
		} finally {
			await Promise.all([one.close(), two.close()]);
		}
	});
}
