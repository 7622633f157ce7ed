/**
 * A stream that ends before the provider reported its usage — the client hangs up (Claude Code's
 * Esc), the provider's stream breaks off, or its error comes after some text — is recorded with what
 * it cost: the usage the provider did report, the rest estimated and marked so (the prompt with the
 * gateway's tokenizer, the output from the characters relayed). A stream that completes keeps the
 * provider's exact counts; the estimate reaches the key's token limits and its budget.
 * Real SDKs against the strict fakes, passed through and translated.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startFakeProvider, type FakeProvider, type FakeReply} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, eventually, geminiClient, openaiClient} from '../helpers/sdks.js';
import {send} from '../helpers/wire.js';
import {editChannel} from '../../source/services/channels.js';
import {recentRequests} from '../../source/store/usage-summary.js';
import {charsPerToken} from '../../source/proxy/tokenizer.js';
import type {RequestFinished} from '../../source/base/events.js';
import type {KeyRecord} from '../../source/base/records.js';

let gateway: TestGateway;
let openai: FakeProvider;
let anthropic: FakeProvider;
let gemini: FakeProvider;
let key: KeyRecord;

/** Six pieces 300 ms apart: the client hangs up after the first, long before the provider's usage. */
const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
const slow: FakeReply = {text, chunks: 6, chunkDelayMs: 300, usage: {input: 40, output: 30}};
const prompt = 'Write the Greek alphabet, slowly.';

before(async () => {
	[openai, anthropic, gemini] = await Promise.all([startFakeProvider('openai'), startFakeProvider('anthropic'), startFakeProvider('gemini')]);
	gateway = await startTestGateway();
	const oa = await gateway.addProvider(openai, {name: 'oa', models: 'gpt-4o-mini'});
	await gateway.addProvider(anthropic, {name: 'an', models: 'claude-haiku-4-5'});
	await gateway.addProvider(gemini, {name: 'ge', models: 'gemini-2.5-flash'});
	await editChannel(gateway.store, oa.id, {prices: ['gpt-4o-mini=1000/1000']});
	// Codex's path: the Responses API passed through to a channel that speaks it.
	const responses = await gateway.addProvider(openai, {name: 'oa-responses', models: 'gpt-4.1'});
	await editChannel(gateway.store, responses.id, {responsesApi: 'on'});
	await gateway.registry.refresh();
	key = await gateway.createKey({name: 'interrupted'});
});
after(async () => {
	await gateway.close();
	await Promise.all([openai, anthropic, gemini].map(fake => fake.close()));
});

/** The next finished request of `model`, once the gateway has recorded it. */
async function finishedOf(model: string, after: number): Promise<RequestFinished> {
	await eventually(() => gateway.finished.slice(after).some(event => event.model === model), 5000, `the record of ${model}`);
	return gateway.finished.slice(after).find(event => event.model === model)!;
}

/** What the client saw before it hung up: at least the first piece, at most the whole text. */
function assertOutputEstimate(event: RequestFinished, seen: string): void {
	const output = event.usage!.outputTokens;
	assert.ok(output >= Math.ceil(seen.length / charsPerToken), `output ${output} for ${JSON.stringify(seen)} seen`);
	assert.ok(output <= Math.ceil(text.length / charsPerToken), `output ${output}: more than the whole text`);
}

/** The prompt's estimate is the tokenizer's: a short prompt is a handful of tokens, never 0 or the fake's 40. */
function assertPromptEstimate(event: RequestFinished): void {
	const input = event.usage!.inputTokens;
	assert.ok(input > 5 && input < 30, `input ${input}`);
}

