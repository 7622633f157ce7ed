/**
 * The openai SDK's Responses API (`responses.create`, `responses.stream`) through the gateway,
 * against a strict fake provider of every channel format: translated to chat completions,
 * Anthropic messages and Gemini, and passed through to an OpenAI channel that speaks the Responses API.
 */
import assert from 'node:assert/strict';
import {after, before, beforeEach, describe, test} from 'node:test';
import type OpenAI from 'openai';
import {APIError} from 'openai';
import {accumulateResponse} from 'openai/lib/responses/ResponseAccumulator';
import type {Response, ResponseFunctionToolCall, ResponseInputItem, ResponseStreamEvent} from 'openai/resources/responses/responses';
import type {Format} from '../../source/base/ir.js';
import {addChannel} from '../../source/services/channels.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {providerSaw} from '../helpers/provider-saw.js';
import {eventually, openaiClient} from '../helpers/sdks.js';

type Target = {readonly name: string; readonly model: string; readonly format: Format; readonly native: boolean};

const targets: readonly Target[] = [
	{name: 'openai chat completions (translated)', model: 'via-openai', format: 'openai', native: false},
	{name: 'openai Responses API (passthrough)', model: 'via-native', format: 'openai', native: true},
	{name: 'anthropic (translated)', model: 'via-anthropic', format: 'anthropic', native: false},
	{name: 'gemini (translated)', model: 'via-gemini', format: 'gemini', native: false},
];

