/**
 * Every failure that reaches the client with nothing fails over: a reset connection, a body cut
 * short, a 200 that is not JSON (or not a stream), a redirect (never followed), a stream that ends
 * or stalls before its first byte — passthrough (OpenAI client, OpenAI channels) and translated
 * (Anthropic client, OpenAI channels), streamed and not. The backup answers; the log shows both.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, eventually, openaiClient} from '../helpers/sdks.js';
import {json, raw, redirect, reset, silent, sse, startFaulty, stream, truncated, type FaultyProvider, type Play} from '../helpers/faulty-providers.js';

let gateway: TestGateway;
let faulty: FaultyProvider;
let backup: FakeProvider;
let secret = '';

before(async () => {
	faulty = await startFaulty();
	backup = await startFakeProvider('openai');
	// A short first-byte deadline, so that a stall fails over within the test's time.
	gateway = await startTestGateway({relay: {streamTimeouts: {firstByteMs: 400, idleMs: 2000}}, health: {threshold: 10_000, cooldownMs: 1}});
	await gateway.addProvider({...backup, url: `${faulty.url}/v1`}, {name: 'faulty', models: 'm=gpt-4o-mini', priority: 10});
	await gateway.addProvider(backup, {name: 'backup', models: 'm=gpt-4o-mini', priority: 0});
	secret = (await gateway.createKey({name: 'faults'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all([faulty.close(), backup.close()]);
});
beforeEach(() => {
	gateway.finished.length = 0;
});

const faults: ReadonlyArray<[string, Play, 'both' | 'whole' | 'stream']> = [
	['a reset connection', reset, 'both'],
	['a redirect to another host', redirect(307, 'http://evil.example/v1/chat/completions'), 'both'],
	['a 200 that is not JSON', raw(200, 'text/html', '<html>login</html>'), 'both'],
	['a body cut short', truncated('{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"mess'), 'whole'],
	['a stream reset before its first frame', stream(sse, [], 'reset'), 'stream'],
	['a stream that ends before its first frame', stream(sse, [], 'close'), 'stream'],
	['a stream silent past its first-byte deadline', silent(5000), 'stream'],
];

async function expectFailover(what: string, ask: () => Promise<string>): Promise<void> {
	const started = performance.now();
	assert.equal(await ask(), 'Hello from fake-openai', what);
	await eventually(() => gateway.finished.length === 1, 3000, `the log line of ${what}`);
	const event = gateway.finished[0]!;
	assert.deepEqual(event.attempts, ['faulty', 'backup'], what);
	assert.equal(event.eventType, 'failover', what);
	assert.ok(performance.now() - started < 3000, `${what} failed over quickly`);
	gateway.finished.length = 0;
}

for (const [name, play, modes] of faults) {
	for (const streamed of [false, true]) {
		if ((modes === 'whole' && streamed) || (modes === 'stream' && !streamed)) continue;
		test(`${name} fails over (${streamed ? 'stream' : 'whole answer'}; passthrough and translated)`, async () => {
			// A new conversation each time: a conversation stays on the channel that served it last.
			const messages = () => [{role: 'user' as const, content: `hi ${Math.random()}`}];
			const openai = openaiClient(gateway.url, secret);
			const anthropic = anthropicClient(gateway.url, secret);
			faulty.enqueue(play);
			await expectFailover(`passthrough: ${name}`, async () => {
				if (!streamed) return (await openai.chat.completions.create({model: 'm', messages: messages()})).choices[0]!.message.content ?? '';
				let text = '';
				for await (const chunk of await openai.chat.completions.create({model: 'm', messages: messages(), stream: true})) text += chunk.choices[0]?.delta.content ?? '';
				return text;
			});
			faulty.enqueue(play);
			await expectFailover(`translated: ${name}`, async () => {
				if (!streamed) {
					const message = await anthropic.messages.create({model: 'm', max_tokens: 16, messages: messages()});
					return message.content[0]?.type === 'text' ? message.content[0].text : '';
				}
				return (await anthropic.messages.stream({model: 'm', max_tokens: 16, messages: messages()}).finalText());
			});
		});
	}
}

test('a redirect is never followed: nothing goes to the host it names', async () => {
	const elsewhere = await startFaulty();
	try {
		faulty.enqueue(redirect(302, `${elsewhere.url}/v1/chat/completions`));
		const answer = await openaiClient(gateway.url, secret).chat.completions.create({model: 'm', messages: [{role: 'user', content: 'redirect?'}]});
		assert.equal(answer.choices[0]!.message.content, 'Hello from fake-openai');
		assert.equal(elsewhere.seen.length, 0, 'the real key never went to the redirect target');
	} finally {
		await elsewhere.close();
	}
});

test('a 429 with a short retry-after is retried on the same channel when no other can serve; a long one is not', async () => {
	const solo = await gateway.addProvider({...backup, url: `${faulty.url}/v1`}, {name: 'solo', models: 'solo=gpt-4o-mini'});
	const ok = {id: 'chatcmpl-2', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{index: 0, message: {role: 'assistant', content: 'after the wait'}, finish_reason: 'stop'}], usage: {prompt_tokens: 1, completion_tokens: 2, total_tokens: 3}};
	const limited = (seconds: string) => json(429, {error: {message: 'slow down', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded'}}, {'retry-after': seconds});
	const ask = () => openaiClient(gateway.url, secret).chat.completions.create({model: 'solo', messages: [{role: 'user', content: `solo ${Math.random()}`}]});
	faulty.enqueue(limited('1'), json(200, ok));
	const started = performance.now();
	assert.equal((await ask()).choices[0]!.message.content, 'after the wait');
	assert.ok(performance.now() - started >= 900, 'waited as asked');
	faulty.enqueue(limited('60'));
	const refused = await ask().catch((error: {status: number}) => error);
	assert.equal((refused as {status: number}).status, 429, 'a long wait is the client’s to decide');
	assert.ok(solo.id);
});
