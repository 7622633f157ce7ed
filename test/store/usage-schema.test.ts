/**
 * The latency histogram of a stored usage bucket is checked in place (not rebuilt by `z.record`):
 * it must still refuse what is not bin numbers to counts of requests.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {bucketSchema, histogramSchema} from '../../source/store/usage.js';

test('a histogram of bin numbers to whole counts is accepted as it is, anything else refused', () => {
	const good = {'0': 1, '81': 3, '120': 250};
	const parsed = histogramSchema.safeParse(good);
	assert.equal(parsed.success, true);
	assert.equal(parsed.data, good, 'the same object, not a copy');
	assert.equal(histogramSchema.safeParse({}).success, true);
	for (const bad of [{x: 1}, {'1.5': 1}, {'-1': 1}, {'1': -1}, {'1': 1.5}, {'1': '2'}, {'1': Number.NaN}, {'1': 2 ** 60}, [], [1, 2], null, 'a', 3, new Map([['1', 1]]), Object.create({'1': 1})]) {
		assert.equal(histogramSchema.safeParse(bad).success, false, `refused: ${JSON.stringify(bad) ?? String(bad)}`);
	}
});

test('a bucket with a bad histogram is refused with a message that says what was expected', () => {
	const bucket = {hour: 3, keyId: 'key_a', keyName: 'a', channelId: null, channelName: null, model: 'm', requests: 1, succeeded: 1, failed: 0, aborted: 0, inputTokens: 1, outputTokens: 1, cachedTokens: 0, reasoningTokens: 0, costUsd: 0, unpriced: 0, latency: {'81': 1}};
	assert.equal(bucketSchema.safeParse(bucket).success, true);
	const parsed = bucketSchema.safeParse({...bucket, latency: {slow: 1}});
	assert.equal(parsed.success, false);
	assert.match(String(parsed.error), /latency histogram/);
});
