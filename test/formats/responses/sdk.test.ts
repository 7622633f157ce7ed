/**
 * The strongest proof: what the gateway writes is read by the official `openai` SDK, served from a
 * local HTTP server exactly as the proxy would send it. The streamed events must tell the same story
 * as the final Response object: the SDK's own accumulator, fed every event before
 * `response.completed`, must arrive at the same output.
 */
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {after, before, describe, it} from 'node:test';
import OpenAI, {APIError} from 'openai';
import {accumulateResponse} from 'openai/lib/responses/ResponseAccumulator';
import type {Response, ResponseStreamEvent} from 'openai/resources/responses/responses';
import type {IRStreamEvent, JsonValue} from '../../../source/base/ir.js';
import {anthropicAdapter} from '../../../source/formats/anthropic/index.js';
import {responsesAdapter} from '../../../source/formats/responses/index.js';
import {collect, events, testContext} from './helpers.js';

let next: {frames?: string[]; json?: JsonValue} = {};
let server: Server;
let client: OpenAI;

before(async () => {
	server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			if (next.frames) {
				response.writeHead(200, {'content-type': 'text/event-stream'});
				for (const frame of next.frames) response.write(frame);
				response.end();
			} else {
				response.writeHead(200, {'content-type': 'application/json'});
				response.end(JSON.stringify(next.json));
			}
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	client = new OpenAI({baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'gtui-test', maxRetries: 0});
});

after(() => new Promise<void>(resolve => server.close(() => resolve())));

const request = {model: 'my-alias', input: 'weather?', tools: [{type: 'function' as const, name: 'get_weather', parameters: {type: 'object', properties: {city: {type: 'string'}}}, strict: false}]};

const encodeFrames = (items: AsyncIterable<IRStreamEvent>) => collect(responsesAdapter.encodeStream(items, {model: 'my-alias', includeUsage: false, sse: true, request}, testContext()));

/** Anthropic SSE lines → IR: a real upstream stream with thinking, text and a tool call. */
async function* anthropicStream(): AsyncGenerator<{event: string; data: string}> {
	const frames: Array<Record<string, unknown>> = [
		{type: 'message_start', message: {id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, usage: {input_tokens: 20, output_tokens: 1, cache_read_input_tokens: 30}}},
		{type: 'content_block_start', index: 0, content_block: {type: 'thinking', thinking: '', signature: ''}},
		{type: 'content_block_delta', index: 0, delta: {type: 'thinking_delta', thinking: 'Paris weather: '}},
		{type: 'content_block_delta', index: 0, delta: {type: 'thinking_delta', thinking: 'call the tool.'}},
		{type: 'content_block_delta', index: 0, delta: {type: 'signature_delta', signature: 'EqoBsig'}},
		{type: 'content_block_stop', index: 0},
		{type: 'content_block_start', index: 1, content_block: {type: 'text', text: ''}},
		{type: 'content_block_delta', index: 1, delta: {type: 'text_delta', text: 'Let me '}},
		{type: 'content_block_delta', index: 1, delta: {type: 'text_delta', text: 'check.'}},
		{type: 'content_block_stop', index: 1},
		{type: 'content_block_start', index: 2, content_block: {type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {}}},
		{type: 'content_block_delta', index: 2, delta: {type: 'input_json_delta', partial_json: '{"city":'}},
		{type: 'content_block_delta', index: 2, delta: {type: 'input_json_delta', partial_json: '"Paris"}'}},
		{type: 'content_block_stop', index: 2},
		{type: 'message_delta', delta: {stop_reason: 'tool_use', stop_sequence: null}, usage: {output_tokens: 42}},
		{type: 'message_stop'},
	];
	for (const frame of frames) yield {event: String(frame.type), data: JSON.stringify(frame)};
}

