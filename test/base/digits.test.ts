/** Numbers as the CLI and the TUI print them for people. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {dollars, groupDigits} from '../../source/base/digits.js';

test('counts in groups of three digits, dollars with cents and grouped dollars', () => {
	assert.deepEqual([0, 12, 999, 1000, 5104, 100_000, 2_000_000, 1_234_567].map(groupDigits), ['0', '12', '999', '1,000', '5,104', '100,000', '2,000,000', '1,234,567']);
	assert.deepEqual([0, 0.004, 4.2, 20, 999.999, 1234.567, 1e6].map(dollars), ['$0.00', '$0.00', '$4.20', '$20.00', '$1,000.00', '$1,234.57', '$1,000,000.00']);
});
