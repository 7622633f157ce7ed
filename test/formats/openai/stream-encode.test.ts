import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import type {IRStreamEvent} from '../../../source/base/ir.js';
import {openaiAdapter} from '../../../source/formats/openai/index.js';
import {collect, events, framePayloads, testContext, type TestContext} from './helpers.js';

const textEvents: IRStreamEvent[] = [
	{type: 'start', id: 'msg_01', model: 'claude-sonnet-4-6'},
	{type: 'block-start', index: 0, block: {kind: 'text'}},
	{type: 'text-delta', index: 0, text: 'Hel'},
	{type: 'text-delta', index: 0, text: 'lo'},
	{type: 'block-end', index: 0},
	{type: 'finish', reason: 'stop', usage: {inputTokens: 12, outputTokens: 2, cachedTokens: 8}},
];

/** The SSE frames written, one per element (the frames of one event leave the encoder as one piece). */
async function encode(items: readonly IRStreamEvent[], includeUsage: boolean, ctx: TestContext = testContext()): Promise<string[]> {
	const text = (await collect(openaiAdapter.encodeStream(events(items), {model: 'my-alias', includeUsage, sse: true}, ctx))).join('');
	return text.split(/(?<=\n\n)/);
}

/** The frames with the per-stream `created` timestamp zeroed, for exact comparison. */
function normalized(frames: readonly string[]): string[] {
	return frames.map(frame => frame.replace(/"created":\d+/, '"created":0'));
}

