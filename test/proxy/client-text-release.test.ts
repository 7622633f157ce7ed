/**
 * A request's JSON text is kept on the request only while an attempt may still forward it byte for
 * byte (json-body.ts): once the last attempt has built what it sends, nothing needs it, and it is
 * as large as the request. A coding agent's requests run to hundreds of kilobytes and their streams
 * to minutes, so a text kept to the end is another copy of every request in flight beside the
 * parsed body. So are the bytes sent upstream: undici keeps a string or Buffer body until the answer
 * has ended, so a large one goes as a one-chunk stream it lets go of once written (upstream.ts).
 * Pinned by memory, not by a timing: a 16 MB request is held open mid-stream, and the live heap
 * (after full collections) may grow by one copy of it, its Buffers by none.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, request as httpRequest, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {exposeGc} from '../../source/base/idle-trim.js';
import {addChannel} from '../../source/services/channels.js';
import {startTestGateway} from '../helpers/gateway.js';

const size = 16 * 1024 * 1024;

/**
 * A provider whose streams hold after their first delta until `release()`; it reads and drops the
 * request's bytes (it keeps none of them), and answers in each format's own framing.
 */
async function holdingProvider() {
	let release: () => void = () => {};
	let received: () => void = () => {};
	const state = {
		framing: [] as Array<{declared: number; received: number; chunked: boolean}>,
		held: new Promise<void>(resolve => (received = resolve)),
		release: () => release(),
		rearm: () => {
			state.held = new Promise<void>(resolve => (received = resolve));
		},
	};
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		let bytes = 0;
		req.on('data', (chunk: Buffer) => (bytes += chunk.length));
		req.on('end', () => {
			// A large body is sent from a stream: still with its length declared, never chunked.
			state.framing.push({declared: Number(req.headers['content-length']), received: bytes, chunked: req.headers['transfer-encoding'] !== undefined});
			const gate = new Promise<void>(resolve => (release = resolve));
			res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'});
			if (req.url?.startsWith('/v1/chat/completions')) {
				const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({id: 'chatcmpl-hold', object: 'chat.completion.chunk', created: 1, model: 'gpt-hold', choices: [{index: 0, delta, logprobs: null, finish_reason: finish}]})}\n\n`;
				res.write(chunk({role: 'assistant', content: 'Hel'}, null));
				received();
				void gate.then(() => {
					res.write(chunk({content: 'lo'}, null) + chunk({}, 'stop'));
					res.write(`data: ${JSON.stringify({id: 'chatcmpl-hold', object: 'chat.completion.chunk', created: 1, model: 'gpt-hold', choices: [], usage: {prompt_tokens: Math.round(bytes / 4), completion_tokens: 2, total_tokens: Math.round(bytes / 4) + 2}})}\n\n`);
					res.end('data: [DONE]\n\n');
				});
			} else {
				const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`;
				res.write(event('message_start', {message: {id: 'msg_hold', type: 'message', role: 'assistant', content: [], model: 'claude-hold', stop_reason: null, stop_sequence: null, usage: {input_tokens: Math.round(bytes / 4), output_tokens: 1}}}));
				res.write(event('content_block_start', {index: 0, content_block: {type: 'text', text: ''}}) + event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: 'Hel'}}));
				received();
				void gate.then(() => {
					res.write(event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: 'lo'}}) + event('content_block_stop', {index: 0}));
					res.end(event('message_delta', {delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: 2}}) + event('message_stop', {}));
				});
			}
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state, close: () => new Promise<void>(resolve => server.close(() => resolve()))};
}

/** The request's text, made in a scope of its own: no closure of the test's keeps it alive once it is sent. */
const largeBody = (model: string, askUsage = true) => JSON.stringify({model, stream: true, ...(askUsage ? {stream_options: {include_usage: true}} : {}), max_tokens: 16, messages: [{role: 'user', content: 'x'.repeat(size)}]});

/** POST a large streamed chat completion; resolves once the first bytes of the answer arrived, with a way to read the rest. */
function startLargeStream(url: string, secret: string, model: string, askUsage: boolean): Promise<{rest: () => Promise<string>}> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(`${url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}}, res => {
			let text = '';
			let done: (text: string) => void = () => {};
			const ended = new Promise<string>(resolveEnd => (done = resolveEnd));
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => {
				const first = text === '';
				text += chunk;
				if (first) resolve({rest: () => ended});
			});
			res.on('end', () => done(`${res.statusCode} ${text}`));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(largeBody(model, askUsage));
	});
}

test('mid-stream, the gateway holds one copy of a large request: not the text it arrived as, nor the bytes it sent (passthrough, with include_usage added in front of the client\'s bytes, and translated)', {timeout: 60_000}, async () => {
	const gc = exposeGc();
	assert.ok(gc, 'this Node exposes V8 gc() through --expose-gc at run time');
	const collect = () => {
		gc();
		gc();
	};
	const provider = await holdingProvider();
	const gateway = await startTestGateway();
	try {
		await addChannel(gateway.store, {name: 'hold-openai', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-hold-openai', models: 'gpt-hold'});
		await addChannel(gateway.store, {name: 'hold-anthropic', format: 'anthropic', baseUrl: provider.url, apiKey: 'sk-ant-hold', models: 'claude-hold'});
		await gateway.registry.refresh();
		const {secret} = await gateway.createKey({name: 'large'});
		// gpt-hold without stream_options: the body goes as pieces, include_usage in front of the client's bytes (passthrough.ts).
		for (const [model, askUsage] of [['gpt-hold', true], ['gpt-hold', false], ['claude-hold', true]] as const) {
			provider.state.rearm();
			collect();
			const before = process.memoryUsage();
			const label = askUsage ? model : `${model} (include_usage added)`;
			const stream = await startLargeStream(gateway.url, secret, model, askUsage);
			await provider.state.held;
			collect();
			const during = process.memoryUsage();
			provider.state.release();
			const answer = await stream.rest();
			assert.match(answer, /^200 /, answer.slice(0, 300));
			assert.match(answer, /\[DONE\]/);
			const grown = during.heapUsed - before.heapUsed;
			const bytes = during.arrayBuffers - before.arrayBuffers;
			// The parsed body (its 16 MB string) lives as long as the request; the text it was parsed from need not.
			assert.ok(grown > size * 0.8, `${label}: the heap grew by only ${(grown / 2 ** 20).toFixed(1)} MB: the request was not in flight when measured`);
			assert.ok(grown < size * 1.5, `${label}: mid-stream the heap holds ${(grown / 2 ** 20).toFixed(1)} MB more than before the request: more than one copy of its ${size / 2 ** 20} MB`);
			// Nor the bytes sent upstream: undici holds a body given as a Buffer until the answer ends.
			assert.ok(bytes < size * 0.5, `${label}: mid-stream ${(bytes / 2 ** 20).toFixed(1)} MB more of Buffers than before the request: the bytes sent upstream are still held`);
		}
		assert.equal(provider.state.framing.length, 3);
		for (const framing of provider.state.framing) {
			assert.ok(framing.received > size, `the provider received ${framing.received} bytes`);
			assert.deepEqual(framing, {declared: framing.received, received: framing.received, chunked: false});
		}
	} finally {
		await gateway.close();
		await provider.close();
	}
});
