/**
 * What the request path does not build per request (issue 14), pinned by counting rather than
 * timing: no more promises than its steps need, no AbortController (the client's hang-up and the
 * first-byte deadline are `Hangup`s; a real AbortSignal is made only where a Node API asks for one,
 * as a retry's sleep does), and no Readable around the provider's body (undici hands its chunks to
 * our own handler). Each would cost several microseconds and an EventTarget or a stream's state per
 * request at thousands a second.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {request as httpRequest} from 'node:http';
import {Readable} from 'node:stream';
import {callUpstream, UpstreamPools} from '../../source/proxy/upstream.js';
import {Hangup} from '../../source/proxy/hangup.js';
import type {ChannelRecord} from '../../source/base/records.js';
import {startTestGateway} from '../helpers/gateway.js';
import {gatewayPromiseCounter} from '../helpers/promises.js';
import {startFakeAnthropic, startFakeOpenAI} from '../helpers/fake-providers.js';

/** A POST through node:http, which builds no AbortController of its own (fetch would, in this process). */
function post(url: string, secret: string, body: object): Promise<{status: number; text: string}> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}}, res => {
			let text = '';
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => (text += chunk));
			res.on('end', () => resolve({status: res.statusCode ?? 0, text}));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(JSON.stringify(body));
	});
}

test('passthrough and translated requests, streamed and not, build no AbortController', async () => {
	const openai = await startFakeOpenAI();
	const anthropic = await startFakeAnthropic();
	const gateway = await startTestGateway();
	const Original = globalThis.AbortController;
	let made = 0;
	try {
		await gateway.addProvider(openai, {name: 'openai'});
		await gateway.addProvider(anthropic, {name: 'anthropic'});
		const {secret} = await gateway.createKey({name: 'objects'});
		globalThis.AbortController = class CountedAbortController extends Original {
			constructor() {
				super();
				made++;
			}
		};
		for (const model of ['gpt-4o-mini', 'claude-sonnet-4-6']) {
			for (const stream of [false, true]) {
				for (let i = 0; i < 5; i++) {
					const answer = await post(`${gateway.url}/v1/chat/completions`, secret, {model, stream, messages: [{role: 'user', content: `hi ${i}`}]});
					assert.equal(answer.status, 200, answer.text);
					assert.match(answer.text, stream ? /data: \[DONE\]/ : /"choices"/);
				}
			}
		}
	} finally {
		globalThis.AbortController = Original;
		await gateway.close();
		await openai.close();
		await anthropic.close();
	}
	assert.equal(made, 0, 'AbortControllers built while 20 requests went through');
});

test("the provider's body is read through our own handler, not a Readable", async () => {
	const openai = await startFakeOpenAI();
	const pools = new UpstreamPools();
	try {
		const channel: ChannelRecord = {v: 1, id: 'ch_1', name: 'openai', format: 'openai', baseUrl: openai.url, apiKey: openai.apiKey, models: [{name: 'gpt-4o-mini', upstream: 'gpt-4o-mini'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'};
		const response = await callUpstream(pools, {channel, method: 'GET', path: '/models', abort: new Hangup()});
		assert.equal(response.statusCode, 200);
		assert.equal(response.body instanceof Readable, false);
		assert.match(await response.body.text(), /gpt-4o-mini/);
	} finally {
		await pools.close();
		await openai.close();
	}
});

test('a passed-through request, streamed or not, creates few promises on the gateway\'s path (no async layer that only passes a promise on)', async () => {
	const openai = await startFakeOpenAI();
	const gateway = await startTestGateway();
	const promises = gatewayPromiseCounter();
	const counts: Record<string, number> = {};
	try {
		await gateway.addProvider(openai, {name: 'openai'});
		const {secret} = await gateway.createKey({name: 'promises'});
		for (const stream of [false, true]) {
			const body = {model: 'gpt-4o-mini', stream, messages: [{role: 'user', content: 'hi'}]};
			await post(`${gateway.url}/v1/chat/completions`, secret, body);
			promises.start();
			for (let i = 0; i < 20; i++) assert.equal((await post(`${gateway.url}/v1/chat/completions`, secret, body)).status, 200);
			counts[stream ? 'stream' : 'json'] = promises.stop() / 20;
		}
	} finally {
		promises.dispose();
		await gateway.close();
		await openai.close();
	}
	// Each async function and each await is a promise and a turn of the microtask queue. The path's own
	// (route handler, relay, attempt, channel call, upstream call, body read) make 23 a non-streamed
	// request and 26 a streamed one; with the layers that only handed a promise on, awaited a value
	// that was not one (a key without limits) or the reply itself (a thenable that waits for the
	// response to finish), it was 30 and 31.
	assert.ok(counts.json! <= 25, `${counts.json} promises a non-streamed request`);
	assert.ok(counts.stream! <= 28, `${counts.stream} promises a streamed request`);
});
