import assert from 'node:assert/strict';
import {test} from 'node:test';
import {formatRequestLine} from '../../source/base/request-line.js';
import {finished} from '../usage/events.js';

const time = '2026-11-26T21:57:21.019Z';

test('the request line: its fields two spaces apart, the empty ones left out', () => {
	assert.equal(
		formatRequestLine(finished({time, inboundFormat: 'openai', outboundFormat: 'anthropic', model: 'claude', channelName: 'ant', latencyMs: 12, usage: {inputTokens: 12, outputTokens: 8}})),
		`${time}  200  POST /v1/chat/completions  openai→anthropic  key=alpha  model=claude  channel=ant  12ms in=12 out=8`,
	);
	assert.equal(
		formatRequestLine(finished({time, method: 'GET', path: '/v1/models', keyName: null, model: null, channelName: null, outboundFormat: null, usage: null, latencyMs: 0})),
		`${time}  200  GET /v1/models  openai  0ms`,
	);
});

test('the request line with everything a request can say', () => {
	const line = formatRequestLine(
		finished({
			time,
			status: 502,
			inboundFormat: 'anthropic',
			outboundFormat: 'anthropic',
			path: '/v1/messages',
			attempts: ['a', 'b'],
			conversation: {id: 'conv_1', state: 'moved'},
			stream: true,
			latencyMs: 3000,
			usage: {inputTokens: 100, outputTokens: 20, cachedTokens: 40},
			outcome: 'aborted',
			error: 'upstream down',
			warnings: ['one', 'two'],
		}),
	);
	assert.equal(line, `${time}  502  POST /v1/messages  anthropic  key=alpha  model=gpt-4o-mini  channel=oa  failover=a→b  conversation=conv_1:moved  stream  3000ms in=100 out=20 cached=40  ABORTED  error="upstream down"  warnings="one; two"`);
	// Counts the gateway estimated (a stream cut short) say which.
	assert.match(formatRequestLine(finished({time, stream: true, outcome: 'aborted', usage: {inputTokens: 1200, outputTokens: 48, estimated: true, estimatedOnly: 'output'}})), /  \d+ms in=1200 out=48 estimated=output  ABORTED/);
	assert.match(formatRequestLine(finished({time, stream: true, outcome: 'aborted', usage: {inputTokens: 15, outputTokens: 3, estimated: true}})), /in=15 out=3 estimated=all  ABORTED/);
	// A conversation still on its first channel says nothing.
	assert.doesNotMatch(formatRequestLine(finished({time, conversation: {id: 'conv_2', state: 'new'}})), /conversation=/);
});
