/**
 * Stored Responses conversations: the openai SDK chains `previous_response_id` through translated
 * channels (Anthropic, Gemini, and across them after a failover), retrieves, lists the input items
 * of and deletes what the gateway kept — per key, across a restart, within retention and a size cap.
 */
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {after, before, beforeEach, describe, test} from 'node:test';
import type OpenAI from 'openai';
import {APIError} from 'openai';
import type {Response, ResponseItem} from 'openai/resources/responses/responses';
import type {Clock} from '../../source/base/clock.js';
import type {Format} from '../../source/base/ir.js';
import {startGateway, type Gateway, type GatewayOptions} from '../../source/proxy/gateway.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {listTurnIndex} from '../../source/store/responses.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, tempHome, type TestGateway} from '../helpers/gateway.js';
import {openaiClient} from '../helpers/sdks.js';

type Line = {readonly role: string; readonly text: string};
type Loose = Record<string, unknown>;
const list = (value: unknown): Loose[] => (Array.isArray(value) ? (value as Loose[]) : []);
const joined = (parts: unknown): string => (typeof parts === 'string' ? parts : list(parts).map(part => String(part.text ?? '')).join(''));

/** The conversation a provider received, in its own wire: system prompt, then each turn's role and text. */
function conversationSeen(format: Format, body: unknown): {system: string; lines: Line[]} {
	const request = body as Loose;
	if (format === 'anthropic') return {system: joined(request.system), lines: list(request.messages).map(message => ({role: String(message.role), text: joined(message.content)}))};
	if (format === 'gemini') return {system: joined((request.systemInstruction as Loose | undefined)?.parts), lines: list(request.contents).map(content => ({role: content.role === 'model' ? 'assistant' : 'user', text: joined(content.parts)}))};
	throw new Error(`no reader for ${format}`);
}

/** `store` is on the wire but not in the SDK's Response type. */
const storeOf = (response: Response): unknown => (response as Response & Loose).store;

const withoutOutputText = (response: Response): Loose => {
	const {output_text: _text, ...rest} = response as Response & Loose;
	return rest;
};

async function allItems(client: OpenAI, id: string, query: {order?: 'asc' | 'desc'; limit?: number} = {}): Promise<ResponseItem[]> {
	const items: ResponseItem[] = [];
	for await (const item of client.responses.inputItems.list(id, query)) items.push(item);
	return items;
}

const itemText = (item: ResponseItem): string => ('content' in item && Array.isArray(item.content) ? item.content.map(part => ('text' in part ? part.text : '')).join('') : '');

let gateway: TestGateway;
let client: OpenAI;
let other: OpenAI;
const providers = {} as Record<'anthropic' | 'gemini', FakeProvider>;

before(async () => {
	gateway = await startTestGateway();
	providers.anthropic = await startFakeProvider('anthropic');
	providers.gemini = await startFakeProvider('gemini');
	// `to-*` starts on one format and fails over to the other: the first has the higher priority.
	await gateway.addProvider(providers.anthropic, {name: 'anthropic', models: 'via-anthropic=claude-haiku-4-5,to-anthropic=claude-haiku-4-5', priority: 0});
	await gateway.addProvider(providers.gemini, {name: 'gemini', models: 'via-gemini=gemini-2.5-flash,to-gemini=gemini-2.5-flash', priority: 0});
	await gateway.addProvider(providers.anthropic, {name: 'anthropic-first', models: 'to-gemini=claude-haiku-4-5', priority: 10});
	await gateway.addProvider(providers.gemini, {name: 'gemini-first', models: 'to-anthropic=gemini-2.5-flash', priority: 10});
	client = openaiClient(gateway.url, (await gateway.createKey({name: 'owner'})).secret);
	other = openaiClient(gateway.url, (await gateway.createKey({name: 'stranger'})).secret);
});
after(async () => {
	await gateway.close();
	await Promise.all(Object.values(providers).map(provider => provider.close()));
});
beforeEach(() => {
	for (const provider of Object.values(providers)) provider.reset();
});

const scenarios = [
	{first: 'anthropic', then: 'gemini', model: 'to-gemini'},
	{first: 'gemini', then: 'anthropic', model: 'to-anthropic'},
] as const;

