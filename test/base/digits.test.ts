/** Numbers as the CLI and the TUI print them for people. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {budgetDollars, dollars, groupDigits} from '../../source/base/digits.js';
import {limitsLine} from '../../source/services/limit-flags.js';

test('counts in groups of three digits, dollars with cents and grouped dollars', () => {
	assert.deepEqual([0, 12, 999, 1000, 5104, 100_000, 2_000_000, 1_234_567].map(groupDigits), ['0', '12', '999', '1,000', '5,104', '100,000', '2,000,000', '1,234,567']);
	assert.deepEqual([0, 0.004, 4.2, 20, 999.999, 1234.567, 1e6].map(usd => dollars(usd)), ['$0.00', '$0.00', '$4.20', '$20.00', '$1,000.00', '$1,234.57', '$1,000,000.00']);
	assert.equal(dollars(1234.56789, 4), '$1,234.5679');
});

test('a budget under a whole cent, and what is spent of it, show to four decimals where cents would read $0.00 of $0.01', () => {
	assert.deepEqual([budgetDollars(0.0031, 0.005), budgetDollars(0.005, 0.005)], ['$0.0031', '$0.0050']);
	assert.deepEqual([budgetDollars(4.1, 5), budgetDollars(0.0312, 0.05), budgetDollars(1234.5, 2000), budgetDollars(0.1 + 0.2, 0.3)], ['$4.10', '$0.03', '$1,234.50', '$0.30'], 'whole cents (0.3 included, which is 0.30000000000000004 in binary) keep two');
	assert.equal(limitsLine({budget: {usd: 0.005, period: 'daily'}}, {rpm: 0, rpd: 0, tpm: 0, tpd: 0, spendUsd: 0.0031}), '$0.0031 of $0.0050 today');
});
