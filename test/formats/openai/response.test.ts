import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {GatewayError} from '../../../source/base/errors.js';
import type {IRResponse} from '../../../source/base/ir.js';
import {openaiAdapter} from '../../../source/formats/openai/index.js';
import {fixture, testContext} from './helpers.js';

const decode = (body: unknown) => openaiAdapter.decodeResponse(body, testContext());

describe('openai decodeResponse', () => {
	it('decodes a text answer', () => {
		assert.deepEqual(decode(fixture('text')), {
			id: 'chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU',
			model: 'gpt-4.1-nano-2025-04-14',
			parts: [{type: 'text', text: '**Holiday Name:** Galaxy Day  \n\n**Date:** October 31st.'}],
			finishReason: 'stop',
			usage: {inputTokens: 16, outputTokens: 363},
		});
	});

	it('decodes a tool call', () => {
		const ir = decode(fixture('tool-call'));
		assert.deepEqual(ir.parts, [{type: 'tool_call', id: 'call_O17Uplv4lJvD6DVdIvFFeRMw', name: 'test-tool', arguments: '{"value":"Spark"}'}]);
		assert.equal(ir.finishReason, 'tool_calls');
	});

	it('decodes parallel tool calls in order', () => {
		const ir = decode(fixture('parallel-tool-calls'));
		assert.deepEqual(
			ir.parts.map(part => (part.type === 'tool_call' ? [part.id, part.arguments] : part.type)),
			[
				['call_12345xyz', '{"location":"Paris, France"}'],
				['call_67890abc', '{"location":"Bogotá, Colombia"}'],
			],
		);
	});

	it('decodes DeepSeek reasoning_content and its usage fields', () => {
		const ir = decode(fixture('thinking'));
		assert.deepEqual(ir.parts, [
			{type: 'reasoning', text: 'Okay, the user asks which is larger: 9.11 or 9.8.'},
			{type: 'text', text: '9.8 is larger.'},
		]);
		assert.deepEqual(ir.usage, {inputTokens: 13, outputTokens: 228, reasoningTokens: 214});
	});

	it('keeps OpenAI usage inclusive: cached tokens are part of the prompt, reasoning part of the completion', () => {
		assert.deepEqual(decode(fixture('usage-cached')).usage, {inputTokens: 2006, outputTokens: 300, cachedTokens: 1920, reasoningTokens: 192});
	});

	it('reads DeepSeek prompt_cache_hit_tokens as cached tokens', () => {
		const body = {choices: [{message: {content: 'x'}, finish_reason: 'stop'}], usage: {prompt_tokens: 100, completion_tokens: 5, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36}};
		assert.deepEqual(decode(body).usage, {inputTokens: 100, outputTokens: 5, cachedTokens: 64});
	});

	it('keeps a truncated tool call as length, and a refusal as refusal', () => {
		const truncated = {choices: [{message: {content: null, tool_calls: [{id: 'c', type: 'function', function: {name: 'f', arguments: '{"a":'}}]}, finish_reason: 'length'}]};
		assert.equal(decode(truncated).finishReason, 'length');
		const refusal = {choices: [{message: {content: null, refusal: "I'm sorry, I can't help with that."}, finish_reason: 'stop'}]};
		assert.deepEqual(decode(refusal).parts, [{type: 'text', text: "I'm sorry, I can't help with that."}]);
		assert.equal(decode(refusal).finishReason, 'refusal');
	});

	it('throws the upstream error when a 200 answer carries an error object', () => {
		assert.throws(
			() => decode({error: {message: 'Upstream overloaded', type: 'server_error', code: null}}),
			(error: unknown) => error instanceof GatewayError && error.message === 'Upstream overloaded' && error.kind === 'upstream',
		);
		assert.throws(() => decode({choices: []}), (error: unknown) => error instanceof GatewayError && error.status === 502);
	});
});

const answer: IRResponse = {
	id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
	model: 'claude-sonnet-4-6',
	parts: [
		{type: 'reasoning', text: 'Let me look it up.', signature: {format: 'anthropic', value: 'EqQBCgIYAhIM'}},
		{type: 'text', text: 'Checking the weather.'},
		{type: 'tool_call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"Paris"}'},
	],
	finishReason: 'tool_calls',
	usage: {inputTokens: 2095, outputTokens: 503, cachedTokens: 1800, cacheCreationTokens: 200, reasoningTokens: 120},
};

