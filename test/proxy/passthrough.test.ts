/**
 * Same-format paths with the official SDKs as clients: each SDK talks through the gateway to a
 * strict fake provider of its own format, which records what it received.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, eventually, geminiClient, openaiClient} from '../helpers/sdks.js';
import type {KeyRecord} from '../../source/base/records.js';

let gateway: TestGateway;
let openai: FakeProvider;
let anthropic: FakeProvider;
let gemini: FakeProvider;
let key: KeyRecord;

before(async () => {
	[openai, anthropic, gemini] = await Promise.all([startFakeProvider('openai'), startFakeProvider('anthropic'), startFakeProvider('gemini')]);
	gateway = await startTestGateway();
	await gateway.addProvider(openai, {models: 'gpt-4o-mini,fast=gpt-4o'});
	await gateway.addProvider(anthropic);
	await gateway.addProvider(gemini);
	key = await gateway.createKey({name: 'sdk'});
});
after(async () => {
	await gateway.close();
	await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
});
beforeEach(() => {
	for (const provider of [openai, anthropic, gemini]) provider.reset();
	gateway.finished.length = 0;
});

/** The virtual key never goes upstream; the real key never comes back. */
function assertNoLeaks(provider: FakeProvider, clientSaw: string): void {
	for (const received of provider.received) assert.ok(!JSON.stringify(received).includes(key.secret), 'virtual key sent upstream');
	assert.ok(!clientSaw.includes(provider.apiKey), 'real key returned to the client');
	for (const event of gateway.finished) assert.ok(!JSON.stringify(event).includes(provider.apiKey) && !JSON.stringify(event).includes(key.secret));
}

test('openai SDK: text, with the alias mapped to the upstream model and the real key sent upstream', async () => {
	const client = openaiClient(gateway.url, key.secret);
	const answer = await client.chat.completions.create({model: 'fast', messages: [{role: 'user', content: 'Hi'}]});
	assert.equal(answer.choices[0]!.message.content, 'Hello from fake-openai');
	assert.equal(openai.received[0]!.headers.authorization, `Bearer ${openai.apiKey}`);
	assert.equal((openai.received[0]!.body as {model: string}).model, 'gpt-4o');
	await eventually(() => gateway.finished.length === 1, 2000, 'request:finished');
	const event = gateway.finished[0]!;
	assert.deepEqual([event.status, event.keyName, event.model, event.upstreamModel, event.inboundFormat, event.outboundFormat], [200, 'sdk', 'fast', 'gpt-4o', 'openai', 'openai']);
	assert.deepEqual(event.usage, {inputTokens: 11, outputTokens: 7});
	assertNoLeaks(openai, JSON.stringify(answer));
});

test('openai SDK: streaming; usage is asked upstream but the extra chunk reaches only clients that asked', async () => {
	const client = openaiClient(gateway.url, key.secret);
	openai.enqueue({text: 'one two three four', chunks: 4, usage: {input: 20, output: 4, cached: 8}});
	const stream = await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'count'}], stream: true});
	let text = '';
	let usageChunks = 0;
	for await (const chunk of stream) {
		text += chunk.choices[0]?.delta.content ?? '';
		if (chunk.usage) usageChunks++;
	}
	assert.equal(text, 'one two three four');
	assert.equal(usageChunks, 0, 'client did not ask for usage');
	assert.deepEqual((openai.received[0]!.body as {stream_options: unknown}).stream_options, {include_usage: true});
	await eventually(() => gateway.finished.length === 1);
	assert.deepEqual(gateway.finished[0]!.usage, {inputTokens: 20, outputTokens: 4, cachedTokens: 8});

	const asked = await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'count'}], stream: true, stream_options: {include_usage: true}});
	let usage: unknown = null;
	for await (const chunk of asked) if (chunk.usage) usage = chunk.usage;
	assert.equal((usage as {prompt_tokens: number}).prompt_tokens, 11);
});

