/** How a key's limits and their use read in `keys list`, `keys show` and the Keys pane. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {limitsText} from '../../source/services/limit-flags.js';

test('limits read at a glance: counts in groups of three digits, money with cents and grouped dollars', () => {
	assert.equal(limitsText(undefined), 'none');
	assert.equal(limitsText({rpm: 60, tpd: 2_000_000, budget: {usd: 1500, period: 'monthly'}}), 'rpm 60 · tpd 2,000,000 · $1,500.00 this month');
	const use = {rpm: 12, rpd: 0, tpm: 0, tpd: 184_320, spendUsd: 1234.567};
	assert.equal(limitsText({rpm: 60, tpd: 2_000_000, budget: {usd: 1500, period: 'monthly'}}, use), 'rpm 12/60 · tpd 184,320/2,000,000 · $1,234.57 of $1,500.00 this month');
	assert.equal(limitsText({tpm: 999, budget: {usd: 5, period: 'daily'}}, {...use, tpm: 1000, spendUsd: 0.004}), 'tpm 1,000/999 · $0.00 of $5.00 today');
});