describe('openai encodeResponse', () => {
	it('encodes an answer in the exact shape of the real API, under the client-facing model name', () => {
		const ctx = testContext();
		const body = openaiAdapter.encodeResponse(answer, {model: 'my-alias'}, ctx) as Record<string, unknown>;
		assert.equal(typeof body.created, 'number');
		assert.deepEqual({...body, created: 0}, {
			id: 'chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL',
			object: 'chat.completion',
			created: 0,
			model: 'my-alias',
			choices: [
				{
					index: 0,
					message: {
						role: 'assistant',
						content: 'Checking the weather.',
						reasoning_content: 'Let me look it up.',
						refusal: null,
						tool_calls: [{id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: {name: 'get_weather', arguments: '{"location":"Paris"}'}}],
					},
					logprobs: null,
					finish_reason: 'tool_calls',
				},
			],
			usage: {
				prompt_tokens: 2095,
				completion_tokens: 503,
				total_tokens: 2598,
				prompt_tokens_details: {cached_tokens: 1800, audio_tokens: 0, cache_write_tokens: 200},
				completion_tokens_details: {reasoning_tokens: 120, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0},
			},
		});
		assert.deepEqual(ctx.warnings, ['Dropped a anthropic reasoning signature: OpenAI chat completions has no field for it.']);
	});

	it('answers content null for tool calls only, and tool_calls even when the upstream said stop (Gemini)', () => {
		const body = openaiAdapter.encodeResponse(
			{...answer, parts: [answer.parts[2]], finishReason: 'stop'},
			{model: 'm'},
			testContext(),
		) as {choices: Array<{message: {content: unknown}; finish_reason: string}>};
		assert.equal(body.choices[0].message.content, null);
		assert.equal(body.choices[0].finish_reason, 'tool_calls');
	});

	it('maps every finish reason to one of the four OpenAI ones', () => {
		const reasonOf = (finishReason: IRResponse['finishReason']) =>
			(openaiAdapter.encodeResponse({...answer, parts: [answer.parts[1]], finishReason}, {model: 'm'}, testContext()) as {
				choices: Array<{finish_reason: string}>;
			}).choices[0].finish_reason;
		assert.equal(reasonOf('stop'), 'stop');
		assert.equal(reasonOf('stop_sequence'), 'stop');
		assert.equal(reasonOf('length'), 'length');
		assert.equal(reasonOf('content_filter'), 'content_filter');
		assert.equal(reasonOf('refusal'), 'content_filter');
		assert.equal(reasonOf('other'), 'stop');
	});

	it('remembers a foreign tool-call signature so the next request gets it back', () => {
		const gemini: IRResponse = {
			id: 'resp-1',
			model: 'gemini-2.5-pro',
			parts: [{type: 'tool_call', id: 'call_gem_1', name: 'f', arguments: '{}', signature: {format: 'gemini', value: 'CiQBjz1rX'}}],
			finishReason: 'tool_calls',
			usage: {inputTokens: 1, outputTokens: 1},
		};
		// One gateway, one signature memory: the context of both requests shares it.
		const ctx = testContext();
		openaiAdapter.encodeResponse(gemini, {model: 'm'}, ctx);
		const next = openaiAdapter.decodeRequest(
			{
				model: 'm',
				messages: [
					{role: 'user', content: 'go'},
					{role: 'assistant', content: null, tool_calls: [{id: 'call_gem_1', type: 'function', function: {name: 'f', arguments: '{}'}}]},
					{role: 'tool', tool_call_id: 'call_gem_1', content: 'done'},
				],
			},
			{},
			ctx,
		);
		assert.deepEqual(next.messages[1].parts[0], {type: 'tool_call', id: 'call_gem_1', name: 'f', arguments: '{}', signature: {format: 'gemini', value: 'CiQBjz1rX'}});
	});

	it('round-trips: decode(encode(x)) equals x for what OpenAI can carry', () => {
		const ir: IRResponse = {
			id: 'chatcmpl-abc',
			model: 'client-model',
			parts: [
				{type: 'reasoning', text: 'hmm'},
				{type: 'text', text: 'Hello'},
				{type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"x":1}'},
			],
			finishReason: 'tool_calls',
			usage: {inputTokens: 10, outputTokens: 20, cachedTokens: 4, reasoningTokens: 5},
		};
		assert.deepEqual(decode(openaiAdapter.encodeResponse(ir, {model: 'client-model'}, testContext())), ir);
	});
});

describe('openai encodeResponseText', () => {
	const awkward = 'Quotes " and \\ backslashes, a line\nbreak, a tab\t, \u0000 a NUL, \u2028 a line separator, an emoji 😀, a lone surrogate \ud800, </script>';
	const responses: Array<[string, IRResponse]> = [
		['plain text', {id: 'msg_1', model: 'm', parts: [{type: 'text', text: 'Hello.'}], finishReason: 'stop', usage: {inputTokens: 12, outputTokens: 8}}],
		['awkward text in two parts', {id: 'msg_"2"', model: 'm', parts: [{type: 'text', text: awkward}, {type: 'text', text: ' and more'}], finishReason: 'length', usage: {inputTokens: 0, outputTokens: 0}}],
		['an empty text', {id: 'msg_3', model: 'm', parts: [{type: 'text', text: ''}], finishReason: 'stop', usage: {inputTokens: 1, outputTokens: 0}}],
		['no parts at all', {id: 'msg_4', model: 'm', parts: [], finishReason: 'content_filter', usage: {inputTokens: 1, outputTokens: 0}}],
		['every usage field', {id: 'msg_5', model: 'm', parts: [{type: 'text', text: 'x'}], finishReason: 'stop_sequence', usage: {inputTokens: 2095, outputTokens: 503, cachedTokens: 1800, cacheCreationTokens: 200, reasoningTokens: 120}}],
		['reasoning, text and a tool call', answer],
		['a tool call only', {...answer, parts: [answer.parts[2]], finishReason: 'stop'}],
		['a text with a signature', {...answer, parts: [{type: 'text', text: 'signed', signature: {format: 'gemini', value: 'c2ln'}}], finishReason: 'stop'}],
		[
			'a text with citations',
			{...answer, parts: [{type: 'text', text: 'cited', citations: [{url: 'https://example.com', title: 'Example', citedText: 'cited'}]}], finishReason: 'stop'},
		],
	];
	for (const [name, response] of responses) {
		it(`writes exactly JSON.stringify(encodeResponse(…)), warnings included: ${name}`, t => {
			t.mock.timers.enable({apis: ['Date'], now: 1_795_728_898_123});
			const objectCtx = testContext();
			const textCtx = testContext();
			const expected = JSON.stringify(openaiAdapter.encodeResponse(response, {model: 'client "model"'}, objectCtx));
			assert.equal(openaiAdapter.encodeResponseText!(response, {model: 'client "model"'}, textCtx), expected);
			assert.deepEqual(textCtx.warnings, objectCtx.warnings);
		});
	}
});
