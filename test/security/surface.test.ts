/**
 * The narrow surface: bad input gets a native 400 or 413 (never a 500 or a reset connection), a
 * request addressed to a foreign Host (DNS rebinding) or from a foreign Origin is refused, a client
 * that dribbles its body is closed within the stated time-out, open endpoints take no large body,
 * connections past the cap get a 503 with retry-after, and a pathological count_tokens does not
 * delay anyone else.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import {connect} from 'node:net';
import {rmSync} from 'node:fs';
import {startGateway, type Gateway} from '../../source/proxy/gateway.js';
import type {SurfaceSettings} from '../../source/proxy/surface.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {tempHome} from '../helpers/gateway.js';
import {anthropicClient, openaiClient} from '../helpers/sdks.js';
import {requestFor, type ClientFormat} from './raw-call.js';

let openaiProvider: FakeProvider;
const started: Array<{gateway: Gateway; home: string}> = [];

async function gatewayWith(surface: SurfaceSettings): Promise<{gateway: Gateway; secret: string}> {
	const home = tempHome();
	const gateway = await startGateway({home, host: '127.0.0.1', port: 0, surface});
	started.push({gateway, home});
	await addChannel(gateway.store, {name: 'openai', format: 'openai', baseUrl: openaiProvider.url, apiKey: openaiProvider.apiKey, models: 'gpt-4o-mini,claude-sonnet-4-6=gpt-4o-mini,gemini-2.5-flash=gpt-4o-mini'});
	const {secret} = await createKey(gateway.store, {name: 'surface'});
	await gateway.registry.refresh();
	return {gateway, secret};
}

let main: {gateway: Gateway; secret: string};

before(async () => {
	openaiProvider = await startFakeProvider('openai');
	main = await gatewayWith({bodyLimitBytes: 64 * 1024, requestTimeoutMs: 1500, headersTimeoutMs: 1000, allowHosts: ['gateway.internal']});
});
after(async () => {
	for (const {gateway, home} of started) {
		await gateway.close();
		rmSync(home, {recursive: true, force: true});
	}
	await openaiProvider.close();
});

type Raw = {status: number; headers: http.IncomingHttpHeaders; body: string};

/** A request with headers fetch would not send (a foreign Host), read raw. */
function send(url: string, options: {method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer}): Promise<Raw> {
	const target = new URL(url);
	return new Promise((resolve, reject) => {
		const request = http.request({host: target.hostname, port: target.port, method: options.method ?? 'POST', path: options.path, headers: {'content-type': 'application/json', ...options.headers}}, response => {
			let body = '';
			response.on('data', chunk => (body += chunk));
			response.on('end', () => resolve({status: response.statusCode ?? 0, headers: response.headers, body}));
		});
		request.on('error', reject);
		request.end(options.body);
	});
}

const formats: readonly ClientFormat[] = ['openai', 'anthropic', 'gemini', 'responses'];
const models: Record<ClientFormat, string> = {openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-6', gemini: 'gemini-2.5-flash', responses: 'gpt-4o-mini'};

/** The error message of each format's error body (and that the body has that format's shape). */
function nativeMessage(format: ClientFormat, body: string): string {
	const parsed = JSON.parse(body) as {type?: string; error?: {message?: string; status?: string; type?: string}};
	if (format === 'anthropic') assert.equal(parsed.type, 'error', body);
	if (format === 'gemini') assert.ok(parsed.error?.status, body);
	if (format === 'openai' || format === 'responses') assert.ok(parsed.error?.type, body);
	return parsed.error?.message ?? '';
}

test('a body over the limit is a 413 in each format, not a reset connection', async () => {
	for (const format of formats) {
		const request = requestFor(format, models[format], false, main.secret);
		const big = JSON.stringify({...(request.body as object), padding: 'x'.repeat(200 * 1024)});
		const answer = await send(main.gateway.url, {path: request.path, headers: request.headers, body: big});
		assert.equal(answer.status, 413, `${format}: ${answer.body}`);
		assert.match(nativeMessage(format, answer.body), /larger than 64 KiB/);
	}
});

test('nesting too deep, bad JSON, __proto__ and bad percent-encoding are native 400s', async () => {
	let nested = '1';
	for (let i = 0; i < 10_000; i++) nested = `[${nested}]`;
	for (const format of formats) {
		const request = requestFor(format, models[format], false, main.secret);
		const json = JSON.stringify(request.body);
		const bodies = [`${json.slice(0, -1)},"extra":${nested}}`, '{"model": ', `${json.slice(0, -1)},"__proto__":{"admin":true}}`];
		for (const body of bodies) {
			const answer = await send(main.gateway.url, {path: request.path, headers: request.headers, body});
			assert.equal(answer.status, 400, `${format}: ${body.slice(0, 40)} → ${answer.body}`);
			assert.match(nativeMessage(format, answer.body), /nested deeper than 128|not valid JSON/);
		}
	}
	const badPath = await send(main.gateway.url, {path: '/v1beta/models/gemini%E0%A4%A:generateContent', headers: {'x-goog-api-key': main.secret}, body: '{"contents":[]}'});
	assert.equal(badPath.status, 400, badPath.body);
	assert.match(nativeMessage('gemini', badPath.body), /percent-encod/i);
});

test('a foreign Host or Origin is refused; localhost names and --allow-host names are served', async () => {
	const request = requestFor('openai', 'gpt-4o-mini', false, main.secret);
	const body = JSON.stringify(request.body);
	const port = new URL(main.gateway.url).port;
	const foreign = await send(main.gateway.url, {path: request.path, headers: {...request.headers, host: `evil.example.com:${port}`}, body});
	assert.equal(foreign.status, 403);
	assert.match(nativeMessage('openai', foreign.body), /Host "evil\.example\.com:\d+" is not this gateway's address.*--allow-host/);
	assert.equal(openaiProvider.received.length, 0, 'nothing went upstream');
	const fromPage = await send(main.gateway.url, {path: request.path, headers: {...request.headers, origin: 'https://evil.example.com'}, body});
	assert.equal(fromPage.status, 403);
	for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `gateway.internal:${port}`]) {
		const served = await send(main.gateway.url, {path: request.path, headers: {...request.headers, host}, body});
		assert.equal(served.status, 200, `${host}: ${served.body}`);
	}
	const probe = await send(main.gateway.url, {method: 'GET', path: '/', headers: {host: 'rebound.attacker.net'}});
	assert.equal(probe.status, 403, 'the open endpoints are checked too');
});