test('openai SDK: a tool call round trip', async () => {
	const client = openaiClient(gateway.url, key.secret);
	openai.enqueue({toolCalls: [{id: 'call_1', name: 'get_weather', args: {city: 'Paris'}}]});
	const tools = [{type: 'function' as const, function: {name: 'get_weather', parameters: {type: 'object', properties: {city: {type: 'string'}}}}}];
	const first = await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'Weather?'}], tools});
	const call = first.choices[0]!.message.tool_calls![0]!;
	assert.equal(first.choices[0]!.finish_reason, 'tool_calls');
	assert.equal(call.type === 'function' && call.function.name, 'get_weather');
	openai.enqueue({text: 'Sunny in Paris.'});
	const second = await client.chat.completions.create({
		model: 'gpt-4o-mini',
		tools,
		messages: [
			{role: 'user', content: 'Weather?'},
			{role: 'assistant', content: first.choices[0]!.message.content, tool_calls: first.choices[0]!.message.tool_calls},
			{role: 'tool', tool_call_id: call.id, content: '{"sky":"clear"}'},
		],
	});
	assert.equal(second.choices[0]!.message.content, 'Sunny in Paris.');
});

test('openai SDK: models list', async () => {
	const models = await openaiClient(gateway.url, key.secret).models.list();
	const ids = models.data.map(model => model.id);
	assert.ok(ids.includes('fast') && ids.includes('gpt-4o-mini') && ids.includes('claude-haiku-4-5') && ids.includes('gemini-2.5-flash'));
	assert.ok(!ids.includes('gpt-4o'), 'an aliased upstream name is not a client-facing model');
});

test('anthropic SDK: text, streaming, headers forwarded, usage with caching', async () => {
	const client = anthropicClient(gateway.url, key.secret);
	const message = await client.messages.create({model: 'claude-haiku-4-5', max_tokens: 100, messages: [{role: 'user', content: 'Hi'}]}, {headers: {'anthropic-beta': 'interleaved-thinking-2025-05-14'}});
	assert.equal(message.content[0]!.type === 'text' && message.content[0]!.text, 'Hello from fake-anthropic');
	const received = anthropic.received[0]!;
	assert.equal(received.headers['x-api-key'], anthropic.apiKey);
	assert.equal(received.headers['anthropic-beta'], 'interleaved-thinking-2025-05-14');
	assert.equal(received.headers.authorization, undefined);

	anthropic.enqueue({text: 'streamed words here', chunks: 3, usage: {input: 100, output: 9, cached: 60}});
	const stream = client.messages.stream({model: 'claude-haiku-4-5', max_tokens: 100, messages: [{role: 'user', content: 'Hi'}]});
	const final = await stream.finalMessage();
	assert.equal(final.content[0]!.type === 'text' && final.content[0]!.text, 'streamed words here');
	await eventually(() => gateway.finished.length === 2);
	assert.deepEqual(gateway.finished[1]!.usage, {inputTokens: 100, outputTokens: 9, cachedTokens: 60});
	assertNoLeaks(anthropic, JSON.stringify(final));
});

test('anthropic SDK: a tool call round trip, count tokens and the models list (beta client, ?beta=true)', async () => {
	const client = anthropicClient(gateway.url, key.secret);
	anthropic.enqueue({toolCalls: [{id: 'toolu_1', name: 'lookup', args: {q: 'x'}}]});
	const tools = [{name: 'lookup', input_schema: {type: 'object' as const, properties: {q: {type: 'string'}}}}];
	const first = await client.messages.create({model: 'claude-haiku-4-5', max_tokens: 100, tools, messages: [{role: 'user', content: 'Look it up'}]});
	assert.equal(first.stop_reason, 'tool_use');
	const use = first.content.find(block => block.type === 'tool_use')!;
	assert.ok(use.type === 'tool_use');
	anthropic.enqueue({text: 'Found it.'});
	const second = await client.beta.messages.create({
		model: 'claude-haiku-4-5',
		max_tokens: 100,
		tools,
		messages: [
			{role: 'user', content: 'Look it up'},
			{role: 'assistant', content: first.content},
			{role: 'user', content: [{type: 'tool_result', tool_use_id: use.id, content: 'result'}]},
		],
	});
	assert.equal(second.content[0]!.type === 'text' && second.content[0]!.text, 'Found it.');
	assert.equal(anthropic.received[1]!.path, '/v1/messages');

	const count = await client.messages.countTokens({model: 'claude-haiku-4-5', messages: [{role: 'user', content: 'How many tokens?'}]});
	assert.ok(count.input_tokens > 0);
	assert.equal(anthropic.received[2]!.path, '/v1/messages/count_tokens');
	const models = await client.models.list();
	assert.ok(models.data.some(model => model.id === 'claude-haiku-4-5'));
});

