/** How a key's limits and their use read in `keys list`, `keys show` and the Keys pane. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {limitsLine, limitsText} from '../../source/services/limit-flags.js';

test('limits read at a glance: counts in groups of three digits, money with cents and grouped dollars', () => {
	assert.equal(limitsText(undefined), 'none');
	assert.equal(limitsText({rpm: 60, tpd: 2_000_000, budget: {usd: 1500, period: 'monthly'}}), 'rpm 60 · tpd 2,000,000 · $1,500.00 this month');
	const use = {rpm: 12, rpd: 0, tpm: 0, tpd: 184_320, spendUsd: 1234.567};
	assert.equal(limitsText({rpm: 60, tpd: 2_000_000, budget: {usd: 1500, period: 'monthly'}}, use), 'rpm 12/60 · tpd 184,320/2,000,000 · $1,234.57 of $1,500.00 this month');
	assert.equal(limitsText({tpm: 999, budget: {usd: 5, period: 'daily'}}, {...use, tpm: 1000, spendUsd: 0.004}), 'tpm 1,000/999 · $0.00 of $5.00 today');
});

test('keys list and keys show say what refuses the next request (no colour there): the budget first, then the first limit reached', () => {
	const limits = {rpm: 60, tpd: 1000, budget: {usd: 5, period: 'monthly' as const}};
	const use = {rpm: 12, rpd: 3, tpm: 0, tpd: 400, spendUsd: 1.5};
	assert.equal(limitsLine(limits, use), 'rpm 12/60 · tpd 400/1,000 · $1.50 of $5.00 this month');
	assert.equal(limitsLine(limits, {...use, tpd: 1000}), 'rpm 12/60 · tpd 1,000/1,000 · $1.50 of $5.00 this month — at its tokens-per-day limit');
	assert.equal(limitsLine(limits, {...use, rpm: 60, spendUsd: 5.2}), 'rpm 60/60 · tpd 400/1,000 · $5.20 of $5.00 this month — over its budget');
	assert.equal(limitsLine(limits), 'rpm 60 · tpd 1,000 · $5.00 this month', 'no use known: nothing to say');
	assert.equal(limitsLine(undefined, use), 'none');
});
