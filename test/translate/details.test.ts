/**
 * Translation details beyond the matrix: generation settings land in the target's own fields,
 * reasoning reaches the client's reasoning slot, signatures go back only to the provider that made
 * them (losses are warnings on the request log), mid-stream errors reach the client in its format,
 * and http images are fetched for Gemini with a size limit.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:http';
import {formats, type Format} from '../../source/base/ir.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, eventually, openaiClient} from '../helpers/sdks.js';
import {send} from '../helpers/wire.js';

let gateway: TestGateway;
let secret: string;
let images: Server;
let imageBase: string;
const providers = {} as Record<Format, FakeProvider>;
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

before(async () => {
	gateway = await startTestGateway({relay: {imageFetch: {maxBytes: 1000, timeoutMs: 2000}}});
	for (const format of formats) {
		providers[format] = await startFakeProvider(format);
		await gateway.addProvider(providers[format], {name: format, models: `to-${format}=${providers[format].models[0]}`});
	}
	secret = (await gateway.createKey({name: 'details'})).secret;
	images = createServer((request, response) => {
		if (request.url === '/pixel.png') response.writeHead(200, {'content-type': 'image/png'}).end(png);
		else if (request.url === '/huge.png') response.writeHead(200, {'content-type': 'image/png'}).end(Buffer.alloc(5000));
		else if (request.url === '/page.html') response.writeHead(200, {'content-type': 'text/html'}).end('<html></html>');
		else response.writeHead(404).end();
	});
	await new Promise<void>(resolve => images.listen(0, '127.0.0.1', resolve));
	imageBase = `http://127.0.0.1:${(images.address() as {port: number}).port}`;
});
after(async () => {
	await gateway.close();
	images.close();
	await Promise.all(formats.map(format => providers[format].close()));
});
beforeEach(() => {
	for (const format of formats) providers[format].reset();
	gateway.finished.length = 0;
});

const post = (path: string, body: unknown, headers: Record<string, string>) => send(`${gateway.url}${path}`, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: JSON.stringify(body)});
const openaiPost = (body: unknown) => post('/v1/chat/completions', body, {authorization: `Bearer ${secret}`});
const anthropicPost = (body: unknown) => post('/v1/messages', body, {'x-api-key': secret, 'anthropic-version': '2023-06-01'});
const geminiPost = (model: string, body: unknown) => post(`/v1beta/models/${model}:generateContent`, body, {'x-goog-api-key': secret});
const lastBody = (format: Format) => providers[format].received.at(-1)!.body as Record<string, unknown>;
const weather = {type: 'function', function: {name: 'get_weather', parameters: {type: 'object', properties: {city: {type: 'string'}}, required: ['city']}}};

test('OpenAI settings reach Anthropic and Gemini in their own fields', async () => {
	const request = {messages: [{role: 'user', content: 'hi'}], max_tokens: 100, temperature: 0.5, top_p: 0.9, stop: ['END'], tools: [weather], tool_choice: {type: 'function', function: {name: 'get_weather'}}};
	assert.equal((await openaiPost({...request, model: 'to-anthropic'})).status, 200);
	const anthropic = lastBody('anthropic');
	assert.deepEqual([anthropic.max_tokens, anthropic.temperature, anthropic.top_p, anthropic.stop_sequences, anthropic.tool_choice], [100, 0.5, 0.9, ['END'], {type: 'tool', name: 'get_weather'}]);
	assert.equal((await openaiPost({...request, model: 'to-gemini'})).status, 200);
	const gemini = lastBody('gemini');
	assert.deepEqual(gemini.generationConfig, {maxOutputTokens: 100, temperature: 0.5, topP: 0.9, stopSequences: ['END']});
	assert.deepEqual(gemini.toolConfig, {functionCallingConfig: {mode: 'ANY', allowedFunctionNames: ['get_weather']}});
});

test('Anthropic requires max_tokens: the gateway supplies its default when an OpenAI or Gemini client gave none', async () => {
	await openaiPost({model: 'to-anthropic', messages: [{role: 'user', content: 'hi'}]});
	assert.equal(lastBody('anthropic').max_tokens, 8192);
	await geminiPost('to-anthropic', {contents: [{role: 'user', parts: [{text: 'hi'}]}]});
	assert.equal(lastBody('anthropic').max_tokens, 8192);
});

test('tool_choice required and none map to Anthropic any/none and Gemini ANY/NONE; Anthropic any maps to OpenAI required', async () => {
	await openaiPost({model: 'to-gemini', messages: [{role: 'user', content: 'hi'}], tools: [weather], tool_choice: 'required'});
	assert.equal((lastBody('gemini').toolConfig as {functionCallingConfig: {mode: string}}).functionCallingConfig.mode, 'ANY');
	await openaiPost({model: 'to-anthropic', messages: [{role: 'user', content: 'hi'}], tools: [weather], tool_choice: 'none'});
	assert.deepEqual(lastBody('anthropic').tool_choice, {type: 'none'});
	const tools = [{name: 'get_weather', input_schema: {type: 'object', properties: {city: {type: 'string'}}}}];
	await anthropicPost({model: 'to-openai', max_tokens: 50, messages: [{role: 'user', content: 'hi'}], tools, tool_choice: {type: 'any'}});
	assert.equal(lastBody('openai').tool_choice, 'required');
});

test('JSON schema output: OpenAI response_format → Gemini responseJsonSchema and Anthropic output_config', async () => {
	const schema = {type: 'object', properties: {answer: {type: 'string'}}, required: ['answer'], additionalProperties: false};
	const response_format = {type: 'json_schema', json_schema: {name: 'reply', schema, strict: true}};
	await openaiPost({model: 'to-gemini', messages: [{role: 'user', content: 'hi'}], response_format});
	const config = lastBody('gemini').generationConfig as Record<string, unknown>;
	assert.equal(config.responseMimeType, 'application/json');
	assert.deepEqual(config.responseJsonSchema, schema);
	await openaiPost({model: 'to-anthropic', messages: [{role: 'user', content: 'hi'}], response_format});
	assert.deepEqual(lastBody('anthropic').output_config, {format: {type: 'json_schema', schema}});
});

test('reasoning effort becomes Anthropic thinking and a Gemini thinking budget', async () => {
	await openaiPost({model: 'to-anthropic', messages: [{role: 'user', content: 'hi'}], reasoning_effort: 'high', max_completion_tokens: 4000});
	const anthropic = lastBody('anthropic');
	assert.equal((anthropic.thinking as {type: string}).type, 'enabled');
	const budget = (anthropic.thinking as {budget_tokens: number}).budget_tokens;
	assert.ok(budget >= 1024 && budget < (anthropic.max_tokens as number));
	await openaiPost({model: 'to-gemini', messages: [{role: 'user', content: 'hi'}], reasoning_effort: 'low'});
	const thinking = (lastBody('gemini').generationConfig as {thinkingConfig: {thinkingBudget: number; includeThoughts: boolean}}).thinkingConfig;
	assert.ok(thinking.thinkingBudget > 0);
	assert.equal(thinking.includeThoughts, true);
});

test("reasoning reaches each client's slot: OpenAI reasoning_content, Gemini thought parts", async () => {
	providers.anthropic.enqueue({thinking: {text: 'Let me think.', signature: 'sig-anthropic-1'}, text: 'Forty-two.'}, {thinking: {text: 'Let me think.', signature: 'sig-anthropic-1'}, text: 'Forty-two.'});
	const openai = await openaiPost({model: 'to-anthropic', messages: [{role: 'user', content: 'Meaning of life?'}]});
	const message = (openai.body as {choices: Array<{message: {content: string; reasoning_content: string}}>}).choices[0]!.message;
	assert.deepEqual([message.reasoning_content, message.content], ['Let me think.', 'Forty-two.']);
	const gemini = await geminiPost('to-anthropic', {contents: [{role: 'user', parts: [{text: 'Meaning of life?'}]}]});
	const parts = (gemini.body as {candidates: Array<{content: {parts: Array<{text: string; thought?: boolean}>}}>}).candidates[0]!.content.parts;
	assert.deepEqual(parts.map(part => [part.text, part.thought === true]), [['Let me think.', true], ['Forty-two.', false]]);
});

test("a Gemini tool call's thought signature goes back to Gemini through an Anthropic client; foreign signatures are dropped with a warning", async () => {
	const signature = Buffer.from('gemini-thought-signature-1').toString('base64');
	providers.gemini.enqueue({thinking: {text: 'Need weather.', signature}, toolCalls: [{name: 'get_weather', args: {city: 'Oslo'}}]});
	const client = anthropicClient(gateway.url, secret);
	const tools = [{name: 'get_weather', input_schema: {type: 'object' as const, properties: {city: {type: 'string'}}}}];
	const first = await client.messages.create({model: 'to-gemini', max_tokens: 500, tools, messages: [{role: 'user', content: 'Weather in Oslo?'}]});
	const use = first.content.find(block => block.type === 'tool_use');
	assert.ok(use?.type === 'tool_use');
	await client.messages.create({
		model: 'to-gemini',
		max_tokens: 500,
		tools,
		messages: [
			{role: 'user', content: 'Weather in Oslo?'},
			{role: 'assistant', content: [{type: 'thinking', thinking: 'Earlier Claude thought.', signature: 'anthropic-only-signature'}, ...first.content]},
			{role: 'user', content: [{type: 'tool_result', tool_use_id: use.id, content: 'snow'}]},
		],
	});
	const contents = lastBody('gemini').contents as Array<{role: string; parts: Array<{functionCall?: unknown; thoughtSignature?: string}>}>;
	const callPart = contents.find(content => content.role === 'model')!.parts.find(part => part.functionCall)!;
	assert.equal(callPart.thoughtSignature, signature, 'the signature Gemini made comes back to Gemini unchanged');
	assert.ok(!JSON.stringify(contents).includes('anthropic-only-signature'), 'an Anthropic signature never reaches Gemini');
	await eventually(() => gateway.finished.length === 2);
	assert.ok(gateway.finished[1]!.warnings.some(warning => /signature/i.test(warning)), `warnings: ${gateway.finished[1]!.warnings.join(' | ')}`);
});

test('a mid-stream upstream error reaches the client as an error in its own format', async () => {
	providers.anthropic.enqueue({text: 'partial answer that breaks', chunks: 5, midStreamError: {afterChunks: 4, message: 'Overloaded'}});
	const stream = await openaiClient(gateway.url, secret).chat.completions.create({model: 'to-anthropic', messages: [{role: 'user', content: 'hi'}], stream: true});
	let text = '';
	await assert.rejects(async () => {
		for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
	}, /Overloaded/);
	assert.ok(text.length > 0, 'the text before the error arrived');
	await eventually(() => gateway.finished.length === 1);
	assert.match(gateway.finished[0]!.error ?? '', /Overloaded/);
});

test('http images are fetched for Gemini (which needs inline bytes), with a clear 400 when they cannot be', async () => {
	const ask = (url: string) => openaiPost({model: 'to-gemini', messages: [{role: 'user', content: [{type: 'text', text: 'What is this?'}, {type: 'image_url', image_url: {url}}]}]});
	assert.equal((await ask(`${imageBase}/pixel.png`)).status, 200);
	const parts = (lastBody('gemini').contents as Array<{parts: Array<{inlineData?: {mimeType: string; data: string}}>}>)[0]!.parts;
	assert.deepEqual(parts.find(part => part.inlineData)!.inlineData, {mimeType: 'image/png', data: png.toString('base64')});
	for (const [path, reason] of [
		['/missing.png', /HTTP 404/],
		['/huge.png', /larger than/],
		['/page.html', /text\/html, not an image/],
	] as const) {
		const refused = await ask(`${imageBase}${path}`);
		assert.equal(refused.status, 400, path);
		assert.match((refused.body as {error: {message: string}}).error.message, reason);
		assert.match((refused.body as {error: {message: string}}).error.message, /send the image as a base64 data URL/);
	}
	assert.equal(providers.gemini.received.length, 1, 'refused images never go upstream');
});
