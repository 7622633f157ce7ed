import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {ApiError, GoogleGenAI} from '@google/genai';
import {geminiAdapter} from '../../../source/formats/gemini/index.js';
import type {IRStreamEvent, IRUsage} from '../../../source/base/ir.js';
import {channel, collect, loadChunks, replay, testContext} from './fixtures.js';
import {serve} from './serve.js';

const usage: IRUsage = {inputTokens: 30, outputTokens: 12, cachedTokens: 20, reasoningTokens: 4};

/** Text, then a tool call whose arguments arrive in pieces, then a parallel one: what an OpenAI or Anthropic upstream sends. */
const events: IRStreamEvent[] = [
	{type: 'start', id: 'chatcmpl-1', model: 'gpt-4o'},
	{type: 'block-start', index: 0, block: {kind: 'text'}},
	{type: 'text-delta', index: 0, text: 'Checking '},
	{type: 'text-delta', index: 0, text: 'both.'},
	{type: 'block-end', index: 0},
	{type: 'block-start', index: 1, block: {kind: 'tool_call', id: 'call_p', name: 'get_weather'}},
	{type: 'block-start', index: 2, block: {kind: 'tool_call', id: 'call_t', name: 'get_weather'}},
	{type: 'tool-args-delta', index: 1, json: '{"ci'},
	{type: 'tool-args-delta', index: 2, json: '{"city":'},
	{type: 'tool-args-delta', index: 1, json: 'ty": "Par'},
	{type: 'tool-args-delta', index: 1, json: 'is"}'},
	{type: 'block-end', index: 1},
	{type: 'tool-args-delta', index: 2, json: '"Tokyo"}'},
	{type: 'block-end', index: 2},
	{type: 'usage', usage: {inputTokens: 30}},
	{type: 'finish', reason: 'tool_calls', usage},
];

const encode = (input: IRStreamEvent[], sse = true) =>
	collect(geminiAdapter.encodeStream(replay(input), {model: 'gemini-alias', includeUsage: false, sse}, testContext()));

describe('gemini encodeStream', () => {
	it("writes each piece's frame as JSON.stringify would, escapes, thoughts and a response id that changes included", async () => {
		const awkward = 'a "quote", a \\ backslash,\na line break, \u2028, é, 🙂 and </script>';
		const frames = await encode([
			{type: 'start', id: 'resp-1', model: 'm'},
			{type: 'block-start', index: 0, block: {kind: 'reasoning'}},
			{type: 'reasoning-delta', index: 0, text: 'thinking'},
			{type: 'block-end', index: 0},
			{type: 'block-start', index: 1, block: {kind: 'text'}},
			{type: 'text-delta', index: 1, text: awkward},
			{type: 'start', id: 'resp-"2"', model: 'm'},
			{type: 'text-delta', index: 1, text: 'after'},
			{type: 'block-end', index: 1},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 1, outputTokens: 2}},
		]);
		const piece = (part: object, responseId: string) => `data: ${JSON.stringify({candidates: [{content: {parts: [part], role: 'model'}, index: 0}], modelVersion: 'gemini-alias', responseId})}\r\n\r\n`;
		assert.deepEqual(frames.slice(0, 3), [piece({text: 'thinking', thought: true}, 'resp-1'), piece({text: awkward}, 'resp-1'), piece({text: 'after'}, 'resp-"2"')]);
	});

	it('writes each text delta as its own frame and each tool call whole, once its block ends', async () => {
		const frames = await encode(events);
		assert.equal(frames.length, 5);
		for (const frame of frames) assert.match(frame, /^data: \{.*\}\r\n\r\n$/s);
		const bodies = frames.map(frame => JSON.parse(frame.slice('data: '.length)));
		assert.deepEqual(bodies[0], {candidates: [{content: {parts: [{text: 'Checking '}], role: 'model'}, index: 0}], modelVersion: 'gemini-alias', responseId: 'chatcmpl-1'});
		assert.deepEqual(bodies[2].candidates[0].content.parts, [{functionCall: {id: 'call_p', name: 'get_weather', args: {city: 'Paris'}}}]);
		assert.deepEqual(bodies[3].candidates[0].content.parts, [{functionCall: {id: 'call_t', name: 'get_weather', args: {city: 'Tokyo'}}}]);
		assert.deepEqual(bodies[4], {
			candidates: [{content: {parts: [{text: ''}], role: 'model'}, finishReason: 'STOP', index: 0}],
			usageMetadata: {promptTokenCount: 30, candidatesTokenCount: 8, totalTokenCount: 42, cachedContentTokenCount: 20, thoughtsTokenCount: 4},
			modelVersion: 'gemini-alias',
			responseId: 'chatcmpl-1',
		});
	});

	it('streams a JSON array when the client did not ask for alt=sse', async () => {
		const chunks = await encode(events, false);
		assert.equal(chunks[0].startsWith('[{'), true);
		assert.equal(chunks[1].startsWith(',\r\n{'), true);
		assert.ok(chunks.at(-1)?.endsWith('}]'), 'the closing bracket goes out with the last element');
		const array = JSON.parse(chunks.join(''));
		assert.equal(array.length, 5);
		assert.equal(array[4].candidates[0].finishReason, 'STOP');
	});

	it('puts signatures in thoughtSignature: wrapped when foreign, on the function call for tool blocks', async () => {
		const signed: IRStreamEvent[] = [
			{type: 'start', id: 'msg_1', model: 'claude'},
			{type: 'block-start', index: 0, block: {kind: 'reasoning'}},
			{type: 'reasoning-delta', index: 0, text: 'Hmm.'},
			{type: 'signature', index: 0, signature: {format: 'anthropic', value: 'EqQB'}},
			{type: 'block-end', index: 0},
			{type: 'block-start', index: 1, block: {kind: 'tool_call', id: 'call_g', name: 'f'}},
			{type: 'tool-args-delta', index: 1, json: '{}'},
			{type: 'signature', index: 1, signature: {format: 'gemini', value: 'CiQB'}},
			{type: 'block-end', index: 1},
			{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}},
		];
		const parts = (await encode(signed)).map(frame => JSON.parse(frame.slice(6)).candidates[0].content.parts[0]);
		assert.deepEqual(parts.slice(0, 3), [
			{text: 'Hmm.', thought: true},
			{text: '', thought: true, thoughtSignature: 'gtui1.anthropic.EqQB'},
			{functionCall: {id: 'call_g', name: 'f', args: {}}, thoughtSignature: 'CiQB'},
		]);
	});

	it('ends with an error frame on a mid-stream error', async () => {
		const failing: IRStreamEvent[] = [
			...events.slice(0, 3),
			{type: 'error', error: {kind: 'overloaded', status: 529, message: 'Overloaded'}},
		];
		const frames = await encode(failing);
		assert.equal(frames.at(-1), 'data: {"error":{"code":529,"message":"Overloaded","status":"UNAVAILABLE"}}\r\n\r\n');
		assert.equal(JSON.parse((await encode(failing, false)).join('')).at(-1).error.status, 'UNAVAILABLE');
	});

	it('round-trips a Gemini stream: decode then encode gives back the same parts', async () => {
		const decoded = await collect(geminiAdapter.decodeStream(replay(loadChunks('parallel-tool-calls')), testContext()));
		const frames = await encode(decoded);
		const parts = frames.flatMap(frame => JSON.parse(frame.slice(6)).candidates[0].content.parts);
		assert.deepEqual(parts.slice(0, 2).map(part => [part.functionCall.args, part.thoughtSignature]), [
			[{city: 'Paris'}, 'CiMBjz1rX25KieIB4d4AwFn8/WbsHTRNHBXso88PtemwfsSfRAp6AY89a1/e2FrmrE2HtlOxvV7vy8Kn5Og9n6Cepc'],
			[{city: 'Tokyo'}, undefined],
		]);
	});
});

