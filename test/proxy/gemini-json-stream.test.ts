/**
 * Gemini's streamGenerateContent without `alt=sse` answers with a JSON array, streamed element by
 * element: passed through from a Gemini channel (usage read from the array on the side) and
 * translated from another format's channel.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {eventually} from '../helpers/sdks.js';

let gateway: TestGateway;
let gemini: FakeProvider;
let anthropic: FakeProvider;
let secret: string;

before(async () => {
	[gemini, anthropic] = await Promise.all([startFakeProvider('gemini'), startFakeProvider('anthropic')]);
	gateway = await startTestGateway();
	await gateway.addProvider(gemini, {models: 'gemini-2.5-flash'});
	await gateway.addProvider(anthropic, {models: 'claude-haiku-4-5'});
	secret = (await gateway.createKey({name: 'array'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all([gemini.close(), anthropic.close()]);
});

async function streamArray(model: string): Promise<{contentType: string; elements: Array<{candidates?: Array<{content: {parts: Array<{text?: string}>}}>}>}> {
	const response = await fetch(`${gateway.url}/v1beta/models/${model}:streamGenerateContent`, {
		method: 'POST',
		headers: {'content-type': 'application/json', 'x-goog-api-key': secret},
		body: JSON.stringify({contents: [{role: 'user', parts: [{text: 'hi'}]}]}),
	});
	assert.equal(response.status, 200);
	return {contentType: response.headers.get('content-type') ?? '', elements: (await response.json()) as never};
}

const text = (elements: Awaited<ReturnType<typeof streamArray>>['elements']) => elements.map(element => element.candidates?.[0]?.content.parts.map(part => part.text ?? '').join('') ?? '').join('');

for (const [label, model, provider] of [
	['passed through from a Gemini channel', 'gemini-2.5-flash', () => gemini],
	['translated from an Anthropic channel', 'claude-haiku-4-5', () => anthropic],
] as const) {
	test(`a JSON-array stream, ${label}, with usage recorded`, async () => {
		provider().enqueue({text: 'one two three', chunks: 3, usage: {input: 21, output: 9}});
		const {contentType, elements} = await streamArray(model);
		assert.match(contentType, /application\/json/);
		assert.ok(elements.length >= 3, `${elements.length} elements`);
		assert.equal(text(elements), 'one two three');
		const upstream = provider().received.at(-1)!;
		if (model === 'gemini-2.5-flash') assert.deepEqual([upstream.path, upstream.query.alt], ['/v1beta/models/gemini-2.5-flash:streamGenerateContent', undefined], 'passthrough keeps the client\'s framing');
		else assert.deepEqual([upstream.path, (upstream.body as {stream: boolean}).stream], ['/v1/messages', true]);
		await eventually(() => gateway.finished.some(event => event.model === model && event.usage?.inputTokens === 21 && event.usage.outputTokens === 9), 2000, 'usage');
	});
}
