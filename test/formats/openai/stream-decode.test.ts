import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import type {IRStreamEvent} from '../../../source/base/ir.js';
import {openaiAdapter} from '../../../source/formats/openai/index.js';
import {chunkLines, collect, sseMessages, testContext} from './helpers.js';

const decode = async (lines: readonly string[]) => collect(openaiAdapter.decodeStream(sseMessages(lines), testContext()));

describe('openai decodeStream', () => {
	it('decodes a text stream delta by delta, finishing with the usage chunk that follows finish_reason', async () => {
		const events = await decode(chunkLines('text'));
		assert.deepEqual(events, [
			{type: 'start', id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0', model: 'gpt-4.1-nano-2025-04-14'},
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			{type: 'text-delta', index: 0, text: '**'},
			{type: 'text-delta', index: 0, text: 'Holiday'},
			{type: 'text-delta', index: 0, text: ' Name'},
			{type: 'text-delta', index: 0, text: ':**'},
			{type: 'text-delta', index: 0, text: ' Harmony'},
			{type: 'text-delta', index: 0, text: ' Day'},
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 16, outputTokens: 300}},
		]);
	});

	it('decodes a tool call whose arguments arrive in many pieces', async () => {
		const events = await decode(chunkLines('tool-call'));
		assert.deepEqual(events, [
			{type: 'start', id: 'chatcmpl-96aZqmeDpA9IPD6tACY8djkMsJCMP', model: 'gpt-3.5-turbo-0125'},
			{type: 'block-start', index: 0, block: {kind: 'tool_call', id: 'call_O17Uplv4lJvD6DVdIvFFeRMw', name: 'test-tool'}},
			{type: 'tool-args-delta', index: 0, json: '{"'},
			{type: 'tool-args-delta', index: 0, json: 'value'},
			{type: 'tool-args-delta', index: 0, json: '":"'},
			{type: 'tool-args-delta', index: 0, json: 'Spark'},
			{type: 'tool-args-delta', index: 0, json: 'le'},
			{type: 'tool-args-delta', index: 0, json: ' Day'},
			{type: 'tool-args-delta', index: 0, json: '"}'},
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 53, outputTokens: 17}},
		]);
	});

	it('decodes parallel tool calls as two blocks, arguments joined per call', async () => {
		const events = await decode(chunkLines('parallel-tool-calls'));
		const starts = events.filter((event): event is Extract<IRStreamEvent, {type: 'block-start'}> => event.type === 'block-start');
		assert.deepEqual(
			starts.map(event => [event.index, event.block]),
			[
				[0, {kind: 'tool_call', id: 'call_12345xyz', name: 'get_weather'}],
				[1, {kind: 'tool_call', id: 'call_67890abc', name: 'get_weather'}],
			],
		);
		const args = (index: number) =>
			events.flatMap(event => (event.type === 'tool-args-delta' && event.index === index ? [event.json] : [])).join('');
		assert.equal(args(0), '{"location": "Paris, France"}');
		assert.equal(args(1), '{"location": "Bogotá, Colombia"}');
		assert.deepEqual(events.slice(-3), [
			{type: 'block-end', index: 0},
			{type: 'block-end', index: 1},
			{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 82, outputTokens: 49}},
		]);
	});

	it('decodes interleaved tool-call pieces (each delta keyed by its index)', async () => {
		const events = await decode([
			'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"a","arguments":"{\\"x\\":"}}]}}]}',
			'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"b","arguments":"{\\"y\\":"}}]}}]}',
			'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}',
			'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"2}"}}]}}]}',
			'{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
			'[DONE]',
		]);
		assert.deepEqual(
			events.filter(event => event.type === 'tool-args-delta'),
			[
				{type: 'tool-args-delta', index: 0, json: '{"x":'},
				{type: 'tool-args-delta', index: 1, json: '{"y":'},
				{type: 'tool-args-delta', index: 0, json: '1}'},
				{type: 'tool-args-delta', index: 1, json: '2}'},
			],
		);
	});

	it('starts a new call when a server reuses index 0 with a new id, and names calls that arrive without an id', async () => {
		const events = await decode([
			'{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"a","arguments":"{}"}}]}}]}',
			'{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_2","function":{"name":"b","arguments":"{}"}}]}}]}',
			'{"choices":[{"delta":{"tool_calls":[{"index":5,"function":{"name":"c","arguments":{"k":1}}}]}}]}',
			'{"choices":[{"finish_reason":"tool_calls"}]}',
			'[DONE]',
		]);
		const starts = events.flatMap(event => (event.type === 'block-start' && event.block.kind === 'tool_call' ? [event.block] : []));
		assert.deepEqual(starts.map(block => block.name), ['a', 'b', 'c']);
		assert.equal(starts[1].id, 'call_2');
		assert.match(starts[2].id, /^call_/);
		assert.ok(events.some(event => event.type === 'tool-args-delta' && event.json === '{"k":1}'));
	});

	it('decodes DeepSeek reasoning_content as a reasoning block before the text block', async () => {
		const events = await decode(chunkLines('thinking'));
		assert.deepEqual(events, [
			{type: 'start', id: '3f1b2c1e-8d7a-4c5e-9f0b-2a6d4e8c1b7f', model: 'deepseek-reasoner'},
			{type: 'block-start', index: 0, block: {kind: 'reasoning'}},
			{type: 'reasoning-delta', index: 0, text: 'Okay'},
			{type: 'reasoning-delta', index: 0, text: ', the user asks'},
			{type: 'reasoning-delta', index: 0, text: ' which is larger: 9.11 or 9.8.'},
			{type: 'block-end', index: 0},
			{type: 'block-start', index: 1, block: {kind: 'text'}},
			{type: 'text-delta', index: 1, text: '9.8'},
			{type: 'text-delta', index: 1, text: ' is larger.'},
			{type: 'block-end', index: 1},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 13, outputTokens: 228, reasoningTokens: 214}},
		]);
	});

	it('carries cached and reasoning tokens from the usage chunk', async () => {
		const events = await decode(chunkLines('usage-cached'));
		assert.deepEqual(events.at(-1), {
			type: 'finish',
			reason: 'stop',
			usage: {inputTokens: 2006, outputTokens: 300, cachedTokens: 1920, reasoningTokens: 192},
		});
	});

	it('turns a mid-stream error frame into one IR error event, and stops there', async () => {
		const events = await decode(chunkLines('mid-stream-error'));
		assert.deepEqual(events.slice(-1), [
			{
				type: 'error',
				error: {
					kind: 'upstream',
					status: 500,
					message: 'The server had an error while processing your request. Sorry about that!',
					code: undefined,
					param: undefined,
				},
			},
		]);
		assert.equal(events.filter(event => event.type === 'finish').length, 0);
		assert.ok(events.some(event => event.type === 'text-delta' && event.text === 'Hello'));
	});

	it('ends with an error when the body ends before finish_reason and [DONE], and finishes when only [DONE] is missing', async () => {
		const cut = await decode(chunkLines('text').slice(0, 4));
		assert.equal(cut.at(-1)?.type, 'error');
		const noDone = await decode(chunkLines('text').filter(line => line !== '[DONE]'));
		assert.deepEqual(noDone.at(-1), {type: 'finish', reason: 'stop', usage: {inputTokens: 16, outputTokens: 300}});
	});

	it('reports a chunk that is not JSON as an upstream error', async () => {
		const events = await decode(['{"choices":[{"delta":{"content":"a"}}]}', 'not json']);
		assert.equal(events.at(-1)?.type, 'error');
	});
});