test('OpenAI client, passed through: the prompt and the text relayed are estimated (the provider reports usage only at the end)', async () => {
	openai.enqueue(slow);
	const start = gateway.finished.length;
	const stream = await openaiClient(gateway.url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: prompt}], stream: true, stream_options: {include_usage: true}});
	let seen = '';
	for await (const chunk of stream) {
		seen += chunk.choices[0]?.delta.content ?? '';
		if (seen) break;
	}
	const event = await finishedOf('gpt-4o-mini', start);
	assert.equal(event.outcome, 'aborted');
	assert.deepEqual([event.usage?.estimated, event.usage?.estimatedOnly], [true, undefined], `both counts are the gateway's: ${JSON.stringify(event.usage)}`);
	assertPromptEstimate(event);
	assertOutputEstimate(event, seen);
	assert.ok(event.costUsd > 0, 'priced: the estimate reaches the budget');
	assert.deepEqual(event.warnings, [], 'no translation warnings for a passed-through request');
	// 3 + 3 for the message + 33 characters at 4 a token: its texts counted, not tokenized.
	assert.equal(event.usage!.inputTokens, 15);
	assert.equal(gateway.tokenizer.loaded, false, 'a record is not worth loading the tokenizer’s tables (~35 MB, 0.1 s)');
});

test('a client that hangs up before any text still pays for its prompt: the prompt estimated, no output', async () => {
	openai.enqueue(slow);
	const start = gateway.finished.length;
	const stream = await openaiClient(gateway.url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: prompt}], stream: true});
	for await (const chunk of stream) {
		assert.equal(chunk.choices[0]?.delta.content ?? '', '', 'the first chunk opens the answer, with no text yet');
		break;
	}
	const event = await finishedOf('gpt-4o-mini', start);
	assert.deepEqual([event.outcome, event.usage?.outputTokens, event.usage?.estimated, event.usage?.estimatedOnly, event.error], ['aborted', 0, true, 'input', 'client disconnected before the answer was complete']);
	assertPromptEstimate(event);
});

test('a client that times out before its answer came still pays for its prompt — whole answers and streams, passed through and translated: estimated, no output', async () => {
	// The provider takes longer than the client waits: it has the request and is answering it.
	const late: FakeReply = {text, usage: {input: 40, output: 30}, hangMs: 1500};
	const calls: Array<[string, FakeProvider, string, () => Promise<unknown>]> = [
		['OpenAI client, passed through', openai, 'gpt-4o-mini', () => openaiClient(gateway.url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: prompt}]}, {timeout: 300})],
		['Anthropic client on the OpenAI channel', openai, 'gpt-4o-mini', () => anthropicClient(gateway.url, key.secret).messages.create({model: 'gpt-4o-mini', max_tokens: 100, messages: [{role: 'user', content: prompt}]}, {timeout: 300})],
		['OpenAI client streaming, before its first chunk', openai, 'gpt-4o-mini', () => openaiClient(gateway.url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: prompt}], stream: true}, {timeout: 300})],
		['OpenAI client streaming on the Anthropic channel, before its first chunk', anthropic, 'claude-haiku-4-5', () => openaiClient(gateway.url, key.secret).chat.completions.create({model: 'claude-haiku-4-5', messages: [{role: 'user', content: prompt}], stream: true}, {timeout: 300})],
	];
	for (const [name, provider, model, call] of calls) {
		provider.enqueue(late);
		const start = gateway.finished.length;
		await assert.rejects(call(), /timed out/i, name);
		const event = await finishedOf(model, start);
		assert.deepEqual([event.outcome, event.usage?.outputTokens, event.usage?.estimated, event.usage?.estimatedOnly], ['aborted', 0, true, 'input'], name);
		assertPromptEstimate(event);
	}
});

test('Anthropic client, passed through: message_start’s prompt is kept exact, the output estimated', async () => {
	anthropic.enqueue(slow);
	const start = gateway.finished.length;
	const stream = anthropicClient(gateway.url, key.secret).messages.stream({model: 'claude-haiku-4-5', max_tokens: 100, messages: [{role: 'user', content: prompt}]});
	const ended = stream.done().catch((error: Error) => error.name);
	const seen = await new Promise<string>(resolve => stream.on('text', delta => resolve(delta)));
	stream.abort();
	assert.equal(await ended, 'APIUserAbortError');
	const event = await finishedOf('claude-haiku-4-5', start);
	assert.equal(event.outcome, 'aborted');
	assert.equal(event.usage?.inputTokens, 40, 'the provider’s own count');
	assert.deepEqual([event.usage?.estimated, event.usage?.estimatedOnly], [true, 'output'], 'only the output is the gateway’s');
	assertOutputEstimate(event, seen);
});

