import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import {anthropicAdapter} from '../../../source/formats/anthropic/index.js';
import type {IRResponse} from '../../../source/base/ir.js';
import {loadJson, recordingContext, serveOnce} from './fixtures.js';

function decode(name: string): IRResponse {
	return anthropicAdapter.decodeResponse(loadJson(name), recordingContext());
}

describe('decodeResponse', () => {
	test('text', () => {
		assert.deepEqual(decode('text'), {
			id: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
			model: 'claude-sonnet-4-6-20250929',
			parts: [{type: 'text', text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?"}],
			finishReason: 'stop',
			usage: {inputTokens: 12, outputTokens: 30},
		});
	});

	test('a tool call: input becomes JSON text, tool_use becomes tool_calls', () => {
		const ir = decode('tool-use');
		assert.deepEqual(ir.parts[1], {type: 'tool_call', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"fahrenheit"}'});
		assert.equal(ir.finishReason, 'tool_calls');
		assert.deepEqual(ir.usage, {inputTokens: 472, outputTokens: 89});
	});

	test('parallel tool calls keep their order', () => {
		const ir = decode('parallel-tool-use');
		assert.deepEqual(
			ir.parts.map(part => (part.type === 'tool_call' ? `${part.name}:${part.arguments}` : part.type)),
			['text', 'get_weather:{"location":"San Francisco, CA"}', 'get_time:{"timezone":"America/Los_Angeles"}'],
		);
	});

	test('thinking keeps its signature (as Anthropic\'s) and reasoning tokens', () => {
		const ir = decode('thinking');
		const [thinking, text] = ir.parts;
		assert.deepEqual(thinking, {
			type: 'reasoning',
			text: "I'm working through the Euclidean algorithm to find the GCD of 1071 and 462, applying successive division until I reach a remainder of zero, which gives me 21 as the greatest common divisor.",
			signature: {format: 'anthropic', value: (loadJson('thinking') as {content: Array<{signature: string}>}).content[0].signature},
		});
		assert.equal(text.type === 'text' && text.text.endsWith('**21**.'), true);
		assert.deepEqual(ir.usage, {inputTokens: 47, outputTokens: 373, reasoningTokens: 62});
	});

	test('usage with caching: input tokens include cache reads and writes', () => {
		assert.deepEqual(decode('usage-cache').usage, {inputTokens: 3 + 21_400 + 1874, outputTokens: 5, cachedTokens: 21_400, cacheCreationTokens: 1874});
	});

	test('a tool call cut off by max_tokens is length, never tool_calls', () => {
		const body = {
			id: 'msg_1',
			type: 'message',
			role: 'assistant',
			model: 'claude-haiku-4-5',
			content: [{type: 'tool_use', id: 'toolu_1', name: 'write', input: {}}],
			stop_reason: 'max_tokens',
			stop_sequence: null,
			usage: {input_tokens: 10, output_tokens: 64},
		};
		assert.equal(anthropicAdapter.decodeResponse(body, recordingContext()).finishReason, 'length');
	});

	test('stop_sequence, refusal, pause_turn and server-tool blocks', () => {
		const ctx = recordingContext();
		const answer = (stop_reason: string, extra: object = {}) =>
			anthropicAdapter.decodeResponse({id: 'm', model: 'x', content: [{type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {}}], stop_reason, usage: {}, ...extra}, ctx);
		assert.deepEqual([answer('stop_sequence', {stop_sequence: '###'}).stopSequence, answer('stop_sequence').finishReason], ['###', 'stop_sequence']);
		assert.equal(answer('refusal').finishReason, 'refusal');
		assert.equal(answer('pause_turn').finishReason, 'other');
		assert.deepEqual(answer('end_turn').parts, []);
		assert.match(ctx.warnings[0], /"server_tool_use" block/);
	});

	test('a body without content is an upstream error', () => {
		assert.throws(() => anthropicAdapter.decodeResponse({type: 'message'}, recordingContext()), /without a message "content" array/);
	});
});

describe('encodeResponse', () => {
	const ir: IRResponse = {
		id: 'chatcmpl-abc',
		model: 'gpt-4.1',
		parts: [
			{type: 'reasoning', text: 'Thinking…', signature: {format: 'gemini', value: 'CiQB0e2Kb'}},
			{type: 'text', text: 'Calling the tool.'},
			{type: 'tool_call', id: 'call_42', name: 'lookup', arguments: '{"q":"x"}', signature: {format: 'gemini', value: 'tool-sig'}},
		],
		finishReason: 'tool_calls',
		usage: {inputTokens: 1200, outputTokens: 80, cachedTokens: 1000, reasoningTokens: 30},
	};

	test('uses the client-facing model, wraps foreign signatures, converts usage back, and gives another format\'s id the msg_ prefix', () => {
		const ctx = recordingContext();
		const body = anthropicAdapter.encodeResponse(ir, {model: 'claude-alias'}, ctx);
		assert.deepEqual(body, {
			id: 'msg_chatcmpl-abc',
			type: 'message',
			role: 'assistant',
			model: 'claude-alias',
			content: [
				{type: 'thinking', thinking: 'Thinking…', signature: 'gtui1.gemini.CiQB0e2Kb'},
				{type: 'text', text: 'Calling the tool.'},
				{type: 'tool_use', id: 'call_42', name: 'lookup', input: {q: 'x'}},
			],
			stop_reason: 'tool_use',
			stop_sequence: null,
			usage: {input_tokens: 200, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 80, output_tokens_details: {thinking_tokens: 30}},
		});
		// tool_use has no signature slot: the signature waits under the call id for the next request.
		assert.deepEqual(ctx.signatures.recall('call_42'), {format: 'gemini', value: 'tool-sig'});
	});

	for (const [reason, wire] of [
		['stop', 'end_turn'],
		['length', 'max_tokens'],
		['stop_sequence', 'stop_sequence'],
		['content_filter', 'refusal'],
		['refusal', 'refusal'],
		['other', 'end_turn'],
	] as const) {
		test(`finish ${reason} → ${wire}`, () => {
			const body = anthropicAdapter.encodeResponse({...ir, parts: [], finishReason: reason}, {model: 'm'}, recordingContext()) as {stop_reason: string};
			assert.equal(body.stop_reason, wire);
		});
	}

	test('decode(encode(x)) ≈ x for every fixture', () => {
		for (const name of ['text', 'tool-use', 'parallel-tool-use', 'thinking', 'usage-cache']) {
			const original = decode(name);
			const again = anthropicAdapter.decodeResponse(anthropicAdapter.encodeResponse(original, {model: original.model}, recordingContext()), recordingContext());
			assert.deepEqual(again, original, name);
		}
	});

	test('the official SDK reads the encoded answer', async () => {
		const body = anthropicAdapter.encodeResponse(decode('parallel-tool-use'), {model: 'claude-alias'}, recordingContext());
		const server = await serveOnce(JSON.stringify(body), 'application/json');
		try {
			const client = new Anthropic({baseURL: server.url, apiKey: 'test', maxRetries: 0});
			const message = await client.messages.create({model: 'claude-alias', max_tokens: 100, messages: [{role: 'user', content: 'Weather and time?'}]});
			assert.equal(message.model, 'claude-alias');
			assert.equal(message.stop_reason, 'tool_use');
			assert.deepEqual(
				message.content.map(block => (block.type === 'tool_use' ? block.input : block.type)),
				['text', {location: 'San Francisco, CA'}, {timezone: 'America/Los_Angeles'}],
			);
			assert.equal(message.usage.input_tokens, 644);
		} finally {
			await server.close();
		}
	});
});

describe('encodeResponseText', () => {
	const awkward = 'Quotes " and \\ backslashes, a line\nbreak, \u0000 a NUL, \u2028, an emoji 😀, a lone surrogate \ud800';
	const plain = (parts: IRResponse['parts'], extra: Partial<IRResponse> = {}): IRResponse => ({id: 'msg_1', model: 'm', parts, finishReason: 'stop', usage: {inputTokens: 12, outputTokens: 8}, ...extra});
	const cases: Array<[string, IRResponse]> = [
		['plain text', plain([{type: 'text', text: 'Hello.'}])],
		['awkward text in two blocks, an empty one between', plain([{type: 'text', text: awkward}, {type: 'text', text: ''}, {type: 'text', text: 'more'}], {finishReason: 'length'})],
		['no parts', plain([], {finishReason: 'content_filter'})],
		['no id (one is made up), a stop sequence', plain([{type: 'text', text: 'x'}], {id: '', finishReason: 'stop_sequence', stopSequence: '"END"'})],
		['an empty stop sequence', plain([{type: 'text', text: 'x'}], {stopSequence: ''})],
		['every usage field', plain([{type: 'text', text: 'x'}], {usage: {inputTokens: 2095, outputTokens: 503, cachedTokens: 1800, cacheCreationTokens: 200, reasoningTokens: 120}})],
		['cache counts above the input', plain([{type: 'text', text: 'x'}], {usage: {inputTokens: 5, outputTokens: 1, cachedTokens: 9}})],
		['reasoning, text and a tool call', {id: 'chatcmpl-abc', model: 'gpt-4.1', parts: [{type: 'reasoning', text: 'Thinking…', signature: {format: 'gemini', value: 'CiQB0e2Kb'}}, {type: 'text', text: 'Calling.'}, {type: 'tool_call', id: 'call_42', name: 'lookup', arguments: '{"q":"x"}'}], finishReason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}}],
		['a text with a signature', plain([{type: 'text', text: 'signed', signature: {format: 'gemini', value: 'c2ln'}}])],
		['an empty text with a signature', plain([{type: 'text', text: '', signature: {format: 'gemini', value: 'c2ln'}}, {type: 'text', text: 'x'}])],
		['a text with citations', plain([{type: 'text', text: 'cited', citations: [{url: 'https://example.com', title: 'Example', citedText: 'cited'}]}])],
	];
	for (const [name, response] of cases) {
		test(`writes exactly JSON.stringify(encodeResponse(…)), warnings included: ${name}`, t => {
			t.mock.timers.enable({apis: ['Date'], now: 1_795_728_898_123});
			const objectCtx = recordingContext();
			const textCtx = recordingContext();
			// A made-up id is random: each is checked for its form, the rest for equality.
			const madeUp = (text: string) => (response.id === '' ? text.replace(/^\{"id":"msg_[0-9a-f]{24}",/, '{"id":"msg_…",') : text);
			const expected = JSON.stringify(anthropicAdapter.encodeResponse(response, {model: 'client "model"'}, objectCtx));
			const text = anthropicAdapter.encodeResponseText!(response, {model: 'client "model"'}, textCtx);
			assert.equal(madeUp(text), madeUp(expected));
			if (response.id === '') assert.notEqual(madeUp(text), text, 'a made-up id: msg_ and 24 hex digits');
			assert.deepEqual(textCtx.warnings, objectCtx.warnings);
		});
	}
});