describe('openai encodeStream', () => {
	it('writes the exact frames of a text stream, with the usage chunk when the client asked for it', async () => {
		const head = '{"id":"chatcmpl-msg_01","object":"chat.completion.chunk","created":0,"model":"my-alias","choices":';
		assert.deepEqual(normalized(await encode(textEvents, true)), [
			`data: ${head}[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`,
			`data: ${head}[{"index":0,"delta":{"content":"Hel"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`,
			`data: ${head}[{"index":0,"delta":{"content":"lo"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`,
			`data: ${head}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}\n\n`,
			`data: ${head}[],"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14,"prompt_tokens_details":{"cached_tokens":8,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}\n\n`,
			'data: [DONE]\n\n',
		]);
	});

	it('writes a text delta as JSON.stringify would, whatever the text holds', async () => {
		const awkward = 'a "quote", a \\ backslash,\na line break, \u2028, é, 🙂 and </script>';
		const frames = normalized(await encode([{type: 'start', id: 'msg_01', model: 'm'}, {type: 'block-start', index: 0, block: {kind: 'text'}}, {type: 'text-delta', index: 0, text: awkward}, {type: 'block-end', index: 0}, {type: 'finish', reason: 'stop', usage: {inputTokens: 1, outputTokens: 1}}], false));
		const chunk = {id: 'chatcmpl-msg_01', object: 'chat.completion.chunk', created: 0, model: 'my-alias', choices: [{index: 0, delta: {content: awkward}, logprobs: null, finish_reason: null}]};
		assert.equal(frames[1], `data: ${JSON.stringify(chunk)}\n\n`);
	});

	it('puts nothing extra when the client did not ask for usage', async () => {
		const payloads = framePayloads(await encode(textEvents, false));
		assert.equal(payloads.length, 5);
		assert.equal(payloads.at(-1), '[DONE]');
		for (const payload of payloads.slice(0, -1)) {
			assert.ok(typeof payload === 'object' && payload !== null && !('usage' in payload));
			assert.equal((payload as {choices: unknown[]}).choices.length, 1);
		}
	});

	it('frames a tool call: index, id, type, name and "" first, then index + argument pieces only', async () => {
		const payloads = framePayloads(
			await encode(
				[
					{type: 'start', id: 'msg_02', model: 'm'},
					{type: 'block-start', index: 0, block: {kind: 'text'}},
					{type: 'text-delta', index: 0, text: 'Let me check.'},
					{type: 'block-end', index: 0},
					{type: 'block-start', index: 1, block: {kind: 'tool_call', id: 'toolu_01', name: 'get_weather'}},
					{type: 'tool-args-delta', index: 1, json: ''},
					{type: 'tool-args-delta', index: 1, json: '{"loc'},
					{type: 'tool-args-delta', index: 1, json: 'ation":'},
					{type: 'tool-args-delta', index: 1, json: '"Paris"}'},
					{type: 'block-end', index: 1},
					{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}},
				],
				false,
			),
		) as Array<{choices: Array<{delta: Record<string, unknown>; finish_reason: string | null}>}>;
		const deltas = payloads.slice(0, -1).map(payload => payload.choices[0].delta);
		assert.deepEqual(deltas.slice(2), [
			{tool_calls: [{index: 0, id: 'toolu_01', type: 'function', function: {name: 'get_weather', arguments: ''}}]},
			{tool_calls: [{index: 0, function: {arguments: '{"loc'}}]},
			{tool_calls: [{index: 0, function: {arguments: 'ation":'}}]},
			{tool_calls: [{index: 0, function: {arguments: '"Paris"}'}}]},
			{},
		]);
		assert.equal(payloads.at(-2)?.choices[0].finish_reason, 'tool_calls');
	});

	it('numbers parallel tool calls 0, 1 and keeps a truncated call as length', async () => {
		const payloads = framePayloads(
			await encode(
				[
					{type: 'start', id: 'r', model: 'm'},
					{type: 'block-start', index: 0, block: {kind: 'tool_call', id: 'call_a', name: 'a'}},
					{type: 'tool-args-delta', index: 0, json: '{}'},
					{type: 'block-end', index: 0},
					{type: 'block-start', index: 1, block: {kind: 'tool_call', id: 'call_b', name: 'b'}},
					{type: 'tool-args-delta', index: 1, json: '{"x":'},
					{type: 'block-end', index: 1},
					{type: 'finish', reason: 'length', usage: {inputTokens: 1, outputTokens: 1}},
				],
				false,
			),
		) as Array<{choices: Array<{delta: {tool_calls?: Array<{index: number; id?: string}>}; finish_reason: string | null}>}>;
		const calls = payloads.flatMap(payload => (payload === undefined || typeof payload !== 'object' ? [] : payload.choices[0].delta.tool_calls ?? []));
		assert.deepEqual(calls.map(call => [call.index, call.id]), [[0, 'call_a'], [0, undefined], [1, 'call_b'], [1, undefined]]);
		assert.equal(payloads.at(-2)?.choices[0].finish_reason, 'length');
	});

	it('streams reasoning as reasoning_content deltas and remembers tool-call signatures', async () => {
		const ctx = testContext();
		const payloads = framePayloads(
			await encode(
				[
					{type: 'start', id: 'r', model: 'm'},
					{type: 'block-start', index: 0, block: {kind: 'reasoning'}},
					{type: 'reasoning-delta', index: 0, text: 'Thinking'},
					{type: 'signature', index: 0, signature: {format: 'anthropic', value: 'EqoB'}},
					{type: 'block-end', index: 0},
					{type: 'block-start', index: 1, block: {kind: 'tool_call', id: 'call_sig', name: 'f'}},
					{type: 'tool-args-delta', index: 1, json: '{}'},
					{type: 'signature', index: 1, signature: {format: 'gemini', value: 'CiQB'}},
					{type: 'block-end', index: 1},
					{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}},
				],
				false,
				ctx,
			),
		) as Array<{choices: Array<{delta: Record<string, unknown>}>}>;
		assert.deepEqual(payloads[1].choices[0].delta, {reasoning_content: 'Thinking'});
		assert.deepEqual(ctx.signatures.recall('call_sig'), {format: 'gemini', value: 'CiQB'});
		assert.deepEqual(ctx.warnings, ['Dropped a anthropic reasoning signature: OpenAI chat completions has no field for it.']);
	});

	it('renders a mid-stream error as a data frame with an error object, then [DONE]', async () => {
		const frames = await encode(
			[
				{type: 'start', id: 'r', model: 'm'},
				{type: 'block-start', index: 0, block: {kind: 'text'}},
				{type: 'text-delta', index: 0, text: 'Hi'},
				{type: 'error', error: {kind: 'overloaded', status: 529, message: 'Overloaded'}},
				{type: 'text-delta', index: 0, text: 'never written'},
			],
			true,
		);
		assert.deepEqual(frames.slice(-2), [
			'data: {"error":{"message":"Overloaded","type":"server_error","param":null,"code":null}}\n\n',
			'data: [DONE]\n\n',
		]);
		assert.ok(!frames.join('').includes('never written'));
	});

	it('reports an IR stream that ends without finish as an error, never as a clean end', async () => {
		const frames = await encode(textEvents.slice(0, 3), false);
		assert.match(frames.at(-2) ?? '', /"error":\{"message":"The upstream stream ended before the answer was complete\."/);
	});

	it('writes each text delta as it arrives (no buffering)', async () => {
		const seen: string[] = [];
		async function* slow(): AsyncGenerator<IRStreamEvent> {
			yield {type: 'start', id: 'r', model: 'm'};
			yield {type: 'block-start', index: 0, block: {kind: 'text'}};
			yield {type: 'text-delta', index: 0, text: 'first'};
			// The frame for "first" must be out before the next event is even produced.
			assert.ok(seen.some(frame => frame.includes('"first"')));
			yield {type: 'finish', reason: 'stop', usage: {inputTokens: 0, outputTokens: 0}};
		}
		for await (const frame of openaiAdapter.encodeStream(slow(), {model: 'm', includeUsage: false, sse: true}, testContext())) seen.push(frame);
		assert.ok(seen.at(-1)?.endsWith('data: [DONE]\n\n'));
	});
});