test('Responses API, passed through (Codex): usage comes only in response.completed, so both sides are estimated', async () => {
	openai.enqueue(slow);
	const start = gateway.finished.length;
	const stream = await openaiClient(gateway.url, key.secret).responses.create({model: 'gpt-4.1', input: prompt, stream: true});
	let seen = '';
	for await (const event of stream) {
		if (event.type === 'response.output_text.delta') seen += event.delta;
		if (seen) break;
	}
	const event = await finishedOf('gpt-4.1', start);
	assert.deepEqual([event.outcome, event.inboundFormat, event.outboundFormat, event.usage?.estimated], ['aborted', 'responses', 'openai', true]);
	assertPromptEstimate(event);
	assertOutputEstimate(event, seen);
	assert.equal(openai.received.at(-1)?.path, '/v1/responses', 'passed through, not translated');

	// Translated: Codex on an Anthropic channel.
	anthropic.enqueue(slow);
	const next = gateway.finished.length;
	let text2 = '';
	for await (const streamed of await openaiClient(gateway.url, key.secret).responses.create({model: 'claude-haiku-4-5', input: prompt, stream: true})) {
		if (streamed.type === 'response.output_text.delta') text2 += streamed.delta;
		if (text2) break;
	}
	const translated = await finishedOf('claude-haiku-4-5', next);
	assert.deepEqual([translated.outcome, translated.inboundFormat, translated.outboundFormat, translated.usage?.inputTokens, translated.usage?.estimatedOnly], ['aborted', 'responses', 'anthropic', 40, 'output']);
	assertOutputEstimate(translated, text2);
});

test('Gemini client, passed through: the prompt count every chunk carries is kept, the output estimated', async () => {
	gemini.enqueue(slow);
	const start = gateway.finished.length;
	const controller = new AbortController();
	const stream = await geminiClient(gateway.url, key.secret).models.generateContentStream({model: 'gemini-2.5-flash', contents: prompt, config: {abortSignal: controller.signal}});
	let seen = '';
	try {
		for await (const chunk of stream) {
			seen += chunk.text ?? '';
			if (seen) controller.abort();
		}
	} catch (error) {
		assert.match((error as Error).name, /Abort/);
	}
	const event = await finishedOf('gemini-2.5-flash', start);
	assert.equal(event.outcome, 'aborted');
	assert.equal(event.usage?.inputTokens, 40);
	assert.deepEqual([event.usage?.estimated, event.usage?.estimatedOnly], [true, 'output']);
	assertOutputEstimate(event, seen);
});

test('translated both ways: an Anthropic client on the OpenAI channel, an OpenAI client on the Anthropic channel', async () => {
	openai.enqueue(slow);
	let start = gateway.finished.length;
	const stream = anthropicClient(gateway.url, key.secret).messages.stream({model: 'gpt-4o-mini', max_tokens: 100, messages: [{role: 'user', content: prompt}]});
	let told: number | undefined;
	stream.on('streamEvent', streamed => {
		if (streamed.type === 'message_start') told = streamed.message.usage.input_tokens;
	});
	const ended = stream.done().catch(() => undefined);
	const seen = await new Promise<string>(resolve => stream.on('text', delta => resolve(delta)));
	stream.abort();
	await ended;
	let event = await finishedOf('gpt-4o-mini', start);
	assert.deepEqual([event.outcome, event.outboundFormat, event.usage?.estimated], ['aborted', 'openai', true]);
	assertPromptEstimate(event);
	assert.equal(event.usage!.inputTokens, told, 'the prompt as message_start told the client (the tokenizer, loaded for it)');
	assertOutputEstimate(event, seen);

	anthropic.enqueue(slow);
	start = gateway.finished.length;
	const chunks = await openaiClient(gateway.url, key.secret).chat.completions.create({model: 'claude-haiku-4-5', messages: [{role: 'user', content: prompt}], stream: true});
	let text2 = '';
	for await (const chunk of chunks) {
		text2 += chunk.choices[0]?.delta.content ?? '';
		if (text2) break;
	}
	event = await finishedOf('claude-haiku-4-5', start);
	assert.deepEqual([event.outcome, event.outboundFormat, event.usage?.inputTokens, event.usage?.estimatedOnly], ['aborted', 'anthropic', 40, 'output']);
	assertOutputEstimate(event, text2);
});

