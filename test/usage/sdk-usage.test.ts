/**
 * Usage from real SDK traffic: the official SDKs talk through the gateway to strict fake providers,
 * streaming and not, same format and translated; the request log and the totals must carry exactly
 * the token counts the fakes reported (cached tokens converted to the IR's "included in input").
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, eventually, geminiClient, openaiClient} from '../helpers/sdks.js';
import {editChannel} from '../../source/services/channels.js';
import {recentRequests, usageSummary} from '../../source/store/usage-summary.js';
import {chunkSchema} from '../../source/store/usage.js';
import * as z from 'zod/mini';
import type {Format} from '../../source/base/ir.js';
import type {KeyRecord} from '../../source/base/records.js';

type Tokens = {input: number; output: number; cached: number; reasoning: number};
type Case = {client: Format; model: string; stream: boolean; tokens: Tokens};

let gateway: TestGateway;
let fakes: Record<Format, FakeProvider>;
let key: KeyRecord;

const models: Record<Format, string> = {openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5', gemini: 'gemini-2.5-flash'};
/** USD per 1M tokens; Gemini stays unpriced. */
const prices: Record<string, {input: number; output: number; cached: number}> = {
	'gpt-4o-mini': {input: 0.15, output: 0.6, cached: 0.075},
	'claude-haiku-4-5': {input: 1, output: 5, cached: 0.1},
};

before(async () => {
	const [openai, anthropic, gemini] = await Promise.all([startFakeProvider('openai'), startFakeProvider('anthropic'), startFakeProvider('gemini')]);
	fakes = {openai, anthropic, gemini};
	gateway = await startTestGateway();
	const oa = await gateway.addProvider(openai, {name: 'oa'});
	const an = await gateway.addProvider(anthropic, {name: 'an'});
	await gateway.addProvider(gemini, {name: 'ge'});
	await editChannel(gateway.store, oa.id, {prices: ['gpt-4o-mini=0.15/0.6/0.075']});
	await editChannel(gateway.store, an.id, {prices: ['claude-haiku-4-5=1/5/0.1']});
	await gateway.registry.refresh();
	key = await gateway.createKey({name: 'sdk-usage'});
});
after(async () => {
	await gateway.close();
	await Promise.all(Object.values(fakes).map(fake => fake.close()));
});

function formatOf(model: string): Format {
	return (Object.entries(models).find(([, name]) => name === model)![0]) as Format;
}

/** One call with the client's official SDK; the answer text proves the request completed. */
async function call(client: Format, model: string, stream: boolean): Promise<string> {
	const prompt = 'How many tokens?';
	if (client === 'openai') {
		const sdk = openaiClient(gateway.url, key.secret);
		if (!stream) return (await sdk.chat.completions.create({model, messages: [{role: 'user', content: prompt}]})).choices[0]!.message.content ?? '';
		let text = '';
		for await (const chunk of await sdk.chat.completions.create({model, messages: [{role: 'user', content: prompt}], stream: true})) text += chunk.choices[0]?.delta.content ?? '';
		return text;
	}
	if (client === 'anthropic') {
		const sdk = anthropicClient(gateway.url, key.secret);
		const params = {model, max_tokens: 200, messages: [{role: 'user' as const, content: prompt}]};
		const message = stream ? await sdk.messages.stream(params).finalMessage() : await sdk.messages.create(params);
		return message.content.map(block => (block.type === 'text' ? block.text : '')).join('');
	}
	const sdk = geminiClient(gateway.url, key.secret);
	if (!stream) return (await sdk.models.generateContent({model, contents: prompt})).text ?? '';
	let text = '';
	for await (const chunk of await sdk.models.generateContentStream({model, contents: prompt})) text += chunk.text ?? '';
	return text;
}

function expectedCost(model: string, tokens: Tokens): number {
	const price = prices[model];
	if (!price) return 0;
	return ((tokens.input - tokens.cached) * price.input + tokens.cached * price.cached + tokens.output * price.output) / 1e6;
}

const cases: Case[] = [];
let n = 0;
for (const client of ['openai', 'anthropic', 'gemini'] as const) {
	// Same format (passthrough) and one translated pair per client format.
	const translatedTo: Record<Format, Format> = {openai: 'anthropic', anthropic: 'gemini', gemini: 'openai'};
	for (const channel of [client, translatedTo[client]]) {
		for (const stream of [false, true]) {
			n += 1;
			// Anthropic reports no separate reasoning count; the others do.
			const reasoning = channel === 'anthropic' ? 0 : n;
			cases.push({client, model: models[channel], stream, tokens: {input: 1000 + n * 37, output: 50 + n * 3 + reasoning, cached: n % 3 === 0 ? 0 : 200 + n, reasoning}});
		}
	}
}

