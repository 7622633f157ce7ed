/**
 * The strongest proof: what the gateway writes is read by the official `openai` SDK, served from a
 * local HTTP server exactly as the proxy would send it.
 */
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import {after, before, describe, it} from 'node:test';
import OpenAI, {APIError} from 'openai';
import type {IRStreamEvent, JsonValue} from '../../../source/base/ir.js';
import {openaiAdapter} from '../../../source/formats/openai/index.js';
import {chunkLines, collect, events, fixture, sseMessages, testContext} from './helpers.js';

/** What the next request gets: SSE frames, or a JSON body. */
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
	const {port} = server.address() as AddressInfo;
	client = new OpenAI({baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'gtui-test', maxRetries: 0});
});

after(() => new Promise<void>(resolve => server.close(() => resolve())));

const encodeFrames = (items: AsyncIterable<IRStreamEvent>, includeUsage: boolean) =>
	collect(openaiAdapter.encodeStream(items, {model: 'my-alias', includeUsage, sse: true}, testContext()));

describe('the openai SDK reads what the gateway writes', () => {
	it('assembles parallel tool calls and usage with ChatCompletionStream', async () => {
		// Upstream chunks → IR → client frames: the whole streaming path of the adapter.
		const ir = openaiAdapter.decodeStream(sseMessages(chunkLines('parallel-tool-calls')), testContext());
		next = {frames: await encodeFrames(ir, true)};
		const stream = client.chat.completions.stream({model: 'my-alias', messages: [{role: 'user', content: 'weather?'}], stream_options: {include_usage: true}});
		const completion = await stream.finalChatCompletion();
		assert.equal(completion.model, 'my-alias');
		assert.equal(completion.choices[0].finish_reason, 'tool_calls');
		assert.deepEqual(
			completion.choices[0].message.tool_calls?.map(call => (call.type === 'function' ? [call.id, call.function.name, JSON.parse(call.function.arguments)] : [])),
			[
				['call_12345xyz', 'get_weather', {location: 'Paris, France'}],
				['call_67890abc', 'get_weather', {location: 'Bogotá, Colombia'}],
			],
		);
		assert.equal(completion.usage?.prompt_tokens, 82);
		assert.equal(completion.usage?.total_tokens, 131);
	});

	it('streams text chunk by chunk and passes reasoning_content through', async () => {
		const ir = openaiAdapter.decodeStream(sseMessages(chunkLines('thinking')), testContext());
		next = {frames: await encodeFrames(ir, false)};
		const stream = await client.chat.completions.create({model: 'my-alias', messages: [{role: 'user', content: '9.11 or 9.8?'}], stream: true});
		const text: string[] = [];
		const reasoning: string[] = [];
		let finish: string | null = null;
		for await (const chunk of stream) {
			assert.equal(chunk.usage, undefined);
			const choice = chunk.choices[0];
			if (choice.delta.content) text.push(choice.delta.content);
			const extra = choice.delta as {reasoning_content?: string};
			if (extra.reasoning_content) reasoning.push(extra.reasoning_content);
			finish = choice.finish_reason ?? finish;
		}
		assert.deepEqual(text, ['9.8', ' is larger.']);
		assert.equal(reasoning.join(''), 'Okay, the user asks which is larger: 9.11 or 9.8.');
		assert.equal(finish, 'stop');
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
				true,
			),
		};
		const stream = await client.chat.completions.create({model: 'm', messages: [{role: 'user', content: 'hi'}], stream: true});
		const seen: string[] = [];
		await assert.rejects(
			(async () => {
				for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
			})(),
			(error: unknown) => error instanceof APIError && error.message.includes('Overloaded, try again later.'),
		);
		assert.ok(seen.includes('Hel'));
	});

	it('reads a non-streaming answer', async () => {
		const ir = openaiAdapter.decodeResponse(fixture('usage-cached'), testContext());
		next = {json: openaiAdapter.encodeResponse(ir, {model: 'my-alias'}, testContext())};
		const completion = await client.chat.completions.create({model: 'my-alias', messages: [{role: 'user', content: 'hi'}]});
		assert.equal(completion.object, 'chat.completion');
		assert.match(completion.id, /^chatcmpl-/);
		assert.equal(completion.choices[0].message.content, 'Done.');
		assert.equal(completion.usage?.prompt_tokens_details?.cached_tokens, 1920);
		assert.equal(completion.usage?.completion_tokens_details?.reasoning_tokens, 192);
	});
});
