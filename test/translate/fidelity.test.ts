/**
 * Translation fidelity against what real providers send (issue 16): a call without arguments, usage
 * that counts reasoning apart (xAI), a refused Gemini key. Official SDKs as clients, strict fakes as
 * providers.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import {formats, type Format} from '../../source/base/ir.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, geminiClient, openaiClient} from '../helpers/sdks.js';

let gateway: TestGateway;
let secret: string;
const providers = {} as Record<Format, FakeProvider>;
let wrongKeyGemini: FakeProvider;

before(async () => {
	gateway = await startTestGateway();
	for (const format of formats) {
		providers[format] = await startFakeProvider(format);
		await gateway.addProvider(providers[format], {name: format, models: `to-${format}=${providers[format].models[0]}`});
	}
	wrongKeyGemini = await startFakeProvider('gemini');
	await gateway.addProvider(wrongKeyGemini, {name: 'gemini-wrong-key', models: `to-bad-gemini=${wrongKeyGemini.models[0]}`, apiKey: 'AIza-not-the-real-key'});
	secret = (await gateway.createKey({name: 'fidelity'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all([...formats.map(format => providers[format].close()), wrongKeyGemini.close()]);
});
beforeEach(() => {
	for (const format of formats) providers[format].reset();
});

const getTime = {type: 'function' as const, function: {name: 'get_time', description: 'The time now', parameters: {type: 'object', properties: {}}}};

test('a streamed Claude tool call without arguments reaches OpenAI chat clients with arguments "{}"', async () => {
	providers.anthropic.enqueue({toolCalls: [{id: 'toolu_time', name: 'get_time', args: {}}]});
	const stream = await openaiClient(gateway.url, secret).chat.completions.create({model: 'to-anthropic', messages: [{role: 'user', content: 'Time?'}], tools: [getTime], stream: true});
	let args = '';
	for await (const chunk of stream) for (const call of chunk.choices[0]?.delta.tool_calls ?? []) args += call.function?.arguments ?? '';
	assert.equal(args, '{}');
	assert.deepEqual(JSON.parse(args), {});
});

test('a streamed Claude tool call without arguments reaches Responses clients with a .delta before .done', async () => {
	providers.anthropic.enqueue({toolCalls: [{id: 'toolu_time', name: 'get_time', args: {}}]});
	const stream = await openaiClient(gateway.url, secret).responses.create({
		model: 'to-anthropic',
		input: 'Time?',
		tools: [{type: 'function', name: 'get_time', parameters: {type: 'object', properties: {}}, strict: false}],
		stream: true,
	});
	const seen: string[] = [];
	for await (const event of stream) {
		if (event.type === 'response.function_call_arguments.delta') seen.push(`delta ${event.delta}`);
		if (event.type === 'response.function_call_arguments.done') seen.push(`done ${event.arguments}`);
	}
	assert.deepEqual(seen, ['delta {}', 'done {}']);
});

test('xAI usage (reasoning outside completion_tokens) adds up on Gemini clients and on OpenAI clients', async () => {
	// As xAI answered: prompt 52, completion 26, reasoning 255, total 333.
	const xai = {text: 'Paris.', usage: {input: 52, output: 281, reasoning: 255, reasoningOutside: true}};
	providers.openai.enqueue(xai);
	const gemini = await geminiClient(gateway.url, secret).models.generateContent({model: 'to-openai', contents: 'Capital of France?'});
	assert.deepEqual(
		{candidates: gemini.usageMetadata?.candidatesTokenCount, thoughts: gemini.usageMetadata?.thoughtsTokenCount, total: gemini.usageMetadata?.totalTokenCount},
		{candidates: 26, thoughts: 255, total: 333},
	);
	providers.openai.enqueue(xai);
	const chat = await openaiClient(gateway.url, secret).chat.completions.create({model: 'to-openai', messages: [{role: 'user', content: 'Capital of France?'}]});
	// Passthrough: the OpenAI client sees xAI's own numbers.
	assert.deepEqual([chat.usage?.completion_tokens, chat.usage?.total_tokens], [26, 333]);
});

const refusal = (error: {status: number; message: string}) => error;

test('a Gemini channel whose key is refused (400 API_KEY_INVALID) is a 502 naming the channel, for translated clients', async () => {
	const openai = await openaiClient(gateway.url, secret)
		.chat.completions.create({model: 'to-bad-gemini', messages: [{role: 'user', content: 'hi'}]})
		.then(() => undefined, refusal);
	assert.equal(openai?.status, 502);
	assert.match(openai?.message ?? '', /Channel "gemini-wrong-key" refused its provider API key/);
	const anthropic = await anthropicClient(gateway.url, secret)
		.messages.create({model: 'to-bad-gemini', max_tokens: 10, messages: [{role: 'user', content: 'hi'}]})
		.then(() => undefined, refusal);
	assert.equal(anthropic?.status, 502);
});

test('a Gemini client passing through to a Gemini channel with a refused key gets the same 502', async () => {
	const gemini = await geminiClient(gateway.url, secret)
		.models.generateContent({model: 'to-bad-gemini', contents: 'hi'})
		.then(() => undefined, refusal);
	assert.equal(gemini?.status, 502);
});

test('parallel tool results sent out of order go back in one turn, in call order (Anthropic tool_results, Gemini functionResponses)', async () => {
	const weather = {type: 'function' as const, function: {name: 'get_weather', parameters: {type: 'object', properties: {city: {type: 'string'}}}}};
	const time = {type: 'function' as const, function: {name: 'get_time', parameters: {type: 'object', properties: {}}}};
	const messages = [
		{role: 'user' as const, content: 'Weather in Paris, and the time?'},
		{
			role: 'assistant' as const,
			content: null,
			tool_calls: [
				{id: 'call_weather', type: 'function' as const, function: {name: 'get_weather', arguments: '{"city":"Paris"}'}},
				{id: 'call_time', type: 'function' as const, function: {name: 'get_time', arguments: '{}'}},
			],
		},
		// The client answers the second call first.
		{role: 'tool' as const, tool_call_id: 'call_time', content: '12:00'},
		{role: 'tool' as const, tool_call_id: 'call_weather', content: 'Sunny'},
	];
	const client = openaiClient(gateway.url, secret);
	await client.chat.completions.create({model: 'to-anthropic', messages, tools: [weather, time]});
	const anthropic = providers.anthropic.received.at(-1)!.body as {messages: Array<{role: string; content: Array<{type: string; tool_use_id?: string}>}>};
	assert.deepEqual(anthropic.messages.map(message => message.role), ['user', 'assistant', 'user']);
	assert.deepEqual(anthropic.messages[2]!.content.map(block => block.tool_use_id), ['call_weather', 'call_time']);
	await client.chat.completions.create({model: 'to-gemini', messages, tools: [weather, time]});
	const gemini = providers.gemini.received.at(-1)!.body as {contents: Array<{role: string; parts: Array<{functionResponse?: {name: string}}>}>};
	assert.deepEqual(gemini.contents.map(content => content.role), ['user', 'model', 'user']);
	assert.deepEqual(gemini.contents[2]!.parts.map(part => part.functionResponse?.name), ['get_weather', 'get_time']);
});

test('a tool schema with keywords Gemini rejects reaches a Gemini channel cleaned (the strict fake refuses them raw)', async () => {
	const parameters = {
		$schema: 'https://json-schema.org/draft/2020-12/schema',
		$comment: 'generated by zod',
		type: 'object',
		properties: {
			tags: {type: 'array', items: {type: 'string'}, uniqueItems: true},
			ratio: {type: 'number', exclusiveMinimum: 0},
			level: {type: 'string', enum: ['low', 'high'], enumDescriptions: ['Quiet.', 'Loud.']},
			note: {type: ['string', 'null']},
			kind: {const: 'fixed'},
			value: {anyOf: [{anyOf: [{type: 'string'}, {type: 'integer'}]}, {type: 'null'}]},
		},
		additionalProperties: false,
	};
	const raw = await fetch(`${providers.gemini.url}/v1beta/models/${providers.gemini.models[0]}:generateContent`, {
		method: 'POST',
		headers: {'content-type': 'application/json', 'x-goog-api-key': providers.gemini.apiKey},
		body: JSON.stringify({contents: [{role: 'user', parts: [{text: 'hi'}]}], tools: [{functionDeclarations: [{name: 'f', parameters}]}]}),
	});
	assert.equal(raw.status, 400, 'the fake rejects what Gemini rejects');
	const answer = await openaiClient(gateway.url, secret).chat.completions.create({
		model: 'to-gemini',
		messages: [{role: 'user', content: 'hi'}],
		tools: [{type: 'function', function: {name: 'f', parameters}}],
	});
	assert.equal(answer.choices[0]?.finish_reason, 'stop');
});

test('cache_control markers from an OpenAI client (OpenRouter style) reach an Anthropic channel', async () => {
	await openaiClient(gateway.url, secret).chat.completions.create({
		model: 'to-anthropic',
		messages: [
			{role: 'system', content: [{type: 'text', text: 'A long, stable system prompt.', cache_control: {type: 'ephemeral'}} as {type: 'text'; text: string}]},
			{role: 'user', content: [{type: 'text', text: 'A big document.', cache_control: {type: 'ephemeral', ttl: '1h'}} as {type: 'text'; text: string}]},
		],
	});
	const body = providers.anthropic.received.at(-1)!.body as {system: unknown[]; messages: Array<{content: unknown[]}>};
	assert.deepEqual(body.system, [{type: 'text', text: 'A long, stable system prompt.', cache_control: {type: 'ephemeral'}}]);
	assert.deepEqual(body.messages[0]!.content, [{type: 'text', text: 'A big document.', cache_control: {type: 'ephemeral', ttl: '1h'}}]);
});

test('the same Gemini history (calls without ids) is sent byte for byte the same on every turn, so the provider cache matches', async () => {
	const contents = [
		{role: 'user', parts: [{text: 'List the files.'}]},
		{role: 'model', parts: [{functionCall: {name: 'list_files', args: {dir: '.'}}}]},
		{role: 'user', parts: [{functionResponse: {name: 'list_files', response: {output: 'a.txt'}}}]},
	];
	const config = {systemInstruction: 'You are a coding agent.', tools: [{functionDeclarations: [{name: 'list_files', parameters: {type: 'object', properties: {dir: {type: 'string'}}}}]}]};
	const client = geminiClient(gateway.url, secret);
	await client.models.generateContent({model: 'to-anthropic', contents, config: config as never});
	await client.models.generateContent({model: 'to-anthropic', contents, config: config as never});
	const [first, second] = providers.anthropic.received.slice(-2).map(request => JSON.stringify(request.body));
	assert.equal(first, second);
});

test("an Anthropic client's answer from any channel has a msg_ id, whole and streamed; another format's id stays behind the prefix", async () => {
	const client = anthropicClient(gateway.url, secret);
	for (const format of formats) {
		const model = `to-${format}`;
		const whole = await client.messages.create({model, max_tokens: 64, messages: [{role: 'user', content: 'Hi'}]});
		const streamed = await client.messages.stream({model, max_tokens: 64, messages: [{role: 'user', content: 'Hi'}]}).finalMessage();
		for (const [how, id] of [['whole', whole.id], ['streamed', streamed.id]] as const) {
			assert.match(id, /^msg_\S+$/, `${format}, ${how}: ${id}`);
			assert.doesNotMatch(id, /^msg_msg_/, `${format}, ${how}: one prefix`);
			if (format === 'openai') assert.match(id, /^msg_chatcmpl-/, `${how}: the provider's id behind the prefix`);
		}
	}
});