test('every format, streaming and not, same format and translated: records and totals carry the providers\' counts and costs', async () => {
	for (const item of cases) {
		const fake = fakes[formatOf(item.model)];
		fake.enqueue({text: `answer for ${item.client}`, chunks: 3, usage: item.tokens});
		const before = gateway.finished.length;
		const text = await call(item.client, item.model, item.stream);
		assert.equal(text, `answer for ${item.client}`, `${item.client} → ${item.model} stream=${item.stream}`);
		await eventually(() => gateway.finished.length === before + 1, 3000, 'request:finished');
	}
	await gateway.usage.flush();

	const records = await recentRequests(gateway.store, 100);
	assert.equal(records.length, cases.length);
	cases.forEach((item, index) => {
		const record = records.find(candidate => candidate.id === gateway.finished[index]!.id)!;
		const what = `${item.client} → ${item.model} stream=${item.stream}`;
		assert.deepEqual(
			[record.usage?.inputTokens, record.usage?.outputTokens, record.usage?.cachedTokens ?? 0, record.usage?.reasoningTokens ?? 0],
			[item.tokens.input, item.tokens.output, item.tokens.cached, item.tokens.reasoning],
			what,
		);
		assert.deepEqual([record.inboundFormat, record.outboundFormat, record.stream, record.status, record.eventType, record.keyName], [item.client, formatOf(item.model), item.stream, 200, 'routed', 'sdk-usage'], what);
		assert.ok(Math.abs(record.costUsd - expectedCost(item.model, item.tokens)) < 1e-12, `${what}: cost ${record.costUsd}`);
		assert.equal(record.unpriced, !prices[item.model], what);
		assert.ok(record.ttfbMs !== null && record.ttfbMs <= record.latencyMs, what);
	});

	const byModel = await usageSummary(gateway.store, {by: 'model'});
	for (const model of Object.values(models)) {
		const mine = cases.filter(item => item.model === model);
		const row = byModel.find(candidate => candidate.group === model)!;
		const sum = (field: keyof Tokens) => mine.reduce((total, item) => total + item.tokens[field], 0);
		assert.deepEqual(
			[row.requests, row.succeeded, row.failed, row.inputTokens, row.outputTokens, row.cachedTokens, row.reasoningTokens, row.unpriced],
			[mine.length, mine.length, 0, sum('input'), sum('output'), sum('cached'), sum('reasoning'), !prices[model]],
			model,
		);
		const cost = mine.reduce((total, item) => total + expectedCost(model, item.tokens), 0);
		assert.ok(Math.abs(row.costUsd - cost) < 1e-9, `${model}: ${row.costUsd} vs ${cost}`);
		assert.ok(row.latencyP50Ms !== null && row.latencyP95Ms !== null && row.latencyP50Ms <= row.latencyP95Ms);
	}
	const byChannel = await usageSummary(gateway.store, {by: 'channel'});
	assert.deepEqual(byChannel.map(row => row.group).sort(), ['an', 'ge', 'oa']);
	const [byKey] = await usageSummary(gateway.store, {by: 'key'});
	assert.deepEqual([byKey!.group, byKey!.id, byKey!.requests], ['sdk-usage', key.id, cases.length]);
});

test('an upstream error and an aborted stream are recorded as such', async () => {
	const before = await usageSummary(gateway.store, {by: 'channel'});
	fakes.openai.enqueue({error: {status: 500, message: 'boom'}});
	await assert.rejects(openaiClient(gateway.url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'x'}]}));

	fakes.anthropic.enqueue({text: 'one two three four five six', chunks: 6, chunkDelayMs: 150, usage: {input: 40, output: 6, cached: 0}});
	const stream = anthropicClient(gateway.url, key.secret).messages.stream({model: 'claude-haiku-4-5', max_tokens: 100, messages: [{role: 'user', content: 'x'}]});
	const ended = stream.done().catch((error: Error) => error.name);
	await new Promise<void>(resolve => stream.on('text', () => resolve()));
	stream.abort();
	assert.equal(await ended, 'APIUserAbortError');
	await eventually(() => gateway.finished.at(-1)?.outcome === 'aborted', 3000, 'the aborted request');
	await gateway.usage.flush();

	const [aborted, failed] = (await recentRequests(gateway.store, 2)).sort((a, b) => a.status - b.status);
	assert.ok(failed!.status >= 500, `status ${failed!.status}`);
	assert.deepEqual([failed!.outcome, failed!.eventType, failed!.costUsd, failed!.channelName], ['error', 'failed', 0, 'oa']);
	assert.match(failed!.error ?? '', /boom/);
	assert.deepEqual([aborted!.outcome, aborted!.stream, aborted!.model], ['aborted', true, 'claude-haiku-4-5']);
	const after = await usageSummary(gateway.store, {by: 'channel'});
	const row = (rows: typeof after, name: string) => rows.find(item => item.group === name)!;
	assert.equal(row(after, 'oa').failed - row(before, 'oa').failed, 1);
	assert.equal((row(after, 'an').aborted ?? 0) - (row(before, 'an').aborted ?? 0), 1);
});

test('every record the gateway wrote reads back as the object stored, checked in place (no field the check does not know)', async () => {
	await gateway.usage.flush();
	const stored = await gateway.store.collection('requests', z.looseObject({records: z.array(z.unknown())}), 'request log chunk').list();
	const records = stored.flatMap(chunk => chunk.records);
	assert.ok(records.length >= cases.length + 2, `${records.length} records`);
	for (const chunk of stored) {
		const parsed = chunkSchema.safeParse(chunk);
		assert.equal(parsed.success, true);
		assert.equal(parsed.data, chunk, 'the chunk taken whole');
		// Zod's object parser, which a record with any other field falls back to, returns a copy.
		parsed.data!.records.forEach((record, index) => assert.equal(record, chunk.records[index], `${record.inboundFormat} → ${record.outboundFormat} stream=${record.stream} ${record.status} ${record.outcome}`));
	}
});