describe('the openai SDK reads what the gateway writes', () => {
	it('accumulates a streamed answer (reasoning, text, tool call) to exactly the final response, with usage', async () => {
		next = {frames: await encodeFrames(anthropicAdapter.decodeStream(anthropicStream(), testContext()))};
		const stream = client.responses.stream(request);
		const seen: ResponseStreamEvent[] = [];
		stream.on('event', event => seen.push(event));
		const final = await stream.finalResponse();
		const completed = seen.at(-1)!;
		assert.equal(completed.type, 'response.completed');
		let snapshot: Response | undefined;
		for (const event of seen.slice(0, -1)) snapshot = accumulateResponse(event, snapshot);
		assert.deepEqual(snapshot!.output, completed.type === 'response.completed' && completed.response.output);
		assert.equal(final.output_text, 'Let me check.');
		assert.deepEqual(
			final.output.map(item => item.type),
			['reasoning', 'message', 'function_call'],
		);
		const call = final.output[2]!;
		assert.ok(call.type === 'function_call');
		assert.deepEqual([call.call_id, call.name, JSON.parse(call.arguments)], ['toolu_01', 'get_weather', {city: 'Paris'}]);
		const reasoning = final.output[0]!;
		assert.ok(reasoning.type === 'reasoning');
		assert.deepEqual([reasoning.summary[0]?.text, reasoning.encrypted_content], ['Paris weather: call the tool.', 'gtui1.anthropic.EqoBsig']);
		assert.deepEqual([final.usage?.input_tokens, final.usage?.input_tokens_details.cached_tokens, final.usage?.output_tokens], [50, 30, 42]);
		assert.deepEqual(seen.map(event => event.sequence_number), seen.map((_, index) => index));
	});

	it('reads text deltas from responses.create({stream: true}) as they come', async () => {
		next = {
			frames: await encodeFrames(
				events([
					{type: 'start', id: 'r', model: 'm'},
					{type: 'block-start', index: 0, block: {kind: 'text'}},
					{type: 'text-delta', index: 0, text: 'Hel'},
					{type: 'text-delta', index: 0, text: 'lo'},
					{type: 'block-end', index: 0},
					{type: 'finish', reason: 'stop', usage: {inputTokens: 3, outputTokens: 2}},
				]),
			),
		};
		const deltas: string[] = [];
		let completed: Response | undefined;
		for await (const event of await client.responses.create({model: 'my-alias', input: 'hi', stream: true})) {
			if (event.type === 'response.output_text.delta') deltas.push(event.delta);
			if (event.type === 'response.completed') completed = event.response;
		}
		assert.deepEqual(deltas, ['Hel', 'lo']);
		assert.equal(completed?.status, 'completed');
		assert.equal(completed?.usage?.total_tokens, 5);
	});

	it('throws the upstream message as an APIError when a stream fails midway', async () => {
		next = {
			frames: await encodeFrames(
				events([
					{type: 'start', id: 'r', model: 'm'},
					{type: 'block-start', index: 0, block: {kind: 'text'}},
					{type: 'text-delta', index: 0, text: 'Hel'},
					{type: 'error', error: {kind: 'overloaded', status: 529, message: 'Overloaded, try again later.'}},
				]),
			),
		};
		await assert.rejects(client.responses.stream(request).finalResponse(), (error: unknown) => error instanceof APIError && error.message.includes('Overloaded, try again later.'));
	});

	it('reads a non-streaming answer, output_text included', async () => {
		next = {json: responsesAdapter.encodeResponse({id: 'msg_1', model: 'claude', parts: [{type: 'text', text: 'Done.'}], finishReason: 'stop', usage: {inputTokens: 2000, outputTokens: 200, cachedTokens: 1920, reasoningTokens: 192}}, {model: 'my-alias', request}, testContext())};
		const response = await client.responses.create(request);
		assert.equal(response.object, 'response');
		assert.equal(response.output_text, 'Done.');
		assert.equal(response.usage?.input_tokens_details.cached_tokens, 1920);
		assert.equal(response.usage?.output_tokens_details.reasoning_tokens, 192);
	});
});