for (const {first, then, model} of scenarios) {
	for (const stream of [false, true]) {
		test(`three turns chained by previous_response_id on ${first}, the third after a failover to ${then} (${stream ? 'streamed' : 'not streamed'})`, async () => {
			const create = async (body: OpenAI.Responses.ResponseCreateParamsNonStreaming): Promise<Response> =>
				stream ? client.responses.stream({...body, stream: true} as OpenAI.Responses.ResponseCreateParamsStreaming).finalResponse() : client.responses.create(body);
			// A question of its own: the gateway pins a conversation (recognised by its first message) to the channel that served it last.
			const question = `Capital of France? (${first}, ${stream ? 'streamed' : 'whole'})`;
			providers[first].enqueue({text: 'Paris.'}, {text: 'About two million.'}, {error: {status: 500}});
			providers[then].enqueue({text: 'The Seine.'});
			const one = await create({model, instructions: 'Answer in one word.', input: question});
			const two = await create({model, instructions: 'Answer with a number.', input: [{role: 'user', content: 'Its population?'}], previous_response_id: one.id});
			assert.deepEqual([storeOf(one), one.previous_response_id, storeOf(two), two.previous_response_id], [true, null, true, one.id]);
			assert.deepEqual(conversationSeen(first, providers[first].received.at(-1)!.body), {
				system: 'Answer with a number.',
				lines: [
					{role: 'user', text: question},
					{role: 'assistant', text: 'Paris.'},
					{role: 'user', text: 'Its population?'},
				],
			});
			const three = await create({model, input: 'Which river?', previous_response_id: two.id});
			assert.equal(three.output_text, 'The Seine.');
			assert.equal(providers[first].received.length, 3, 'the third turn went to the first channel and failed');
			// The channel of the other format got the whole conversation, and none of the earlier turns' instructions.
			assert.deepEqual(conversationSeen(then, providers[then].received.at(-1)!.body), {
				system: '',
				lines: [
					{role: 'user', text: question},
					{role: 'assistant', text: 'Paris.'},
					{role: 'user', text: 'Its population?'},
					{role: 'assistant', text: 'About two million.'},
					{role: 'user', text: 'Which river?'},
				],
			});
			assert.equal((await client.responses.retrieve(three.id)).previous_response_id, two.id);
		});
	}
}

