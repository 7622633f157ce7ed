/**
 * A passed-through stream that breaks after its first byte — cut off without its terminal event,
 * reset, or silent past the channel's idle limit — ends with the format's own error, so the official
 * SDK throws instead of returning half an answer as if complete. The break counts against the channel.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {addChannel} from '../../source/services/channels.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, geminiClient, openaiClient} from '../helpers/sdks.js';
import {frames, sse, startFaulty, stream, type FaultyProvider} from '../helpers/faulty-providers.js';

let gateway: TestGateway;
let secret = '';
const providers = {} as Record<'openai' | 'anthropic' | 'gemini' | 'responses', FaultyProvider>;

before(async () => {
	gateway = await startTestGateway({relay: {streamTimeouts: {firstByteMs: 2000, idleMs: 300}}, health: {threshold: 10_000, cooldownMs: 1}});
	for (const format of ['openai', 'anthropic', 'gemini', 'responses'] as const) providers[format] = await startFaulty();
	await addChannel(gateway.store, {name: 'openai', format: 'openai', baseUrl: `${providers.openai.url}/v1`, apiKey: 'sk-openai-real-key-0001', models: 'o=gpt-4o-mini'});
	await addChannel(gateway.store, {name: 'anthropic', format: 'anthropic', baseUrl: providers.anthropic.url, apiKey: 'sk-ant-real-key-0002', models: 'a=claude-sonnet-4-6'});
	await addChannel(gateway.store, {name: 'gemini', format: 'gemini', baseUrl: providers.gemini.url, apiKey: 'AIza-real-key-0003', models: 'g=gemini-2.5-flash'});
	await addChannel(gateway.store, {name: 'responses', format: 'openai', baseUrl: `${providers.responses.url}/v1`, apiKey: 'sk-resp-real-key-0004', models: 'r=gpt-4o-mini', responsesApi: 'on'});
	secret = (await gateway.createKey({name: 'streams'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all(Object.values(providers).map(provider => provider.close()));
});

const endings = ['close', 'reset', 'stall'] as const;

async function drain(iterable: AsyncIterable<unknown>): Promise<number> {
	let count = 0;
	for await (const _item of iterable) count++;
	return count;
}

for (const ending of endings) {
	test(`a passthrough stream that breaks (${ending}) makes every SDK throw`, async () => {
		const expected = ending === 'close' ? /before the answer was complete/ : ending === 'stall' ? /did not answer in time|BodyTimeout|time/i : /could not be reached|terminated|socket|reset/i;

		providers.openai.enqueue(stream(sse, [frames.openai('Hel')], ending));
		const openai = openaiClient(gateway.url, secret);
		await assert.rejects(drain(await openai.chat.completions.create({model: 'o', messages: [{role: 'user', content: `openai ${ending}`}], stream: true})), expected, 'openai chat');

		providers.anthropic.enqueue(stream(sse, [frames.anthropic('Hel')], ending));
		const anthropic = anthropicClient(gateway.url, secret);
		await assert.rejects(anthropic.messages.stream({model: 'a', max_tokens: 16, messages: [{role: 'user', content: `anthropic ${ending}`}]}).finalMessage(), expected, 'anthropic');

		providers.gemini.enqueue(stream(sse, [frames.gemini('Hel')], ending));
		const gemini = geminiClient(gateway.url, secret);
		await assert.rejects(drain(await gemini.models.generateContentStream({model: 'g', contents: `gemini ${ending}`})), expected, 'gemini (alt=sse)');

		providers.responses.enqueue(stream(sse, [frames.responses('Hel')], ending));
		await assert.rejects(openai.responses.stream({model: 'r', input: `responses ${ending}`}).finalResponse(), expected, 'responses');

		providers.gemini.enqueue(stream('application/json', [frames.geminiArrayStart('Hel')], ending));
		const response = await fetch(`${gateway.url}/v1beta/models/g:streamGenerateContent`, {method: 'POST', headers: {'x-goog-api-key': secret, 'content-type': 'application/json'}, body: JSON.stringify({contents: [{role: 'user', parts: [{text: `array ${ending}`}]}]})});
		const elements = JSON.parse(await response.text()) as Array<{error?: {message: string; status: string}}>;
		assert.match(elements.at(-1)?.error?.message ?? '', expected, "Gemini's JSON-array stream ends with an error element");
	});
}

test('a broken stream counts against its channel, logged as an error', async () => {
	const channel = gateway.registry.snapshot.channels.find(item => item.name === 'anthropic')!;
	const strict = await startTestGateway({home: gateway.home, health: {threshold: 2, cooldownMs: 60_000}, relay: {streamTimeouts: {firstByteMs: 2000, idleMs: 300}}});
	try {
		const key = (await strict.createKey({name: 'breaker'})).secret;
		for (let i = 0; i < 2; i++) {
			providers.anthropic.enqueue(stream(sse, [frames.anthropic('Hel')], 'close'));
			await anthropicClient(strict.url, key).messages.stream({model: 'a', max_tokens: 16, messages: [{role: 'user', content: `again ${i}`}]}).finalMessage().catch(() => {});
		}
		assert.equal(strict.health.stateOf(channel), 'unavailable', 'two broken streams in a row open the circuit');
		assert.ok(strict.finished.every(event => event.outcome === 'error' && /before the answer was complete/.test(event.error ?? '')));
	} finally {
		await strict.close();
	}
});

for (const ending of endings) {
	test(`a translated stream to or from Gemini that breaks (${ending}) makes the SDK throw`, async () => {
		const expected = ending === 'close' ? /ended without a finishReason|ended before message_stop|before the answer was complete/ : ending === 'stall' ? /did not answer in time|BodyTimeout|time/i : /could not be reached|terminated|socket|reset|broke/i;

		// OpenAI client, Gemini channel: Gemini's step decoder, OpenAI's step encoder.
		providers.gemini.enqueue(stream(sse, [frames.gemini('Hel')], ending));
		const openai = openaiClient(gateway.url, secret);
		await assert.rejects(drain(await openai.chat.completions.create({model: 'g', messages: [{role: 'user', content: `openai to gemini ${ending}`}], stream: true})), expected, 'openai client, gemini channel');

		// Gemini client (alt=sse and a JSON array), Anthropic channel: Anthropic's step decoder, Gemini's step encoder.
		providers.anthropic.enqueue(stream(sse, [frames.anthropic('Hel')], ending));
		const gemini = geminiClient(gateway.url, secret);
		await assert.rejects(drain(await gemini.models.generateContentStream({model: 'a', contents: `gemini to anthropic ${ending}`})), expected, 'gemini client (alt=sse), anthropic channel');

		providers.anthropic.enqueue(stream(sse, [frames.anthropic('Hel')], ending));
		const response = await fetch(`${gateway.url}/v1beta/models/a:streamGenerateContent`, {method: 'POST', headers: {'x-goog-api-key': secret, 'content-type': 'application/json'}, body: JSON.stringify({contents: [{role: 'user', parts: [{text: `array to anthropic ${ending}`}]}]})});
		const elements = JSON.parse(await response.text()) as Array<{error?: {message: string; status: string}; candidates?: unknown}>;
		assert.ok(elements[0]?.candidates, 'the text before the break came through');
		assert.match(elements.at(-1)?.error?.message ?? '', expected, "Gemini's JSON-array stream ends with an error element");
	});
}
