/**
 * Drives each strict fake provider directly with its official SDK (openai v6, @anthropic-ai/sdk,
 * @google/genai) to prove the fakes speak the real wire formats, plus raw-fetch checks of the
 * strict rejections and exact error bodies.
 * Run: node --import tsx --test test/helpers-tests/fake-providers.test.ts
 */
import assert from 'node:assert/strict';
import {after, before, describe, it} from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import {GoogleGenAI} from '@google/genai';
import OpenAI from 'openai';
import {startFakeProvider, startFakeAnthropic, startFakeGemini, startFakeOpenAI, type FakeProvider} from '../helpers/fake-providers.js';

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<{status: number; headers: Headers; json: unknown}> {
	const res = await fetch(url, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify(body)});
	const text = await res.text();
	return {status: res.status, headers: res.headers, json: text === '' ? undefined : (JSON.parse(text) as unknown)};
}

function errorMessage(json: unknown): string {
	const error = (json as {error?: {message?: unknown}}).error;
	return String(error?.message);
}

async function until(check: () => boolean, ms = 2000): Promise<void> {
	const end = Date.now() + ms;
	while (!check()) {
		if (Date.now() > end) throw new Error('condition not met in time');
		await new Promise((r) => setTimeout(r, 10));
	}
}

describe('fake OpenAI', () => {
	let fake: FakeProvider;
	let client: OpenAI;
	const user = [{role: 'user' as const, content: 'Hi'}];
	before(async () => {
		fake = await startFakeOpenAI();
		client = new OpenAI({apiKey: fake.apiKey, baseURL: fake.url, maxRetries: 0});
	});
	after(() => fake.close());

	it('answers a text completion with the real shape and usage', async () => {
		fake.reset();
		fake.enqueue({usage: {input: 20, output: 9, cached: 8, reasoning: 3}});
		const res = await client.chat.completions.create({model: 'gpt-4o-mini', messages: user});
		assert.equal(res.object, 'chat.completion');
		assert.equal(res.choices[0].message.content, 'Hello from fake-openai');
		assert.equal(res.choices[0].finish_reason, 'stop');
		assert.deepEqual(res.usage?.prompt_tokens_details, {cached_tokens: 8, audio_tokens: 0});
		assert.equal(res.usage?.completion_tokens_details?.reasoning_tokens, 3);
		assert.equal(res.usage?.total_tokens, 29);
		assert.equal(fake.received[0].path, '/v1/chat/completions');
		assert.equal(fake.received[0].headers.authorization, `Bearer ${fake.apiKey}`);
		assert.deepEqual(fake.received[0].body, {model: 'gpt-4o-mini', messages: user});
	});

	it('streams text; usage only with stream_options.include_usage', async () => {
		fake.reset();
		fake.enqueue({text: 'Hello streaming world', chunks: 4, usage: {input: 5, output: 4}}, {text: 'again'});
		const stream = await client.chat.completions.create({model: 'gpt-4o', messages: user, stream: true, stream_options: {include_usage: true}});
		const chunks = [];
		for await (const chunk of stream) chunks.push(chunk);
		assert.deepEqual(chunks[0].choices[0].delta, {role: 'assistant', content: '', refusal: null});
		assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'Hello streaming world');
		assert.equal(chunks.filter((c) => c.choices[0]?.delta.content).length, 4);
		assert.equal(chunks.at(-2)?.choices[0].finish_reason, 'stop');
		assert.deepEqual(chunks.at(-1)?.choices, []);
		assert.equal(chunks.at(-1)?.usage?.prompt_tokens, 5);
		const plain = await client.chat.completions.create({model: 'gpt-4o', messages: user, stream: true});
		for await (const chunk of plain) assert.equal('usage' in chunk, false);
	});

	it('streams tool calls: id/name once, then argument pieces', async () => {
		fake.reset();
		fake.enqueue({toolCalls: [{id: 'call_1', name: 'get_weather', args: {city: 'Paris', days: 3}}], thinking: {text: 'Let me look'}});
		const tools = [{type: 'function' as const, function: {name: 'get_weather', parameters: {type: 'object', properties: {city: {type: 'string'}}}}}];
		const stream = await client.chat.completions.create({model: 'gpt-4o', messages: user, tools, stream: true});
		const deltas = [];
		let finish: string | null = null;
		let reasoning = '';
		for await (const chunk of stream) {
			for (const call of chunk.choices[0]?.delta.tool_calls ?? []) deltas.push(call);
			finish = chunk.choices[0]?.finish_reason ?? finish;
			reasoning += String((chunk.choices[0]?.delta as {reasoning_content?: string} | undefined)?.reasoning_content ?? '');
		}
		assert.deepEqual(deltas[0], {index: 0, id: 'call_1', type: 'function', function: {name: 'get_weather', arguments: ''}});
		assert.ok(deltas.length >= 3);
		for (const d of deltas.slice(1)) assert.deepEqual(Object.keys(d).sort(), ['function', 'index']);
		assert.deepEqual(JSON.parse(deltas.map((d) => d.function?.arguments ?? '').join('')), {city: 'Paris', days: 3});
		assert.equal(finish, 'tool_calls');
		assert.equal(reasoning, 'Let me look');
	});

	it('lists models', async () => {
		const page = await client.models.list();
		assert.deepEqual(page.data.map((m) => m.id), fake.models);
		assert.equal(page.data[0].object, 'model');
	});

	it('rejects a bad key with the real 401 body, without echoing the key', async () => {
		const bad = new OpenAI({apiKey: 'sk-wrong-key-1234567890abcdef', baseURL: fake.url, maxRetries: 0});
		await assert.rejects(bad.chat.completions.create({model: 'gpt-4o', messages: user}), (e: unknown) => e instanceof OpenAI.APIError && e.status === 401 && e.code === 'invalid_api_key');
		const res = await post(`${fake.url}/chat/completions`, {model: 'gpt-4o', messages: user}, {authorization: 'Bearer sk-wrong-key-1234567890abcdef'});
		assert.equal(res.status, 401);
		assert.deepEqual(Object.keys((res.json as {error: object}).error), ['message', 'type', 'param', 'code']);
		assert.match(errorMessage(res.json), /^Incorrect API key provided: sk-wrong\*+cdef\. /);
	});

	it('is strict: unknown params, stream_options without stream, orphan tool messages, unknown model', async () => {
		const auth = {authorization: `Bearer ${fake.apiKey}`};
		const url = `${fake.url}/chat/completions`;
		let res = await post(url, {model: 'gpt-4o', messages: user, top_k: 3}, auth);
		assert.deepEqual(res.json, {error: {message: 'Unrecognized request argument supplied: top_k', type: 'invalid_request_error', param: null, code: null}});
		res = await post(url, {model: 'gpt-4o', messages: user, stream_options: {include_usage: true}}, auth);
		assert.equal(res.status, 400);
		assert.equal(errorMessage(res.json), "The 'stream_options' parameter is only allowed when 'stream' is enabled.");
		res = await post(url, {model: 'gpt-4o', messages: [...user, {role: 'tool', tool_call_id: 'call_x', content: '1'}]}, auth);
		assert.equal(res.status, 400);
		assert.match(errorMessage(res.json), /messages with role 'tool' must be a response/);
		res = await post(url, {model: 'gpt-4o', messages: [...user, {role: 'assistant', content: null, tool_calls: [{id: 'c1', type: 'function', function: {name: 'f', arguments: '{}'}}]}, {role: 'user', content: 'x'}]}, auth);
		assert.match(errorMessage(res.json), /did not have response messages: c1/);
		res = await post(url, {model: 'gpt-9', messages: user}, auth);
		assert.equal(res.status, 404);
		assert.equal((res.json as {error: {code: string}}).error.code, 'model_not_found');
	});

	it('plays scripted errors, mid-stream errors, hangs and dropped connections', async () => {
		fake.reset();
		fake.enqueue({error: {status: 429, retryAfter: '7'}}, {midStreamError: {afterChunks: 2, message: 'boom'}}, {dropConnection: true}, {hangMs: 5000});
		const auth = {authorization: `Bearer ${fake.apiKey}`};
		const res = await post(`${fake.url}/chat/completions`, {model: 'gpt-4o', messages: user}, auth);
		assert.equal(res.status, 429);
		assert.equal(res.headers.get('retry-after'), '7');
		assert.equal((res.json as {error: {code: string}}).error.code, 'rate_limit_exceeded');
		const stream = await client.chat.completions.create({model: 'gpt-4o', messages: user, stream: true});
		await assert.rejects(async () => {
			for await (const _ of stream) void _;
		}, /boom/);
		await assert.rejects(fetch(`${fake.url}/chat/completions`, {method: 'POST', headers: auth, body: JSON.stringify({model: 'gpt-4o', messages: user})}));
		assert.equal(fake.received[2].aborted, false);
		await assert.rejects(client.chat.completions.create({model: 'gpt-4o', messages: user}, {signal: AbortSignal.timeout(100)}));
		await until(() => fake.received[3].aborted);
	});
});