test('an open endpoint takes no large body; a request without a key is refused before its body is read', async () => {
	const telemetry = await send(main.gateway.url, {path: '/api/event_logging/batch', body: JSON.stringify({events: ['x'.repeat(20 * 1024)]})});
	assert.equal(telemetry.status, 413);
	assert.equal((await send(main.gateway.url, {path: '/api/event_logging/batch', body: '{"events":[]}'})).status, 204);
	const started = performance.now();
	const keyless = await send(main.gateway.url, {path: '/v1/chat/completions', body: Buffer.alloc(60 * 1024, 0x20)});
	assert.equal(keyless.status, 401);
	assert.ok(performance.now() - started < 1000);
});

test('a client that dribbles its body is closed within the request time-out', async () => {
	const {port} = new URL(main.gateway.url);
	const socket = connect(Number(port), '127.0.0.1');
	await new Promise(resolve => socket.once('connect', resolve));
	socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${main.secret}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
	const timer = setInterval(() => socket.writable && socket.write(' '), 200);
	const started = performance.now();
	const reply = await new Promise<string>(resolve => {
		let text = '';
		socket.on('data', chunk => (text += chunk));
		socket.on('close', () => resolve(text));
		socket.on('error', () => {});
	});
	clearInterval(timer);
	const elapsed = performance.now() - started;
	assert.ok(elapsed < 1500 + 1500, `closed after ${Math.round(elapsed)} ms (time-out 1.5 s, checked every second)`);
	assert.match(reply, /^HTTP\/1.1 408/, 'answered 408 Request Timeout before closing');
});

test('connections past the cap get a 503 with retry-after in the client format', async () => {
	const capped = await gatewayWith({maxConnections: 3});
	const {port} = new URL(capped.gateway.url);
	const idle = await Promise.all([0, 1, 2].map(() => new Promise<ReturnType<typeof connect>>(resolve => {
		const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
	})));
	try {
		const refused = await anthropicClient(capped.gateway.url, capped.secret).messages.create({model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{role: 'user', content: 'hi'}]}).catch((error: {status: number; headers: Headers; message: string}) => error);
		assert.equal((refused as {status: number}).status, 503);
		assert.match((refused as {message: string}).message, /maximum of 3 connections/);
	} finally {
		for (const socket of idle) socket.destroy();
	}
	await new Promise(resolve => setTimeout(resolve, 100));
	const served = await openaiClient(capped.gateway.url, capped.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hi'}]});
	assert.equal(served.choices[0]!.message.content, 'Hello from fake-openai', 'served again once connections closed');
});

test('a pathological count_tokens delays a concurrent request by less than 100 ms', async () => {
	const anthropic = anthropicClient(main.gateway.url, main.secret);
	const count = (text: string) => anthropic.messages.countTokens({model: 'claude-sonnet-4-6', messages: [{role: 'user', content: text}]});
	await count('warm the tokenizer up');
	const models = async () => {
		const started = performance.now();
		const response = await fetch(`${main.gateway.url}/v1/models`, {headers: {authorization: `Bearer ${main.secret}`}});
		await response.text();
		return performance.now() - started;
	};
	// Best of three: on a loaded machine one measurement can be late for reasons of its own; a stall is late every time.
	for (const text of ['a'.repeat(10_000), '!'.repeat(50_000), 'é'.repeat(25_000)]) {
		const delays: number[] = [];
		for (let round = 0; round < 3; round++) {
			const baseline = await models();
			const counting = count(text);
			await new Promise(resolve => setImmediate(resolve));
			const delayed = await models();
			const counted = await counting;
			assert.ok(counted.input_tokens > 0 && counted.input_tokens <= Buffer.byteLength(text) + 50, `an upper bound: ${counted.input_tokens}`);
			delays.push(delayed - baseline);
		}
		assert.ok(Math.min(...delays) < 100, `the concurrent request was delayed by ${delays.map(Math.round).join(', ')} ms beside ${text.length} × "${text[0]}"`);
	}
});