test('gemini SDK: text, streaming, function call round trip, count tokens, models list', async () => {
	const client = geminiClient(gateway.url, key.secret);
	const answer = await client.models.generateContent({model: 'gemini-2.5-flash', contents: 'Hi'});
	assert.equal(answer.text, 'Hello from fake-gemini');
	assert.equal(gemini.received[0]!.headers['x-goog-api-key'], gemini.apiKey);

	gemini.enqueue({text: 'a streamed reply', chunks: 3, usage: {input: 30, output: 10, cached: 5, reasoning: 4}});
	let streamed = '';
	for await (const chunk of await client.models.generateContentStream({model: 'gemini-2.5-flash', contents: 'Hi'})) streamed += chunk.text ?? '';
	assert.equal(streamed, 'a streamed reply');
	assert.equal(gemini.received[1]!.query.alt, 'sse');
	await eventually(() => gateway.finished.length === 2);
	assert.deepEqual(gateway.finished[1]!.usage, {inputTokens: 30, outputTokens: 10, cachedTokens: 5, reasoningTokens: 4});

	gemini.enqueue({toolCalls: [{name: 'get_time', args: {zone: 'UTC'}}]});
	const config = {tools: [{functionDeclarations: [{name: 'get_time', parametersJsonSchema: {type: 'object', properties: {zone: {type: 'string'}}}}]}]};
	const call = await client.models.generateContent({model: 'gemini-2.5-flash', contents: 'Time?', config});
	assert.equal(call.functionCalls?.[0]?.name, 'get_time');
	gemini.enqueue({text: 'It is noon.'});
	const done = await client.models.generateContent({
		model: 'gemini-2.5-flash',
		config,
		contents: [
			{role: 'user', parts: [{text: 'Time?'}]},
			{role: 'model', parts: [{functionCall: call.functionCalls![0]}]},
			{role: 'user', parts: [{functionResponse: {name: 'get_time', response: {time: '12:00'}}}]},
		],
	});
	assert.equal(done.text, 'It is noon.');

	const count = await client.models.countTokens({model: 'gemini-2.5-flash', contents: 'count me'});
	assert.ok((count.totalTokens ?? 0) > 0);
	const pager = await client.models.list();
	const names: string[] = [];
	for await (const model of pager) names.push(model.name ?? '');
	assert.ok(names.includes('models/gemini-2.5-flash'));
	assertNoLeaks(gemini, JSON.stringify(done));
});

test('streaming is not buffered: the first chunk arrives long before the last', async () => {
	const client = anthropicClient(gateway.url, key.secret);
	anthropic.enqueue({text: 'slow stream of five words', chunks: 5, chunkDelayMs: 250});
	const started = Date.now();
	const arrivals: number[] = [];
	const stream = client.messages.stream({model: 'claude-haiku-4-5', max_tokens: 100, messages: [{role: 'user', content: 'Hi'}]});
	stream.on('text', () => arrivals.push(Date.now() - started));
	await stream.finalMessage();
	assert.ok(arrivals.length >= 5);
	assert.ok(arrivals.at(-1)! - arrivals[0]! >= 750, `first at ${arrivals[0]} ms, last at ${arrivals.at(-1)} ms`);
});

test('a client abort aborts the upstream request', async () => {
	const client = openaiClient(gateway.url, key.secret);
	openai.enqueue({text: 'a long long long long long answer', chunks: 20, chunkDelayMs: 200});
	const controller = new AbortController();
	const stream = await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'Hi'}], stream: true}, {signal: controller.signal});
	let chunks = 0;
	for await (const _chunk of stream) {
		chunks++;
		controller.abort();
	}
	assert.ok(chunks >= 1 && chunks < 20, `the SDK stopped reading after ${chunks} of 20 chunks`);
	await eventually(() => openai.received[0]?.aborted === true, 5000, 'upstream abort');
	await eventually(() => gateway.finished.length === 1);
	assert.equal(gateway.finished[0]!.outcome, 'aborted');
});
