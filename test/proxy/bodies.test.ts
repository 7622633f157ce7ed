/**
 * Request and response bodies on the request log (opt-in): off by default, nothing copied; on, the
 * request and the bytes the client got are kept for streamed and whole answers, cut at the cap with
 * the count of what is left out, and never showing a channel's real key, a virtual key or an
 * Authorization-like value — not even half of one.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {randomBytes} from 'node:crypto';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {startGateway, defaultRelayOptions, type Gateway} from '../../source/proxy/gateway.js';
import {bodyCaptureFromEnv} from '../../source/proxy/bodies.js';
import {capturedBody, scrubBody} from '../../source/proxy/body-text.js';
import {Scrubber} from '../../source/base/secrets.js';
import type {RequestFinished} from '../../source/base/events.js';
import {startTestGateway, tempHome, type TestGateway} from '../helpers/gateway.js';
import {frames, json, sse, startFaulty, stream, type FaultyProvider} from '../helpers/faulty-providers.js';
import {rmSync} from 'node:fs';

const realKey = `sk-proj-${randomBytes(24).toString('base64url')}`;
let provider: FaultyProvider;
let gateway: TestGateway;
let secret = '';
let otherKey = '';

const completion = (content: string) => ({id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{index: 0, message: {role: 'assistant', content}, finish_reason: 'stop'}], usage: {prompt_tokens: 3, completion_tokens: 2, total_tokens: 5}});

async function chat(base: string, key: string, content: string, streamed = false): Promise<{status: number; text: string; id: string}> {
	const response = await fetch(`${base}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${key}`}, body: JSON.stringify({model: 'm', stream: streamed, messages: [{role: 'user', content}]})});
	return {status: response.status, text: await response.text(), id: response.headers.get('x-request-id') ?? ''};
}

function assertClean(text: string, where: string): void {
	for (const key of [realKey, secret, otherKey]) {
		assert.ok(!text.includes(key.slice(0, 16)), `${where} shows (part of) a key: ${text.slice(0, 300)}`);
	}
}

before(async () => {
	provider = await startFaulty();
	gateway = await startTestGateway();
	await addChannel(gateway.store, {name: 'up', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: realKey, models: 'm=gpt-4o-mini'});
	secret = (await gateway.createKey({name: 'tool'})).secret;
	otherKey = (await gateway.createKey({name: 'other'})).secret;
});
after(async () => {
	await gateway.close();
	await provider.close();
});

test('off by default: nothing is captured', async () => {
	assert.equal(bodyCaptureFromEnv({}).capturing, false);
	assert.equal(gateway.bodies.capturing, false);
	provider.enqueue(json(200, completion('hello there')));
	const answer = await chat(gateway.url, secret, 'hi');
	assert.equal(answer.status, 200);
	await waitFor(gateway, answer.id);
	assert.equal(gateway.bodies.get(answer.id), null);
	assert.deepEqual(gateway.bodies.lookup(answer.id), {capturing: false, maxBytes: 65_536, keep: 100, bodies: null});
});

test('on: the request and the whole answer are kept, every key and credential masked', async () => {
	gateway.bodies.capturing = true;
	try {
		// A tool whose prompt quotes keys and an Authorization header, and a provider that echoes them in a good answer.
		const prompt = `debug: channel ${realKey}, mine ${secret}, theirs ${otherKey}; Authorization: Bearer abcdefghijklmnop123`;
		provider.enqueue(json(200, completion(`you said ${realKey} and ${otherKey}`)));
		const answer = await chat(gateway.url, secret, prompt);
		assert.equal(answer.status, 200);
		await waitFor(gateway, answer.id);
		const bodies = gateway.bodies.get(answer.id)!;
		assert.ok(bodies, 'kept');
		assert.match(bodies.request!.text, /"content":"debug: channel sk-…/);
		assert.match(bodies.request!.text, /Authorization: Bearer abc…p123/);
		assert.equal(bodies.request!.omittedBytes, 0);
		assert.match(bodies.response!.text, /"content":"you said sk-…/);
		assert.equal(bodies.response!.contentType?.startsWith('application/json'), true);
		assert.equal(bodies.response!.bytes, Buffer.byteLength(answer.text));
		assert.deepEqual(bodies.requestHeaders.find(([name]) => name === 'authorization'), ['authorization', `Bearer ${secret.slice(0, 3)}…${secret.slice(-4)}`]);
		assertClean(JSON.stringify(bodies), 'the kept bodies');
		assert.deepEqual(gateway.bodies.lookup(answer.id).bodies, bodies);
	} finally {
		gateway.bodies.capturing = false;
	}
});

test('on: a streamed answer is kept as the bytes the client got, and the stream still arrives whole', async () => {
	gateway.bodies.capturing = true;
	try {
		provider.enqueue(stream(sse, [frames.openai('Hel'), frames.openai(`lo ${realKey}`), 'data: [DONE]\n\n']));
		const answer = await chat(gateway.url, secret, 'stream please', true);
		assert.equal(answer.status, 200);
		assert.match(answer.text, /data: \[DONE\]/);
		await waitFor(gateway, answer.id);
		const bodies = gateway.bodies.get(answer.id)!;
		assert.match(bodies.request!.text, /"stream":true/);
		assert.equal(bodies.response!.contentType, 'text/event-stream');
		assert.match(bodies.response!.text, /"content":"Hel"/);
		assert.match(bodies.response!.text, /data: \[DONE\]/);
		assert.equal(bodies.response!.bytes, Buffer.byteLength(answer.text));
		assertClean(JSON.stringify(bodies), 'a streamed answer');
	} finally {
		gateway.bodies.capturing = false;
	}
});

test('refused requests keep the error the client got; the caller key in it stays masked', async () => {
	gateway.bodies.capturing = true;
	try {
		const answer = await chat(gateway.url, `${otherKey}x`, 'hi');
		assert.equal(answer.status, 401);
		await waitFor(gateway, answer.id);
		const bodies = gateway.bodies.get(answer.id)!;
		assert.equal(bodies.request, null, 'refused before its body was read');
		assert.match(bodies.response!.text, /not a gateway virtual key/);
		assertClean(JSON.stringify(bodies), 'a refusal');
	} finally {
		gateway.bodies.capturing = false;
	}
});

test('bounded: each body is cut at the cap with the bytes left out counted, and only the newest requests keep theirs', async () => {
	const home = tempHome();
	const small = await startGateway({home, host: '127.0.0.1', port: 0, relay: defaultRelayOptions, bodies: {capturing: true, maxBytes: 1024, keep: 2}});
	try {
		await addChannel(small.store, {name: 'up', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: realKey, models: 'm=gpt-4o-mini'});
		const key = await createKey(small.store, {name: 'big'});
		await small.registry.refresh();
		const ids: string[] = [];
		for (let index = 0; index < 3; index++) {
			provider.enqueue(json(200, completion(`${'x'.repeat(3000)} ${realKey}`)));
			const done = new Promise<RequestFinished>(resolve => small.events.on('request:finished', resolve));
			const answer = await chat(small.url, key.secret, `${'y'.repeat(4000)}`);
			assert.equal(answer.status, 200);
			ids.push((await done).id);
		}
		assert.equal(small.bodies.get(ids[0]!), null, 'the oldest fell out');
		const bodies = small.bodies.get(ids[2]!)!;
		assert.ok(small.bodies.get(ids[1]!));
		for (const body of [bodies.request!, bodies.response!]) {
			assert.ok(Buffer.byteLength(body.text) <= 1024);
			assert.ok(body.omittedBytes > body.bytes - 1024 - 1 && body.omittedBytes > 2000, `${body.omittedBytes} of ${body.bytes} left out`);
		}
	} finally {
		await small.close();
		rmSync(home, {recursive: true, force: true});
	}
});

test('a key cut in half by the cap is dropped with the word it is in; credentials are masked by their shape', () => {
	const key = `sk-proj-${randomBytes(24).toString('base64url')}`;
	const scrubber = new Scrubber([key]);
	const text = `${'a '.repeat(500)}${key} tail`;
	for (const cap of [1000, 1005, 1020, 1000 + key.length - 1]) {
		const body = capturedBody(Buffer.from(text), Buffer.byteLength(text), cap, null, scrubber);
		assert.ok(!body.text.includes(key.slice(0, 8)), `cap ${cap}: ${body.text.slice(-40)}`);
		assert.equal(body.omittedBytes, Buffer.byteLength(text) - Buffer.byteLength(body.text));
	}
	assert.equal(scrubBody('{"api_key": "abcdefgh12345678", "x-goog-api-key": "AIzaSyABCDEFGHIJ"}', Scrubber.empty), '{"api_key": "abc…5678", "x-goog-api-key": "AIz…GHIJ"}');
	assert.equal(scrubBody('curl -H "Authorization: Bearer zzzzzzzzzzzz9999"', Scrubber.empty), 'curl -H "Authorization: Bearer zzz…9999"');
});

async function waitFor(gateway: TestGateway | Gateway, id: string): Promise<void> {
	const finished = (gateway as TestGateway).finished;
	for (let tries = 0; tries < 200 && !finished.some(event => event.id === id); tries++) await new Promise(resolve => setTimeout(resolve, 10));
	assert.ok(finished.some(event => event.id === id), `request ${id} finished`);
}
