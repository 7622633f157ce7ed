/**
 * The request log's filter (the TUI's `/`, `logs --filter`): every word must match one of the
 * record's fields, case aside; a request that failed over also matches `failover` and the channels
 * it tried before the one that answered.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {filterLog, requestFilter} from '../../source/base/request-filter.js';
import type {RequestFinished} from '../../source/base/events.js';

type Row = Parameters<ReturnType<typeof requestFilter>>[0] & {readonly id: string};

const row = (id: string, extra: Partial<RequestFinished> = {}): Row => ({
	id,
	keyName: 'laptop',
	model: 'sonnet',
	upstreamModel: 'claude-sonnet-5-5',
	channelName: 'claude',
	status: 200,
	outcome: 'ok',
	inboundFormat: 'anthropic',
	outboundFormat: 'anthropic',
	stream: false,
	attempts: ['claude'],
	...extra,
});

const log: Row[] = [
	row('plain'),
	row('moved', {channelName: 'backup', outboundFormat: 'openai', attempts: ['claude', 'backup']}),
	row('streamed', {stream: true, keyName: 'ci', status: 429, outcome: 'error'}),
	row('refused', {keyName: null, model: null, upstreamModel: null, channelName: null, status: 401, outcome: 'error', attempts: []}),
];
const ids = (filter: string) => filterLog(log, filter).map(item => item.id);

test('each word must match a field, case aside', () => {
	assert.deepEqual(ids(''), ['plain', 'moved', 'streamed', 'refused']);
	assert.deepEqual(ids('LAPTOP'), ['plain', 'moved']);
	assert.deepEqual(ids('4xx'), ['streamed', 'refused']);
	assert.deepEqual(ids('anthropic stream'), ['streamed']);
	assert.deepEqual(ids('anthropic→openai'), ['moved']);
	assert.deepEqual(ids('claude-sonnet-5-5 ci'), ['streamed']);
});

test('a failed-over request matches "failover" and every channel it tried', () => {
	assert.deepEqual(ids('failover'), ['moved']);
	assert.deepEqual(ids('backup'), ['moved']);
	// "claude" answered three of them, and "moved" tried it first.
	assert.deepEqual(ids('claude'), ['plain', 'moved', 'streamed']);
	assert.deepEqual(ids('failover claude'), ['moved']);
	assert.deepEqual(ids('failover 5xx'), []);
});