const upstreamModel: Record<Format, string> = {openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5', gemini: 'gemini-2.5-flash'};
const weather = {type: 'function' as const, name: 'get_weather', description: 'Weather for a city', parameters: {type: 'object', properties: {city: {type: 'string'}}, required: ['city']}, strict: false};

let gateway: TestGateway;
let client: OpenAI;
const providers = {} as Record<Format, FakeProvider>;

before(async () => {
	gateway = await startTestGateway();
	for (const format of ['openai', 'anthropic', 'gemini'] as const) {
		providers[format] = await startFakeProvider(format);
		await gateway.addProvider(providers[format], {name: format, models: `via-${format}=${upstreamModel[format]}`});
	}
	const openai = providers.openai;
	await addChannel(gateway.store, {name: 'openai-native', format: 'openai', baseUrl: openai.url, apiKey: openai.apiKey, models: `via-native=${upstreamModel.openai}`, responsesApi: 'on'});
	await gateway.registry.refresh();
	client = openaiClient(gateway.url, (await gateway.createKey({name: 'codex'})).secret);
});
after(async () => {
	await gateway.close();
	await Promise.all(Object.values(providers).map(provider => provider.close()));
});
beforeEach(() => {
	for (const provider of Object.values(providers)) provider.reset();
});

const outputText = (response: Response) => response.output_text;

for (const target of targets) {
	describe(`responses client → ${target.name}`, () => {
		const provider = () => providers[target.format];
		const lastBody = () => provider().received.at(-1)!.body as Record<string, unknown>;

		test('responses.create: text, the instructions in the provider\'s system slot, usage', async () => {
			const response = await client.responses.create({model: target.model, instructions: 'Be brief.', input: 'Say hello.'});
			assert.equal(response.object, 'response');
			assert.equal(response.status, 'completed');
			assert.equal(outputText(response), `Hello from fake-${target.format}`);
			assert.deepEqual([response.usage?.input_tokens, response.usage?.output_tokens, response.usage?.total_tokens], [11, 7, 18]);
			if (target.native) {
				assert.equal(provider().received.at(-1)!.path, '/v1/responses');
				assert.deepEqual(lastBody(), {model: upstreamModel.openai, instructions: 'Be brief.', input: 'Say hello.'});
			} else {
				const saw = providerSaw(target.format, lastBody());
				assert.deepEqual([saw.system, saw.texts], ['Be brief.', ['Say hello.']]);
			}
		});

		test('responses.stream: events accumulate to exactly the final response; text arrives as produced; usage logged', async () => {
			provider().enqueue({text: 'alpha beta gamma delta', chunks: 4, chunkDelayMs: 150, usage: {input: 100, output: 10, cached: 40}});
			const started = Date.now();
			const arrivals: number[] = [];
			const seen: ResponseStreamEvent[] = [];
			const stream = client.responses.stream({model: target.model, input: 'Stream please.'});
			stream.on('event', event => seen.push(event));
			stream.on('response.output_text.delta', () => arrivals.push(Date.now() - started));
			const final = await stream.finalResponse();
			assert.equal(final.output_text, 'alpha beta gamma delta');
			const completed = seen.at(-1)!;
			assert.equal(completed.type, 'response.completed');
			let snapshot: Response | undefined;
			for (const event of seen.slice(0, -1)) snapshot = accumulateResponse(event, snapshot);
			assert.deepEqual(snapshot!.output, completed.type === 'response.completed' ? completed.response.output : undefined);
			assert.deepEqual(seen.map(event => event.sequence_number), seen.map((_, index) => index));
			assert.deepEqual([final.usage?.input_tokens, final.usage?.input_tokens_details.cached_tokens, final.usage?.output_tokens], [100, 40, 10]);
			assert.ok(arrivals.length >= 3 && arrivals.at(-1)! - arrivals[0]! >= 300, `not buffered: ${arrivals.join(', ')}`);
			await eventually(() => gateway.finished.some(event => event.model === target.model && event.inboundFormat === 'responses' && event.usage?.cachedTokens === 40));
			const logged = gateway.finished.find(event => event.model === target.model && event.usage?.cachedTokens === 40)!;
			assert.deepEqual([logged.inboundFormat, logged.outboundFormat, logged.path], ['responses', target.format, '/v1/responses']);
		});

		test('responses.create({stream: true}) ends with response.completed', async () => {
			const types: string[] = [];
			for await (const event of await client.responses.create({model: target.model, input: 'hi', stream: true})) types.push(event.type);
			assert.deepEqual([types[0], types[1], types.at(-1)], ['response.created', 'response.in_progress', 'response.completed']);
			assert.ok(types.includes('response.output_text.delta'));
		});

		test('a function call round trip: function_call → function_call_output → answer', async () => {
			provider().enqueue({toolCalls: [{...(target.format === 'gemini' ? {} : {id: 'call_abc123'}), name: 'get_weather', args: {city: 'Paris'}}]});
			const first = await client.responses.create({model: target.model, input: 'Weather in Paris?', tools: [weather]});
			const call = first.output.find((item): item is ResponseFunctionToolCall => item.type === 'function_call');
			assert.ok(call, 'a function_call item');
			assert.deepEqual([call.name, JSON.parse(call.arguments)], ['get_weather', {city: 'Paris'}]);
			assert.ok(call.call_id);
			provider().enqueue({text: 'It is sunny in Paris.'});
			const input: ResponseInputItem[] = [{role: 'user', content: 'Weather in Paris?'}, ...(first.output as ResponseInputItem[]), {type: 'function_call_output', call_id: call.call_id, output: 'sunny, 24°C'}];
			const second = await client.responses.create({model: target.model, input, tools: [weather]});
			assert.equal(second.output_text, 'It is sunny in Paris.');
			if (target.native) return assert.deepEqual((lastBody().input as unknown[]).at(-1), {type: 'function_call_output', call_id: call.call_id, output: 'sunny, 24°C'});
			const saw = providerSaw(target.format, lastBody());
			assert.deepEqual(saw.toolCalls.map(item => [item.name, item.args]), [['get_weather', {city: 'Paris'}]]);
			assert.match(saw.toolResults[0]!.text, /sunny, 24°C/);
			if (target.format === 'gemini') assert.equal(saw.toolResults[0]!.name, 'get_weather');
			else assert.equal(saw.toolResults[0]!.id, saw.toolCalls[0]!.id);
		});

		test('reasoning effort reaches the channel in its own slot', async () => {
			await client.responses.create({model: target.model, input: 'Think hard.', reasoning: {effort: 'high'}, max_output_tokens: 2000});
			const body = lastBody();
			if (target.native) assert.deepEqual(body.reasoning, {effort: 'high'});
			else if (target.format === 'openai') assert.equal(body.reasoning_effort, 'high');
			else if (target.format === 'anthropic') assert.equal((body.thinking as {type: string}).type, 'enabled');
			else assert.ok(((body.generationConfig as {thinkingConfig?: {thinkingBudget?: number}}).thinkingConfig?.thinkingBudget ?? 0) > 0);
		});

		test('upstream rate limit stays a 429 the SDK reports', async () => {
			provider().enqueue({error: {status: 429, retryAfter: '7'}});
			await assert.rejects(client.responses.create({model: target.model, input: 'hi'}), (error: unknown) => error instanceof APIError && error.status === 429);
		});
	});
}

describe('responses: what needs stored state', () => {
	test('a previous_response_id the gateway never kept is OpenAI\'s 400 when translated, and goes to a Responses-native channel as it is', async () => {
		await assert.rejects(
			client.responses.create({model: 'via-anthropic', input: 'and then?', previous_response_id: 'resp_123'}),
			(error: unknown) => error instanceof APIError && error.status === 400 && error.code === 'previous_response_not_found' && /Previous response with id 'resp_123' not found/.test(error.message),
		);
		const first = await client.responses.create({model: 'via-native', input: 'hi'});
		const second = await client.responses.create({model: 'via-native', input: 'and then?', previous_response_id: first.id});
		assert.equal(second.previous_response_id, first.id);
		assert.equal((providers.openai.received.at(-1)!.body as {previous_response_id?: string}).previous_response_id, first.id);
	});

	test('retrieving a response the gateway never kept is a 404 in OpenAI\'s words', async () => {
		await assert.rejects(client.responses.retrieve('resp_123'), (error: unknown) => error instanceof APIError && error.status === 404 && /Response with id 'resp_123' not found/.test(error.message));
	});

	test('a missing key is a 401 in OpenAI\'s shape', async () => {
		const response = await fetch(`${gateway.url}/v1/responses`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({model: 'via-openai', input: 'hi'})});
		assert.equal(response.status, 401);
		assert.match(((await response.json()) as {error: {message: string}}).error.message, /key/i);
	});
});