describe('fake Anthropic', () => {
	let fake: FakeProvider;
	let client: Anthropic;
	const messages = [{role: 'user' as const, content: 'Hi'}];
	before(async () => {
		fake = await startFakeProvider('anthropic');
		client = new Anthropic({apiKey: fake.apiKey, baseURL: fake.url, maxRetries: 0});
	});
	after(() => fake.close());

	it('answers a message; input_tokens excludes cache reads', async () => {
		fake.reset();
		fake.enqueue({usage: {input: 30, output: 9, cached: 10}});
		const msg = await client.messages.create({model: 'claude-sonnet-4-6', max_tokens: 100, messages});
		assert.deepEqual(msg.content, [{type: 'text', text: 'Hello from fake-anthropic'}]);
		assert.equal(msg.stop_reason, 'end_turn');
		assert.match(msg.id, /^msg_/);
		assert.equal(msg.usage.input_tokens, 20);
		assert.equal(msg.usage.cache_read_input_tokens, 10);
		assert.equal(msg.usage.cache_creation_input_tokens, 0);
		assert.equal(fake.received[0].path, '/v1/messages');
		assert.ok(fake.received[0].headers['anthropic-version']);
	});

	it('streams thinking, text and tool_use that the SDK accumulates', async () => {
		fake.reset();
		fake.enqueue({
			thinking: {text: 'Thinking hard', signature: 'sig-abc'},
			text: 'Let me check.',
			toolCalls: [{id: 'toolu_1', name: 'get_weather', args: {city: 'Paris'}}],
			usage: {input: 12, output: 40},
		});
		const stream = client.messages.stream({
			model: 'claude-sonnet-4-6',
			max_tokens: 4096,
			thinking: {type: 'enabled', budget_tokens: 2048},
			tools: [{name: 'get_weather', input_schema: {type: 'object', properties: {city: {type: 'string'}}}}],
			messages,
		});
		const final = await stream.finalMessage();
		assert.deepEqual(final.content.map((b) => b.type), ['thinking', 'text', 'tool_use']);
		assert.deepEqual(final.content[0], {type: 'thinking', thinking: 'Thinking hard', signature: 'sig-abc'});
		assert.equal(final.content[1].type === 'text' && final.content[1].text, 'Let me check.');
		assert.deepEqual(final.content[2].type === 'tool_use' && final.content[2].input, {city: 'Paris'});
		assert.equal(final.stop_reason, 'tool_use');
		assert.equal(final.usage.output_tokens, 40);
	});

	it('counts tokens and lists models', async () => {
		const count = await client.messages.countTokens({model: 'claude-sonnet-4-6', messages});
		assert.equal(count.input_tokens, Math.ceil(JSON.stringify({messages}).length / 4));
		const ids: string[] = [];
		for await (const model of client.models.list()) ids.push(model.id);
		assert.deepEqual(ids, fake.models);
	});

	it('is strict: max_tokens, anthropic-version, bad key, tool pairing, extra fields', async () => {
		const headers = {'x-api-key': fake.apiKey, 'anthropic-version': '2023-06-01'};
		const url = `${fake.url}/v1/messages`;
		let res = await post(url, {model: 'claude-sonnet-4-6', messages}, headers);
		assert.equal(res.status, 400);
		assert.deepEqual((res.json as {error: unknown}).error, {type: 'invalid_request_error', message: 'max_tokens: Field required'});
		res = await post(url, {model: 'claude-sonnet-4-6', max_tokens: 10, messages}, {'x-api-key': fake.apiKey});
		assert.deepEqual((res.json as {error: unknown}).error, {type: 'invalid_request_error', message: 'anthropic-version: header is required'});
		res = await post(url, {model: 'claude-sonnet-4-6', max_tokens: 10, messages}, {...headers, 'x-api-key': 'sk-ant-nope'});
		assert.equal(res.status, 401);
		assert.equal((res.json as {type: string}).type, 'error');
		assert.deepEqual((res.json as {error: unknown}).error, {type: 'authentication_error', message: 'invalid x-api-key'});
		assert.match(String((res.json as {request_id: unknown}).request_id), /^req_/);
		const bad = new Anthropic({apiKey: 'sk-ant-nope', baseURL: fake.url, maxRetries: 0});
		await assert.rejects(bad.messages.create({model: 'claude-sonnet-4-6', max_tokens: 10, messages}), Anthropic.AuthenticationError);
		res = await post(url, {model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_9', content: 'x'}]}]}, headers);
		assert.match(errorMessage(res.json), /^messages\.0\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9\./);
		res = await post(url, {model: 'claude-sonnet-4-6', max_tokens: 10, messages, frequency_penalty: 1}, headers);
		assert.equal(errorMessage(res.json), 'frequency_penalty: Extra inputs are not permitted');
		res = await post(url, {model: 'claude-sonnet-4-6', max_tokens: 10, messages, temperature: 0.5}, headers);
		assert.equal(res.status, 200);
		res = await post(url, {model: 'claude-sonnet-4-6', max_tokens: 10, messages, temperature: 0.5}, {...headers, 'anthropic-version': '2026-10-21'});
		assert.equal(errorMessage(res.json), 'temperature: Extra inputs are not permitted');
		res = await post(url, {model: 'claude-x', max_tokens: 10, messages}, headers);
		assert.equal(res.status, 404);
		assert.deepEqual((res.json as {error: unknown}).error, {type: 'not_found_error', message: 'model: claude-x'});
	});

	it('emits event: error mid-stream', async () => {
		fake.reset();
		fake.enqueue({midStreamError: {afterChunks: 3}});
		const stream = client.messages.stream({model: 'claude-sonnet-4-6', max_tokens: 100, messages});
		await assert.rejects(stream.finalMessage(), (e: unknown) => e instanceof Anthropic.APIError && /overloaded_error/.test(e.message));
	});
	it('pages its model list (limit default 20, 1–1000) with each model\'s lifecycle, and the SDK reads every page', async () => {
		const many = Array.from({length: 45}, (_, i) => `claude-test-${String(i).padStart(2, '0')}`);
		const big = await startFakeAnthropic({models: many, deprecated: {'claude-test-03': '2026-11-30T00:00:00Z'}});
		try {
			const sdk = new Anthropic({apiKey: big.apiKey, baseURL: big.url});
			const seen: Array<{id: string; lifecycle: string; retires_at: string | null}> = [];
			for await (const model of sdk.models.list()) seen.push({id: model.id, lifecycle: model.lifecycle, retires_at: model.retires_at});
			assert.deepEqual(seen.map((model) => model.id), many);
			assert.deepEqual(seen[3], {id: 'claude-test-03', lifecycle: 'deprecated', retires_at: '2026-11-30T00:00:00Z'});
			assert.equal(seen[4]!.lifecycle, 'active');
			assert.equal(big.received.filter((request) => request.path === '/v1/models').length, 3, 'three pages of 20');
			const headers = {'x-api-key': big.apiKey, 'anthropic-version': '2023-06-01'};
			const all = (await (await fetch(`${big.url}/v1/models?limit=1000`, {headers})).json()) as {data: unknown[]; has_more: boolean};
			assert.deepEqual([all.data.length, all.has_more], [45, false]);
			const tooMany = await fetch(`${big.url}/v1/models?limit=1001`, {headers});
			assert.equal(tooMany.status, 400);
			assert.match(errorMessage(await tooMany.json()), /limit: Input should be less than or equal to 1000/);
		} finally {
			await big.close();
		}
	});
});

describe('fake Gemini', () => {
	let fake: FakeProvider;
	let ai: GoogleGenAI;
	before(async () => {
		fake = await startFakeGemini();
		ai = new GoogleGenAI({apiKey: fake.apiKey, httpOptions: {baseUrl: fake.url}});
	});
	after(() => fake.close());

	it('answers generateContent with usage in Gemini terms', async () => {
		fake.reset();
		fake.enqueue({usage: {input: 20, output: 9, cached: 5, reasoning: 4}});
		const res = await ai.models.generateContent({model: 'gemini-2.5-flash', contents: 'Hi'});
		assert.equal(res.text, 'Hello from fake-gemini');
		assert.equal(res.candidates?.[0].finishReason, 'STOP');
		assert.equal(res.usageMetadata?.promptTokenCount, 20);
		assert.equal(res.usageMetadata?.candidatesTokenCount, 5);
		assert.equal(res.usageMetadata?.thoughtsTokenCount, 4);
		assert.equal(res.usageMetadata?.cachedContentTokenCount, 5);
		assert.equal(res.usageMetadata?.totalTokenCount, 29);
		assert.equal(fake.received[0].path, '/v1beta/models/gemini-2.5-flash:generateContent');
		assert.equal(fake.received[0].headers['x-goog-api-key'], fake.apiKey);
	});

	it('streams text over SSE; thought part then signature; function calls whole', async () => {
		fake.reset();
		fake.enqueue({text: 'Hello streaming world', chunks: 3}, {thinking: {text: 'hmm', signature: 'c2lnLTE='}, toolCalls: [{name: 'get_weather', args: {city: 'Paris'}}]});
		let text = '';
		let last;
		for await (const chunk of await ai.models.generateContentStream({model: 'gemini-2.5-flash', contents: 'Hi'})) {
			text += chunk.text ?? '';
			last = chunk;
		}
		assert.equal(text, 'Hello streaming world');
		assert.equal(last?.candidates?.[0].finishReason, 'STOP');
		assert.equal(last?.usageMetadata?.candidatesTokenCount, 7);
		assert.equal(fake.received[0].query.alt, 'sse');
		const parts = [];
		for await (const chunk of await ai.models.generateContentStream({model: 'gemini-2.5-flash', contents: 'Hi'})) parts.push(...(chunk.candidates?.[0].content?.parts ?? []));
		assert.equal(parts.filter((p) => p.thought === true).map((p) => p.text).join(''), 'hmm');
		assert.deepEqual(parts.at(-1), {functionCall: {name: 'get_weather', args: {city: 'Paris'}}, thoughtSignature: 'c2lnLTE='});
	});

	it('streams a JSON array without alt=sse', async () => {
		fake.reset();
		const res = await post(`${fake.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent`, {contents: [{role: 'user', parts: [{text: 'Hi'}]}]}, {'x-goog-api-key': fake.apiKey});
		assert.equal(res.status, 200);
		assert.ok(Array.isArray(res.json));
		assert.equal((res.json as unknown[]).length, 3);
	});

	it('counts tokens and lists models', async () => {
		const count = await ai.models.countTokens({model: 'gemini-2.5-flash', contents: 'Hello'});
		assert.ok((count.totalTokens ?? 0) > 0);
		const names: string[] = [];
		for await (const model of await ai.models.list()) names.push(model.name ?? '');
		assert.deepEqual(names, fake.models.map((m) => `models/${m}`));
	});

	it('is strict: OpenAPI-subset schemas, keys, roles and function responses', async () => {
		const url = `${fake.url}/v1beta/models/gemini-2.5-flash:generateContent`;
		const headers = {'x-goog-api-key': fake.apiKey};
		const contents = [{role: 'user', parts: [{text: 'Hi'}]}];
		const tool = (parameters: unknown): unknown => ({contents, tools: [{functionDeclarations: [{name: 'f', parameters}]}]});
		let res = await post(url, tool({type: 'object', properties: {a: {type: 'string'}}, additionalProperties: false}), headers);
		assert.equal(res.status, 400);
		assert.equal(errorMessage(res.json), `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field.`);
		assert.equal((res.json as {error: {status: string}}).error.status, 'INVALID_ARGUMENT');
		res = await post(url, tool({type: 'object', properties: {a: {type: ['string', 'null']}}}), headers);
		assert.match(errorMessage(res.json), /Unknown name "type" at 'tools\[0\]\.function_declarations\[0\]\.parameters\.properties\[0\]\.value': Proto field is not repeating/);
		res = await post(url, {contents, tools: [{function_declarations: [{name: 'f', parameters_json_schema: {type: 'object', additionalProperties: false}}]}]}, headers);
		assert.equal(res.status, 200);
		res = await post(url, {contents: [{role: 'assistant', parts: [{text: 'x'}]}]}, headers);
		assert.equal(errorMessage(res.json), 'Please use a valid role: user, model.');
		res = await post(url, {contents: [...contents, {role: 'user', parts: [{functionResponse: {name: 'f', response: {}}}]}]}, headers);
		assert.equal(errorMessage(res.json), 'Please ensure that function response turn comes immediately after a function call turn.');
		res = await post(url, {contents: []}, headers);
		assert.equal(errorMessage(res.json), '* GenerateContentRequest.contents: contents is not specified\n');
	});

	it('answers bad and missing keys like the real API', async () => {
		const url = `${fake.url}/v1beta/models/gemini-2.5-flash:generateContent`;
		const body = {contents: [{parts: [{text: 'Hi'}]}]};
		let res = await post(url, body, {'x-goog-api-key': 'AIza-wrong'});
		assert.equal(res.status, 400);
		const error = (res.json as {error: {code: number; status: string; message: string; details: Array<{reason?: string}>}}).error;
		assert.equal(error.code, 400);
		assert.equal(error.message, 'API key not valid. Please pass a valid API key.');
		assert.equal(error.details[0].reason, 'API_KEY_INVALID');
		res = await post(url, body, {});
		assert.equal(res.status, 403);
		assert.equal((res.json as {error: {status: string}}).error.status, 'PERMISSION_DENIED');
		res = await post(`${url}?key=${fake.apiKey}`, body, {});
		assert.equal(res.status, 200);
		const bad = new GoogleGenAI({apiKey: 'AIza-wrong', httpOptions: {baseUrl: fake.url}});
		await assert.rejects(bad.models.generateContent({model: 'gemini-2.5-flash', contents: 'Hi'}), (e: unknown) => (e as {status?: number}).status === 400);
	});

	it('records a client abort mid-stream', async () => {
		fake.reset();
		fake.enqueue({text: 'a b c d e f', chunks: 6, chunkDelayMs: 100});
		const controller = new AbortController();
		const stream = await ai.models.generateContentStream({model: 'gemini-2.5-flash', contents: 'Hi', config: {abortSignal: controller.signal}});
		await assert.rejects(async () => {
			for await (const _ of stream) controller.abort();
		});
		await until(() => fake.received[0].aborted);
	});
	it('pages its model list as ListModels does (pageSize default 50, at most 1000), and the SDK reads every page', async () => {
		const many = Array.from({length: 120}, (_, i) => `gemini-test-${String(i).padStart(3, '0')}`);
		const big = await startFakeGemini({models: many});
		try {
			const names: string[] = [];
			for await (const model of await new GoogleGenAI({apiKey: big.apiKey, httpOptions: {baseUrl: big.url}}).models.list()) names.push(model.name ?? '');
			assert.deepEqual(names, many.map((id) => `models/${id}`));
			assert.ok(big.received.length >= 3, 'more than one page was asked for');
			const first = (await (await fetch(`${big.url}/v1beta/models`, {headers: {'x-goog-api-key': big.apiKey}})).json()) as {models: unknown[]; nextPageToken?: string};
			assert.equal(first.models.length, 50);
			assert.equal(typeof first.nextPageToken, 'string');
			const all = (await (await fetch(`${big.url}/v1beta/models?pageSize=5000`, {headers: {'x-goog-api-key': big.apiKey}})).json()) as {models: unknown[]; nextPageToken?: string};
			assert.equal(all.models.length, 120, 'a pageSize over 1000 is taken as 1000');
			assert.equal(all.nextPageToken, undefined, 'the last page has no nextPageToken');
		} finally {
			await big.close();
		}
	});
});
