/**
 * The latency histogram of a stored usage bucket is checked in place (not rebuilt by `z.record`):
 * it must still refuse what is not bin numbers to counts of requests. So is a bucket as the recorder
 * writes it (not copied by Zod's object parser): it must still refuse every wrong field, saying
 * which, and drop fields it does not know, as the object parser does.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {bucketSchema, dayTotalsSchema, histogramSchema} from '../../source/store/usage.js';
import '../../source/store/collection.js';

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

const recorded = {hour: 23, keyId: 'key_a', keyName: 'a', channelId: 'ch_1', channelName: 'one', model: 'm', requests: 3, succeeded: 2, failed: 1, aborted: 0, inputTokens: 10, outputTokens: 5, cachedTokens: 0, reasoningTokens: 0, costUsd: 0.25, unpriced: 0, latency: {'81': 3}};

test('a bucket as the recorder writes it is taken as it is; one with a field it does not know is taken without that field', () => {
	const parsed = bucketSchema.safeParse(recorded);
	assert.equal(parsed.success, true);
	assert.equal(parsed.data, recorded, 'the same object, not a copy');
	const withNulls = {...recorded, keyId: null, keyName: null, channelId: null, channelName: null};
	assert.equal(bucketSchema.safeParse(withNulls).data, withNulls);
	const newer = bucketSchema.safeParse({...recorded, addedLater: 7});
	assert.equal(newer.success, true);
	assert.deepEqual(newer.data, recorded, 'what a newer gateway added is dropped, the rest kept');
});

test('a stored day with any wrong field in a bucket is refused, naming the bucket and the field', () => {
	const wrong: Array<[string, Record<string, unknown>]> = [
		['hour', {hour: 24}],
		['hour', {hour: 1.5}],
		['hour', {hour: -1}],
		['keyId', {keyId: 3}],
		['keyName', {keyName: undefined}],
		['channelId', {channelId: {}}],
		['channelName', {channelName: false}],
		['model', {model: null}],
		['requests', {requests: -1}],
		['succeeded', {succeeded: 1.5}],
		['failed', {failed: '1'}],
		['aborted', {aborted: 2 ** 60}],
		['inputTokens', {inputTokens: null}],
		['outputTokens', {outputTokens: undefined}],
		['cachedTokens', {cachedTokens: -0.5}],
		['reasoningTokens', {reasoningTokens: Number.NaN}],
		['costUsd', {costUsd: -0.01}],
		['costUsd', {costUsd: '0.25'}],
		['costUsd', {costUsd: Number.POSITIVE_INFINITY}],
		['unpriced', {unpriced: true}],
		['latency', {latency: {slow: 1}}],
		['latency', {latency: null}],
	];
	for (const [field, change] of wrong) {
		const parsed = dayTotalsSchema.safeParse({v: 1, instance: 'i', day: '2026-11-27', buckets: [recorded, {...recorded, ...change}]});
		assert.equal(parsed.success, false, `refused: ${field} ${String(Object.values(change)[0])}`);
		assert.deepEqual(parsed.error.issues[0]!.path, ['buckets', 1, field]);
		assert.doesNotMatch(parsed.error.issues[0]!.message, /^Invalid input$/, 'a message that says what was expected');
	}
	for (const notABucket of [null, [], 'bucket', 3, new Map(Object.entries(recorded))]) {
		const parsed = dayTotalsSchema.safeParse({v: 1, instance: 'i', day: '2026-11-27', buckets: [notABucket]});
		assert.equal(parsed.success, false, `refused: ${String(notABucket)}`);
		assert.deepEqual(parsed.error.issues[0]!.path.slice(0, 2), ['buckets', 0]);
	}
});