test('a stream that completes keeps the provider’s exact counts, not marked estimated', async () => {
	openai.enqueue({...slow, chunkDelayMs: 0});
	const start = gateway.finished.length;
	let seen = '';
	for await (const chunk of await openaiClient(gateway.url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: prompt}], stream: true, stream_options: {include_usage: true}})) seen += chunk.choices[0]?.delta.content ?? '';
	assert.equal(seen, text);
	const event = await finishedOf('gpt-4o-mini', start);
	assert.deepEqual([event.outcome, event.usage], ['ok', {inputTokens: 40, outputTokens: 30}]);
});

test('a provider error after some text is estimated; one before any text is not (nothing was generated)', async () => {
	openai.enqueue({...slow, chunkDelayMs: 10, midStreamError: {afterChunks: 2, message: 'overloaded'}});
	let start = gateway.finished.length;
	const request = (model: string) => send(`${gateway.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${key.secret}`}, body: JSON.stringify({model, messages: [{role: 'user', content: prompt}], stream: true})});
	await request('gpt-4o-mini');
	let event = await finishedOf('gpt-4o-mini', start);
	assert.match(event.error ?? '', /overloaded/);
	assert.equal(event.usage?.estimated, true, JSON.stringify(event.usage));
	assert.ok(event.usage!.outputTokens > 0);

	openai.enqueue({...slow, chunkDelayMs: 10, midStreamError: {afterChunks: 0, message: 'overloaded'}});
	start = gateway.finished.length;
	await request('gpt-4o-mini');
	event = await finishedOf('gpt-4o-mini', start);
	assert.equal(event.usage?.estimated, undefined, JSON.stringify(event.usage));
});

test('the estimate counts against the key’s token limit and is stored marked as estimated', async () => {
	// The prompt alone is estimated at more than 5 tokens (assertPromptEstimate): the next request is over.
	const limited = await gateway.createKey({name: 'tpm', tpm: '5'});
	openai.enqueue(slow);
	const start = gateway.finished.length;
	const stream = await openaiClient(gateway.url, limited.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: prompt}], stream: true});
	for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break;
	const event = await finishedOf('gpt-4o-mini', start);
	const tokens = event.usage!.inputTokens + event.usage!.outputTokens;
	assertPromptEstimate(event);
	const live = gateway.registry.snapshot.keysById.get(limited.id)!;
	await eventually(() => gateway.limiter.use(live).tpm === tokens, 3000, 'the limiter counting the estimate');
	const refused = await send(`${gateway.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${limited.secret}`}, body: JSON.stringify({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'x'}]})});
	assert.equal(refused.status, 429, refused.text);
	assert.match(refused.text, new RegExp(`5 tokens per minute \\(used ${tokens}\\)`));
	await gateway.usage.flush();
	// Every estimate of this file, both counts or one (`estimatedOnly`), reads back from the store as recorded.
	const stored = new Map((await recentRequests(gateway.store, 100)).map(record => [record.id, record]));
	const estimates = gateway.finished.filter(finished => finished.usage?.estimated);
	assert.ok(estimates.some(finished => finished.usage?.estimatedOnly === 'output') && estimates.some(finished => finished.usage?.estimatedOnly === undefined));
	for (const finished of estimates) assert.deepEqual(stored.get(finished.id)?.usage, finished.usage, finished.id);
	assert.ok(stored.has(event.id));
});
