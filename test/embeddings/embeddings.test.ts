/**
 * Embeddings through the gateway, with the official SDKs: OpenAI `embeddings.create` and
 * @google/genai `models.embedContent`, passed through to a channel of their own format and
 * translated to the other; Anthropic-only models and models a key may not use are refused in the
 * client's format; usage is recorded (estimated where the provider reports none) and priced.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {eventually, geminiClient, openaiClient} from '../helpers/sdks.js';
import {addChannel} from '../../source/services/channels.js';
import {startFakeEmbeddings, vectorOf, type FakeEmbeddings} from './fake-embeddings.js';

let gateway: TestGateway;
let openai: FakeEmbeddings;
let gemini: FakeEmbeddings;
let secret: string;
let narrow: string;

before(async () => {
	[openai, gemini] = await Promise.all([startFakeEmbeddings('openai'), startFakeEmbeddings('gemini')]);
	gateway = await startTestGateway();
	await addChannel(gateway.store, {name: 'oa', format: 'openai', baseUrl: openai.url, apiKey: openai.apiKey, models: 'text-embedding-3-small', prices: ['text-embedding-3-small=0.02/0']});
	await addChannel(gateway.store, {name: 'gm', format: 'gemini', baseUrl: gemini.url, apiKey: gemini.apiKey, models: 'gemini-embedding-001'});
	await addChannel(gateway.store, {name: 'an', format: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-ant-x', models: 'claude-sonnet-4-6'});
	await gateway.registry.refresh();
	secret = (await gateway.createKey({name: 'embed'})).secret;
	narrow = (await gateway.createKey({name: 'chat-only', models: 'claude-sonnet-4-6'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all([openai.close(), gemini.close()]);
});
beforeEach(() => {
	gateway.finished.length = 0;
	openai.received.length = 0;
	gemini.received.length = 0;
});

const vectors = (list: ReadonlyArray<{embedding: number[]}>) => list.map(item => item.embedding);

test('openai SDK → OpenAI channel (passthrough): string, array, token ids; float and the default base64; dimensions', async () => {
	const client = openaiClient(gateway.url, secret);
	const one = await client.embeddings.create({model: 'text-embedding-3-small', input: 'hello world'});
	assert.deepEqual(vectors(one.data), [vectorOf('hello world')], 'base64 (the SDK default) decodes to the same float32 values');
	assert.equal((openai.received[0]!.body as {encoding_format?: string}).encoding_format, 'base64');
	assert.deepEqual([one.object, one.model, one.usage.prompt_tokens, one.usage.total_tokens], ['list', 'text-embedding-3-small', 2, 2]);
	const many = await client.embeddings.create({model: 'text-embedding-3-small', input: ['a', 'b c', 'd'], encoding_format: 'float', dimensions: 3});
	assert.deepEqual(many.data.map(item => item.index), [0, 1, 2]);
	assert.deepEqual(vectors(many.data), [vectorOf('a', 3), vectorOf('b c', 3), vectorOf('d', 3)]);
	const tokens = await client.embeddings.create({model: 'text-embedding-3-small', input: [[1, 2, 3], [4, 5]]});
	assert.deepEqual(vectors(tokens.data), [vectorOf('1,2,3'), vectorOf('4,5')]);
	await eventually(() => gateway.finished.length === 3);
	const [first] = gateway.finished;
	assert.deepEqual([first!.path, first!.channelName, first!.outboundFormat, first!.usage?.inputTokens, first!.costUsd], ['/v1/embeddings', 'oa', 'openai', 2, 0.04 / 1e6]);
});

test('openai SDK → Gemini channel (translated): order, dimensions ↔ outputDimensionality, usage estimated; token ids refused', async () => {
	const client = openaiClient(gateway.url, secret);
	const answer = await client.embeddings.create({model: 'gemini-embedding-001', input: ['first text', 'second'], dimensions: 5});
	assert.deepEqual(vectors(answer.data), [vectorOf('first text', 5), vectorOf('second', 5)]);
	assert.equal(answer.model, 'gemini-embedding-001');
	assert.ok(answer.usage.prompt_tokens > 0);
	const sent = gemini.received[0]!;
	assert.match(sent.path, /^\/v1beta\/models\/gemini-embedding-001:batchEmbedContents$/);
	assert.deepEqual((sent.body as {requests: Array<{outputDimensionality: number}>}).requests.map(item => item.outputDimensionality), [5, 5]);
	await eventually(() => gateway.finished.length === 1);
	assert.deepEqual([gateway.finished[0]!.usage?.estimated, gateway.finished[0]!.usage?.estimatedOnly], [true, 'input']);
	await assert.rejects(client.embeddings.create({model: 'gemini-embedding-001', input: [1, 2, 3]}), (error: {status?: number; message?: string}) => error.status === 400 && /token ids/.test(error.message ?? ''));
});

test('@google/genai embedContent → Gemini channel (passthrough) and → OpenAI channel (translated)', async () => {
	const ai = geminiClient(gateway.url, secret);
	const own = await ai.models.embedContent({model: 'gemini-embedding-001', contents: ['alpha', 'beta'], config: {outputDimensionality: 3, taskType: 'RETRIEVAL_DOCUMENT'}});
	assert.deepEqual(own.embeddings?.map(item => item.values), [vectorOf('alpha', 3), vectorOf('beta', 3)]);
	const other = await ai.models.embedContent({model: 'text-embedding-3-small', contents: ['alpha', 'beta']});
	assert.deepEqual(other.embeddings?.map(item => item.values), [vectorOf('alpha'), vectorOf('beta')]);
	const sent = openai.received.at(-1)!.body as {input: string[]; model: string};
	assert.deepEqual([sent.model, sent.input], ['text-embedding-3-small', ['alpha', 'beta']]);
	await eventually(() => gateway.finished.length === 2);
	assert.deepEqual(gateway.finished.map(event => [event.inboundFormat, event.outboundFormat]), [['gemini', 'gemini'], ['gemini', 'openai']]);
	assert.equal(gateway.finished[1]!.usage?.inputTokens, 2, 'the OpenAI provider counted them');
});

test('an Anthropic-only model is a 400 in each format; a key not allowed the model is a 403', async () => {
	await assert.rejects(openaiClient(gateway.url, secret).embeddings.create({model: 'claude-sonnet-4-6', input: 'x'}), (error: {status?: number; message?: string}) => error.status === 400 && /no embeddings API/.test(error.message ?? ''));
	await assert.rejects(geminiClient(gateway.url, secret).models.embedContent({model: 'claude-sonnet-4-6', contents: ['x']}), (error: Error) => /400/.test(error.message) && /no embeddings API/.test(error.message));
	await assert.rejects(openaiClient(gateway.url, narrow).embeddings.create({model: 'text-embedding-3-small', input: 'x'}), {status: 403});
});