describe('gemini encodeStream without buffering', () => {
	it('writes a text delta before the next event exists', async () => {
		const input = channel<IRStreamEvent>();
		const frames = geminiAdapter.encodeStream(input, {model: 'm', includeUsage: false, sse: true}, testContext())[Symbol.asyncIterator]();
		for (const event of events.slice(0, 3)) input.push(event);
		const first = await frames.next();
		assert.match(String(first.value), /"text":"Checking "/);
		input.close();
		assert.equal((await frames.next()).done, true);
	});
});

describe('gemini encodeStream read by @google/genai', () => {
	const client = (url: string) => new GoogleGenAI({apiKey: 'test', httpOptions: {baseUrl: url}});

	it('yields the text, the function calls and the final usage', async () => {
		const frames = await encode(events);
		await using server = await serve(() => ({contentType: 'text/event-stream', chunks: frames}));
		const stream = await client(server.url).models.generateContentStream({model: 'gemini-alias', contents: 'Weather?'});
		let text = '';
		const calls: unknown[] = [];
		let last;
		for await (const chunk of stream) {
			text += chunk.text ?? '';
			calls.push(...(chunk.functionCalls ?? []));
			last = chunk;
		}
		assert.equal(text, 'Checking both.');
		assert.deepEqual(calls, [
			{id: 'call_p', name: 'get_weather', args: {city: 'Paris'}},
			{id: 'call_t', name: 'get_weather', args: {city: 'Tokyo'}},
		]);
		assert.equal(last?.candidates?.[0]?.finishReason, 'STOP');
		assert.equal(last?.usageMetadata?.totalTokenCount, 42);
		assert.equal(server.requests[0].url, '/v1beta/models/gemini-alias:streamGenerateContent?alt=sse');
	});

	it('throws an ApiError for the mid-stream error frame, after the text before it', async () => {
		const frames = await encode([...events.slice(0, 3), {type: 'error', error: {kind: 'rate_limit', status: 429, message: 'Slow down'}}]);
		await using server = await serve(() => ({contentType: 'text/event-stream', chunks: frames}));
		const stream = await client(server.url).models.generateContentStream({model: 'gemini-alias', contents: 'Hi'});
		let text = '';
		await assert.rejects(
			(async () => {
				for await (const chunk of stream) text += chunk.text ?? '';
			})(),
			(error: unknown) => error instanceof ApiError && error.status === 429 && /Slow down/.test(error.message),
		);
		assert.equal(text, 'Checking ');
	});
});