describe('GET /v1/models', () => {
	test('the OpenAI SDK lists the models; Codex\'s catalog request (client_version) also gets an empty catalog to fall back from', async () => {
		const ids: string[] = [];
		for await (const model of client.models.list()) ids.push(model.id);
		assert.deepEqual(ids.sort(), ['via-anthropic', 'via-gemini', 'via-native', 'via-openai']);
		const key = (client as unknown as {apiKey: string}).apiKey;
		const response = await fetch(`${gateway.url}/v1/models?client_version=0.169.0`, {headers: {authorization: `Bearer ${key}`}});
		const body = (await response.json()) as {object: string; data: unknown[]; models: unknown[]};
		assert.deepEqual([body.object, body.data.length, body.models], ['list', 4, []]);
		const plain = (await (await fetch(`${gateway.url}/v1/models`, {headers: {authorization: `Bearer ${key}`}})).json()) as Record<string, unknown>;
		assert.ok(!('models' in plain));
	});
});

describe('responses: failures mid-stream', () => {
	test('an upstream error mid-stream ends the stream with error then response.failed (what Codex reads), and the SDK throws', async () => {
		providers.anthropic.enqueue({text: 'alpha beta gamma', chunks: 3, midStreamError: {afterChunks: 4, message: 'Overloaded'}});
		const key = (client as unknown as {apiKey: string}).apiKey;
		const response = await fetch(`${gateway.url}/v1/responses`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${key}`}, body: JSON.stringify({model: 'via-anthropic', input: 'hi', stream: true})});
		const events = (await response.text()).split('\n\n').filter(Boolean).map(frame => /^event: (.+)$/m.exec(frame)?.[1]);
		assert.deepEqual(events.slice(-2), ['error', 'response.failed']);
		assert.ok(!events.includes('response.completed'));
		providers.anthropic.enqueue({text: 'alpha beta gamma', chunks: 3, midStreamError: {afterChunks: 4, message: 'Overloaded'}});
		await assert.rejects(client.responses.stream({model: 'via-anthropic', input: 'hi'}).finalResponse(), (error: unknown) => error instanceof APIError && /Overloaded/.test(error.message));
		await eventually(() => gateway.finished.some(event => event.model === 'via-anthropic' && event.error !== null && /Overloaded/.test(event.error)));
	});
});
