/**
 * The latency histogram of a stored usage bucket is checked in place (not rebuilt by `z.record`):
 * it must still refuse what is not bin numbers to counts of requests. So are a bucket and a request
 * record as the gateway writes them (not copied by Zod's object parser): they must still refuse every
 * wrong field, saying which, and drop fields they do not know, as the object parser does.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {bucketSchema, chunkSchema, dayTotalsSchema, histogramSchema, journalSchema, requestRecordSchema} from '../../source/store/usage.js';
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

/** A record as the gateway writes one (the fields in its order, as `JSON.stringify` leaves them). */
const written = {
	id: 'req_0123456789abcdef0123',
	time: '2026-11-28T21:20:41.015Z',
	method: 'POST',
	path: '/v1/chat/completions',
	keyId: 'key_a',
	keyName: 'laptop',
	model: 'claude-sonnet-4-6',
	upstreamModel: 'claude-sonnet-4-6',
	channelId: 'ch_1',
	channelName: 'anthropic',
	inboundFormat: 'openai',
	outboundFormat: 'anthropic',
	stream: true,
	status: 200,
	outcome: 'ok',
	latencyMs: 120,
	ttfbMs: 41,
	usage: {inputTokens: 11, outputTokens: 7},
	error: null,
	warnings: [],
	eventType: 'routed',
	attempts: ['anthropic'],
	costUsd: 0.0125,
	unpriced: false,
};

test('a request record as the gateway writes it is taken as it is; a field it does not know is dropped, the rest kept', () => {
	const variants = [
		written,
		{...written, keyId: null, keyName: null, model: null, upstreamModel: null, channelId: null, channelName: null, outboundFormat: null, ttfbMs: null, usage: null, status: 404, outcome: 'error', eventType: 'no-channel', attempts: [], error: 'no channel'},
		{...written, usage: {inputTokens: 9, outputTokens: 3, cachedTokens: 4, cacheCreationTokens: 2, reasoningTokens: 1, estimated: true}, warnings: ['a signature was dropped'], inboundFormat: 'responses'},
		{...written, conversation: {id: '0123456789abcdef', state: 'pinned'}},
	];
	for (const record of variants) {
		const parsed = requestRecordSchema.safeParse(record);
		assert.equal(parsed.success, true, JSON.stringify(record));
		assert.equal(parsed.data, record, 'the same object, not a copy');
	}
	const conversation = {id: '0123456789abcdef', state: 'moved'};
	for (const [newer, expected] of [
		[{...written, addedLater: 1}, written],
		[{...written, usage: {...written.usage, audioTokens: 2}}, written],
		[{...written, conversation: {...conversation, turns: 3}}, {...written, conversation}],
	] as const) {
		const parsed = requestRecordSchema.safeParse(newer);
		assert.equal(parsed.success, true);
		assert.deepEqual(parsed.data, expected, 'what a newer gateway added is dropped, the rest kept');
	}
});

test('a stored chunk with any wrong field in a record is refused, naming the record and the field', () => {
	const wrong: Array<[readonly (string | number)[], Record<string, unknown>]> = [
		[['id'], {id: 7}],
		[['time'], {time: null}],
		[['method'], {method: undefined}],
		[['path'], {path: ['/v1']}],
		[['keyId'], {keyId: 1}],
		[['keyName'], {keyName: undefined}],
		[['model'], {model: false}],
		[['upstreamModel'], {upstreamModel: {}}],
		[['channelId'], {channelId: 2}],
		[['channelName'], {channelName: []}],
		[['inboundFormat'], {inboundFormat: 'cohere'}],
		[['inboundFormat'], {inboundFormat: null}],
		[['outboundFormat'], {outboundFormat: 'responses'}],
		[['stream'], {stream: 'true'}],
		[['status'], {status: 200.5}],
		[['status'], {status: '200'}],
		[['outcome'], {outcome: 'done'}],
		[['latencyMs'], {latencyMs: -1}],
		[['latencyMs'], {latencyMs: Number.POSITIVE_INFINITY}],
		[['ttfbMs'], {ttfbMs: -0.5}],
		[['usage'], {usage: 'none'}],
		[['usage', 'inputTokens'], {usage: {inputTokens: -1, outputTokens: 1}}],
		[['usage', 'outputTokens'], {usage: {inputTokens: 1}}],
		[['usage', 'cachedTokens'], {usage: {inputTokens: 1, outputTokens: 1, cachedTokens: 0.5}}],
		[['usage', 'estimated'], {usage: {inputTokens: 1, outputTokens: 1, estimated: 1}}],
		[['error'], {error: 500}],
		[['warnings'], {warnings: 'none'}],
		[['warnings', 0], {warnings: [3]}],
		[['eventType'], {eventType: 'retried'}],
		[['attempts'], {attempts: null}],
		[['attempts', 1], {attempts: ['a', null]}],
		[['costUsd'], {costUsd: -0.01}],
		[['costUsd'], {costUsd: Number.NaN}],
		[['unpriced'], {unpriced: 0}],
		[['conversation'], {conversation: null}],
		[['conversation', 'state'], {conversation: {id: 'c', state: 'lost'}}],
		[['conversation', 'id'], {conversation: {state: 'new'}}],
	];
	for (const [path, change] of wrong) {
		const parsed = chunkSchema.safeParse({v: 1, instance: 'i', seq: 0, records: [written, {...written, ...change}]});
		assert.equal(parsed.success, false, `refused: ${path.join('.')} ${JSON.stringify(Object.values(change)[0]) ?? 'undefined'}`);
		assert.deepEqual(parsed.error.issues[0]!.path, ['records', 1, ...path]);
		assert.doesNotMatch(parsed.error.issues[0]!.message, /^Invalid input$/, 'a message that says what was expected');
	}
	const {unpriced: _, ...missing} = written;
	assert.deepEqual(chunkSchema.safeParse({v: 1, instance: 'i', seq: 0, records: [missing]}).error?.issues[0]!.path, ['records', 0, 'unpriced']);
	for (const notARecord of [null, [], 'record', 3, new Map(Object.entries(written))]) {
		const parsed = chunkSchema.safeParse({v: 1, instance: 'i', seq: 0, records: [notARecord]});
		assert.equal(parsed.success, false, `refused: ${String(notARecord)}`);
		assert.deepEqual(parsed.error.issues[0]!.path.slice(0, 2), ['records', 0]);
	}
});