describe('stored responses: retrieve, input items, delete, scope', () => {
	test('responses.retrieve gives the Response as it was answered, streamed or not', async () => {
		const plain = await client.responses.create({model: 'via-anthropic', input: 'hi', metadata: {run: '1'}});
		assert.deepEqual(withoutOutputText(await client.responses.retrieve(plain.id)), withoutOutputText(plain));
		const streamed = await client.responses.stream({model: 'via-gemini', input: 'hi'}).finalResponse();
		const retrieved = await client.responses.retrieve(streamed.id);
		assert.deepEqual([retrieved.id, retrieved.status, retrieved.output_text, retrieved.output.map(item => item.id)], [streamed.id, 'completed', 'Hello from fake-gemini', streamed.output.map(item => item.id)]);
		assert.deepEqual(retrieved.usage, streamed.usage);
	});

	test('responses.inputItems.list: the conversation up to the response, newest first, paged with limit and after', async () => {
		providers.anthropic.enqueue({text: 'first answer'}, {text: 'second answer'});
		const one = await client.responses.create({model: 'via-anthropic', instructions: 'not an item', input: 'first question'});
		const two = await client.responses.create({model: 'via-anthropic', input: [{role: 'user', content: [{type: 'input_text', text: 'second question'}]}], previous_response_id: one.id});
		const newest = await allItems(client, two.id);
		assert.deepEqual(newest.map(item => [item.type, 'role' in item ? item.role : '', itemText(item)]), [
			['message', 'user', 'second question'],
			['message', 'assistant', 'first answer'],
			['message', 'user', 'first question'],
		]);
		assert.ok(newest.every(item => typeof item.id === 'string' && item.id.startsWith('msg_')));
		assert.equal(newest[1]!.id, one.output[0]!.id, 'an earlier output item keeps its id');
		const oldest = await allItems(client, two.id, {order: 'asc', limit: 1});
		assert.deepEqual(oldest.map(item => item.id), newest.map(item => item.id).reverse());
		const page = await client.responses.inputItems.list(two.id, {order: 'asc', limit: 2});
		assert.deepEqual([page.data.length, page.has_more], [2, true]);
		const key = (client as unknown as {apiKey: string}).apiKey;
		const raw = (await (await fetch(`${gateway.url}/v1/responses/${two.id}/input_items?limit=2&after=${newest[0]!.id}`, {headers: {authorization: `Bearer ${key}`}})).json()) as Loose;
		assert.deepEqual(raw, {object: 'list', data: newest.slice(1, 3), first_id: newest[1]!.id, last_id: newest[2]!.id, has_more: false});
		assert.deepEqual((await allItems(client, one.id)).map(itemText), ['first question']);
	});

	test('responses.delete removes it (OpenAI\'s deletion object); then it is a 404 everywhere', async () => {
		const doomed = await client.responses.create({model: 'via-gemini', input: 'forget me'});
		const key = (client as unknown as {apiKey: string}).apiKey;
		const answer = await fetch(`${gateway.url}/v1/responses/${doomed.id}`, {method: 'DELETE', headers: {authorization: `Bearer ${key}`}});
		assert.deepEqual([answer.status, await answer.json()], [200, {id: doomed.id, object: 'response', deleted: true}]);
		const notFound = (error: unknown) => error instanceof APIError && error.status === 404 && error.message.includes(`Response with id '${doomed.id}' not found.`);
		await assert.rejects(client.responses.retrieve(doomed.id), notFound);
		await assert.rejects(client.responses.delete(doomed.id), notFound);
		await assert.rejects(client.responses.inputItems.list(doomed.id), notFound);
		await assert.rejects(client.responses.create({model: 'via-gemini', input: 'and?', previous_response_id: doomed.id}), (error: unknown) => error instanceof APIError && error.status === 400 && error.code === 'previous_response_not_found');
		await gateway.kept.flush();
		assert.ok(!(await listTurnIndex(gateway.store)).some(entry => entry.id === doomed.id));
		const kept = await client.responses.create({model: 'via-gemini', input: 'keep me'});
		await gateway.kept.flush();
		await client.responses.delete(kept.id);
		await assert.rejects(client.responses.retrieve(kept.id), (error: unknown) => error instanceof APIError && error.status === 404);
	});

	test('another key cannot see, continue, list or delete it: a 404 exactly as for an id never kept', async () => {
		const mine = await client.responses.create({model: 'via-anthropic', input: 'secret plans'});
		const answers = await Promise.all([other.responses.retrieve(mine.id), other.responses.retrieve('resp_never')].map(call => call.then(() => null, (error: APIError) => [error.status, error.message.replace(/'[^']+'/, 'ID')])));
		assert.deepEqual(answers[0], [404, '404 Response with id ID not found. Only the key that created a response can read it, and only until retention removes it.']);
		assert.deepEqual(answers[0], answers[1]);
		await assert.rejects(other.responses.delete(mine.id), (error: unknown) => error instanceof APIError && error.status === 404);
		await assert.rejects(other.responses.inputItems.list(mine.id), (error: unknown) => error instanceof APIError && error.status === 404);
		await assert.rejects(other.responses.create({model: 'via-anthropic', input: 'tell me', previous_response_id: mine.id}), (error: unknown) => error instanceof APIError && error.status === 400 && error.code === 'previous_response_not_found');
		assert.equal((await client.responses.retrieve(mine.id)).id, mine.id);
	});

	test('store: false keeps nothing, in memory or in the store', async () => {
		await gateway.kept.flush();
		const before = (await listTurnIndex(gateway.store)).length;
		const gone = await client.responses.create({model: 'via-anthropic', input: 'ephemeral', store: false});
		const streamed = await client.responses.stream({model: 'via-gemini', input: 'ephemeral', store: false}).finalResponse();
		assert.deepEqual([storeOf(gone), storeOf(streamed)], [false, false]);
		for (const id of [gone.id, streamed.id]) await assert.rejects(client.responses.retrieve(id), (error: unknown) => error instanceof APIError && error.status === 404);
		await gateway.kept.flush();
		assert.equal((await listTurnIndex(gateway.store)).length, before);
	});
});

describe('stored responses: a Responses-native channel', () => {
	let openai: FakeProvider;
	before(async () => {
		openai = await startFakeProvider('openai');
		await addChannel(gateway.store, {name: 'openai-native', format: 'openai', baseUrl: openai.url, apiKey: openai.apiKey, models: 'via-native=gpt-4o-mini', responsesApi: 'on'});
		await gateway.registry.refresh();
	});
	after(() => openai.close());

	test('a kept conversation continues there as the whole input, without previous_response_id; its answer is the provider\'s to keep', async () => {
		providers.gemini.enqueue({text: 'Forty-two.'});
		const one = await client.responses.create({model: 'via-gemini', instructions: 'Be terse.', input: 'The answer?'});
		const two = await client.responses.create({model: 'via-native', input: 'And the question?', previous_response_id: one.id});
		const sent = openai.received.at(-1)!.body as Loose;
		assert.equal(openai.received.at(-1)!.path, '/v1/responses');
		assert.equal(sent.previous_response_id, undefined);
		assert.equal(sent.instructions, undefined);
		assert.deepEqual(sent.input, [
			{type: 'message', role: 'user', content: [{type: 'input_text', text: 'The answer?'}]},
			{type: 'message', role: 'assistant', content: [{type: 'output_text', text: 'Forty-two.', annotations: [], logprobs: []}]},
			{role: 'user', content: 'And the question?'},
		]);
		assert.equal(two.output_text, 'Hello from fake-openai');
		await assert.rejects(client.responses.retrieve(two.id), (error: unknown) => error instanceof APIError && error.status === 404);
	});
});

/** A gateway on `home` with an Anthropic channel and a key (made on the first start, found again after a restart). */
async function startOn(home: string, provider: FakeProvider, options: Partial<GatewayOptions> = {}, secret?: string): Promise<{gateway: Gateway; client: OpenAI; secret: string}> {
	const started = await startGateway({home, host: '127.0.0.1', port: 0, ...options});
	let key = secret;
	if (!key) {
		await addChannel(started.store, {name: 'anthropic', format: 'anthropic', baseUrl: provider.url, apiKey: provider.apiKey, models: 'chat=claude-haiku-4-5'});
		key = (await createKey(started.store, {name: 'owner'})).secret;
		await started.registry.refresh();
	}
	return {gateway: started, client: openaiClient(started.url, key), secret: key};
}

describe('stored responses: restart, retention, size cap', () => {
	let provider: FakeProvider;
	before(async () => {
		provider = await startFakeProvider('anthropic');
	});
	after(() => provider.close());

	test('a stored conversation survives a gateway restart on the same store', async () => {
		const home = tempHome();
		try {
			const first = await startOn(home, provider);
			provider.enqueue({text: 'Noted: blue.'});
			const one = await first.client.responses.create({model: 'chat', input: 'My favourite colour is blue.'});
			await first.gateway.close();
			const second = await startOn(home, provider, {}, first.secret);
			try {
				assert.equal((await second.client.responses.retrieve(one.id)).output_text, 'Noted: blue.');
				await second.client.responses.create({model: 'chat', input: 'What is my favourite colour?', previous_response_id: one.id});
				assert.deepEqual(conversationSeen('anthropic', provider.received.at(-1)!.body).lines, [
					{role: 'user', text: 'My favourite colour is blue.'},
					{role: 'assistant', text: 'Noted: blue.'},
					{role: 'user', text: 'What is my favourite colour?'},
				]);
			} finally {
				await second.gateway.close();
			}
		} finally {
			rmSync(home, {recursive: true, force: true});
		}
	});

	test('retention removes conversations whose last turn is older than the limit, each as a whole', async () => {
		const day = 86_400_000;
		let now = Date.parse('2026-01-01T00:00:00Z');
		const clock: Clock = {now: () => now, every: () => () => {}};
		const home = tempHome();
		const {gateway: kept, client: owner} = await startOn(home, provider, {clock, responses: {maxDays: 30}});
		try {
			const alone = await owner.responses.create({model: 'chat', input: 'old and alone'});
			const start = await owner.responses.create({model: 'chat', input: 'old, continued later'});
			now += 20 * day;
			const later = await owner.responses.create({model: 'chat', input: 'and later', previous_response_id: start.id});
			now += 11 * day;
			await kept.kept.sweep();
			await assert.rejects(owner.responses.retrieve(alone.id), (error: unknown) => error instanceof APIError && error.status === 404);
			assert.deepEqual((await listTurnIndex(kept.store)).map(entry => entry.id).sort(), [start.id, later.id].sort(), 'a conversation active 11 days ago is kept whole');
			assert.equal((await owner.responses.retrieve(start.id)).id, start.id);
			now += 20 * day;
			await kept.kept.sweep();
			assert.deepEqual(await listTurnIndex(kept.store), []);
			await assert.rejects(owner.responses.retrieve(later.id), (error: unknown) => error instanceof APIError && error.status === 404);
		} finally {
			await kept.close();
			rmSync(home, {recursive: true, force: true});
		}
	});

	test('past the size cap, the conversations used longest ago are removed first', async () => {
		const home = tempHome();
		const {gateway: kept, client: owner} = await startOn(home, provider, {responses: {maxBytes: 100_000}});
		try {
			const big = (label: string) => `${label} ${'x'.repeat(30_000)}`;
			const ids: string[] = [];
			for (const label of ['oldest', 'middle', 'newest']) {
				ids.push((await owner.responses.create({model: 'chat', input: big(label)})).id);
				await kept.kept.flush();
			}
			await kept.kept.sweep();
			const index = await listTurnIndex(kept.store);
			assert.deepEqual(index.map(entry => entry.id).sort(), ids.slice(1).sort());
			assert.ok(index.reduce((sum, entry) => sum + entry.bytes, 0) <= 100_000);
			await assert.rejects(owner.responses.retrieve(ids[0]!), (error: unknown) => error instanceof APIError && error.status === 404);
		} finally {
			await kept.close();
			rmSync(home, {recursive: true, force: true});
		}
	});
});