test('a chunk and a day as the gateway writes them are taken whole as they are; a wrong or unknown field of their own is refused or dropped', () => {
	const chunk = {v: 1, instance: 'inst_a', seq: 4, records: [written, {...written, id: 'req_b'}]};
	const parsedChunk = chunkSchema.safeParse(chunk);
	assert.equal(parsedChunk.data, chunk, 'the same chunk, not a copy');
	const dayTotals = {v: 1, instance: 'inst_a', day: '2026-11-27', buckets: [recorded]};
	assert.equal(dayTotalsSchema.safeParse(dayTotals).data, dayTotals, 'the same day, not a copy');
	const newerChunk = chunkSchema.safeParse({...chunk, compressed: false});
	assert.deepEqual(newerChunk.data, chunk, 'what a newer gateway added is dropped');
	assert.equal(newerChunk.data!.records[1], chunk.records[1], 'its records still taken as they are');
	assert.deepEqual(dayTotalsSchema.safeParse({...dayTotals, zone: 'UTC'}).data, dayTotals);
	for (const [path, change] of [
		[['v'], {v: 2}],
		[['instance'], {instance: 3}],
		[['seq'], {seq: -1}],
		[['records'], {records: null}],
	] as const) {
		const parsed = chunkSchema.safeParse({...chunk, ...change});
		assert.equal(parsed.success, false, `refused: ${path.join('.')}`);
		assert.deepEqual(parsed.error.issues[0]!.path, path);
	}
	for (const [path, change] of [
		[['v'], {v: '1'}],
		[['instance'], {instance: null}],
		[['day'], {day: '2026-1-1'}],
		[['buckets'], {buckets: {}}],
	] as const) {
		const parsed = dayTotalsSchema.safeParse({...dayTotals, ...change});
		assert.equal(parsed.success, false, `refused: ${path.join('.')}`);
		assert.deepEqual(parsed.error.issues[0]!.path, path);
	}
});

test('a journal as the recorder writes it is taken as it is, not rebuilt entry by entry; a wrong field of its own or of an entry is refused, an unknown one dropped', () => {
	const entries = Array.from({length: 500}, (_, seq) => ({seq, count: 200, first: '2026-11-29T04:00:00.000Z', last: '2026-11-29T04:00:01.000Z'}));
	const journal = {v: 1, instance: 'inst_a', owner: 'tok', startedAt: '2026-11-29T03:00:00.000Z', updatedAt: '2026-11-29T04:00:01.000Z', closedAt: null, nextSeq: 500, chunks: entries, days: ['2026-11-28', '2026-11-29']};
	// Every reader of the request log lists the journals (the TUI's log once a second): a copy of each entry was garbage each time.
	assert.equal(journalSchema.safeParse(journal).data, journal, 'the same journal, not a copy');
	assert.equal(journalSchema.safeParse({...journal, closedAt: '2026-11-29T05:00:00.000Z'}).success, true);
	const newer = journalSchema.safeParse({...journal, region: 'eu', chunks: [{...entries[0]!, bytes: 10}]});
	assert.deepEqual(newer.data, {...journal, chunks: [entries[0]]}, 'what a newer gateway added is dropped');
	for (const [path, change] of [
		[['v'], {v: 2}],
		[['instance'], {instance: ''}],
		[['owner'], {owner: null}],
		[['closedAt'], {closedAt: 0}],
		[['nextSeq'], {nextSeq: -1}],
		[['chunks'], {chunks: {}}],
		[['chunks', 1, 'count'], {chunks: [entries[0], {...entries[1], count: 1.5}]}],
		[['chunks', 0, 'last'], {chunks: [{...entries[0], last: undefined}]}],
		[['days', 1], {days: ['2026-11-28', '29 Nov']}],
	] as const) {
		const parsed = journalSchema.safeParse({...journal, ...change});
		assert.equal(parsed.success, false, `refused: ${path.join('.')}`);
		assert.deepEqual(parsed.error.issues[0]!.path, path);
		assert.doesNotMatch(parsed.error.issues[0]!.message, /^Invalid input$/, 'a message that says what was expected');
	}
});
