/**
 * A 50 MB answer streamed from an Anthropic channel to a Responses API client ends with its terminal
 * events (`response.output_text.done` … `response.completed`, the whole text in each, as the API
 * sends them), and writing it leaves nothing behind on the client's response.
 *
 * The bug: every wait for a slow socket to drain raced two `events.once` (drain, close), and the
 * loser's listeners stayed on the response — one 'close' and one 'error' listener per wait. A 50 MB
 * answer in small deltas piled up hundreds of thousands; when the response closed, each of them
 * removed its partner from an array as long as the pile, so the gateway's event loop spun for
 * minutes: a client in that process (or any other request) never saw the end.
 *
 * 50 MB in 10-character deltas (5 million frames) is what hung — over 10 minutes without the fix,
 * about 50 s with it, too long for a test. Here the 50 MB come in 1,000-character deltas (~6 s), and
 * the pile is caught by Node's own leak warning (more than 10 'close' listeners on one response),
 * which fires after the eleventh wait; the last test counts the listeners directly.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import type {FastifyReply} from 'fastify';
import {addChannel} from '../../source/services/channels.js';
import {ClientStream} from '../../source/proxy/client-stream.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {openaiClient} from '../helpers/sdks.js';

/** Where the fake Anthropic provider reads how much text to stream, in deltas of `piece` characters. */
type Script = {total: number; piece: number};

let gateway: TestGateway;
let provider: http.Server;
let secret = '';
const script: Script = {total: 0, piece: 1000};

function frame(event: string, data: unknown): string {
	return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Anthropic's message stream, exactly as the API sends it, with `script.total` characters of text; written as the socket drains. */
async function anthropicStream(response: http.ServerResponse): Promise<void> {
	response.writeHead(200, {'content-type': 'text/event-stream'});
	response.write(frame('message_start', {type: 'message_start', message: {id: 'msg_big', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: {input_tokens: 5, output_tokens: 1}}}));
	response.write(frame('content_block_start', {type: 'content_block_start', index: 0, content_block: {type: 'text', text: ''}}));
	const piece = 'abcdefghij'.repeat(script.piece / 10);
	const delta = frame('content_block_delta', {type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text: piece}});
	let batch = '';
	for (let sent = 0; sent < script.total; sent += piece.length) {
		batch += delta;
		if (batch.length < 256 * 1024) continue;
		if (!response.write(batch)) await new Promise(resolve => response.once('drain', resolve));
		batch = '';
	}
	response.write(batch);
	response.write(frame('content_block_stop', {type: 'content_block_stop', index: 0}));
	response.write(frame('message_delta', {type: 'message_delta', delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: 12_345}}));
	response.end(frame('message_stop', {type: 'message_stop'}));
}

before(async () => {
	provider = http.createServer((request, response) => {
		request.resume();
		request.on('end', () => void anthropicStream(response));
	});
	await new Promise<void>(resolve => provider.listen(0, '127.0.0.1', resolve));
	gateway = await startTestGateway();
	await addChannel(gateway.store, {name: 'anthropic', format: 'anthropic', baseUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`, apiKey: 'sk-ant-big-0001', models: 'big=claude-sonnet-4-6'});
	await gateway.registry.refresh();
	secret = (await gateway.createKey({name: 'big'})).secret;
});
after(async () => {
	await gateway.close();
	await new Promise(resolve => provider.close(resolve));
});

type Seen = {readonly types: string[]; readonly last: Map<string, Record<string, unknown>>; readonly bytes: number};

/** Read a Responses SSE stream frame by frame, as a raw client would; the non-delta frames are parsed (the big ones too). */
async function readEvents(body: ReadableStream<Uint8Array>): Promise<Seen> {
	const decoder = new TextDecoder();
	const types: string[] = [];
	const last = new Map<string, Record<string, unknown>>();
	// The current frame's pieces: joined once when it ends, so a 50 MB frame is never copied per chunk.
	let parts: string[] = [];
	let bytes = 0;
	const take = (text: string) => {
		const type = /^event: (\S+)/.exec(text)?.[1] ?? '?';
		if (types.at(-1) !== type || type !== 'response.output_text.delta') types.push(type);
		if (type !== 'response.output_text.delta') last.set(type, JSON.parse(text.slice(text.indexOf('\ndata: ') + 7)) as Record<string, unknown>);
	};
	for await (const chunk of body) {
		bytes += chunk.length;
		const text = decoder.decode(chunk, {stream: true});
		let start = 0;
		if (parts.at(-1)?.endsWith('\n') && text.startsWith('\n')) {
			take(parts.join('').slice(0, -1));
			parts = [];
			start = 1;
		}
		let end: number;
		while ((end = text.indexOf('\n\n', start)) !== -1) {
			parts.push(text.slice(start, end));
			take(parts.join(''));
			parts = [];
			start = end + 2;
		}
		if (start < text.length) parts.push(text.slice(start));
	}
	return {types, last, bytes};
}

const textOf = (event: Record<string, unknown> | undefined, ...path: Array<string | number>): string => {
	let value: unknown = event;
	for (const step of path) value = (value as Record<string | number, unknown> | undefined)?.[step];
	return typeof value === 'string' ? value : '';
};

test('a 50 MB answer translated to the Responses API ends with output_text.done … response.completed, the whole text in each', {timeout: 120_000}, async () => {
	script.total = 50_000_000;
	script.piece = 1000;
	const leaks: string[] = [];
	const onWarning = (warning: Error) => {
		if (warning.name === 'MaxListenersExceededWarning') leaks.push(warning.message);
	};
	process.on('warning', onWarning);
	try {
		const response = await fetch(`${gateway.url}/v1/responses`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: JSON.stringify({model: 'big', input: 'a long answer, please', stream: true})});
		assert.equal(response.status, 200);
		const seen = await readEvents(response.body!);
		assert.deepEqual(seen.types, [
			'response.created',
			'response.in_progress',
			'response.output_item.added',
			'response.content_part.added',
			'response.output_text.delta',
			'response.output_text.done',
			'response.content_part.done',
			'response.output_item.done',
			'response.completed',
		]);
		const done = seen.last.get('response.output_text.done');
		const completed = seen.last.get('response.completed');
		assert.equal(textOf(done, 'text').length, script.total, 'output_text.done carries the whole text');
		assert.equal(textOf(seen.last.get('response.content_part.done'), 'part', 'text').length, script.total);
		assert.equal(textOf(seen.last.get('response.output_item.done'), 'item', 'content', 0, 'text').length, script.total);
		assert.equal(textOf(completed, 'response', 'output', 0, 'content', 0, 'text').length, script.total, 'response.completed carries the whole response, as the API sends it');
		assert.equal(textOf(completed, 'response', 'status'), 'completed');
		const finished = gateway.finished.at(-1)!;
		assert.deepEqual([finished.outcome, finished.error, finished.usage?.outputTokens], ['ok', null, 12_345]);
		assert.deepEqual(leaks, [], 'no listener piles up on the client response while it drains');
	} finally {
		process.off('warning', onWarning);
	}
});

test('the openai SDK reads a 2 MB translated answer to its final response', {timeout: 60_000}, async () => {
	// 2 MB, not 50: openai-node's line decoder copies the whole pending line for every chunk it
	// receives, so a 50 MB `response.completed` line costs the SDK itself over a minute per big frame.
	script.total = 2_000_000;
	script.piece = 100;
	const stream = openaiClient(gateway.url, secret).responses.stream({model: 'big', input: 'a long answer, please'});
	const final = await stream.finalResponse();
	assert.equal(final.status, 'completed');
	assert.equal(final.output_text.length, script.total);
	assert.equal(final.usage?.output_tokens, 12_345);
});

test('waiting for a slow client to drain leaves no listener behind on the response', async () => {
	const server = http.createServer((_request, response) => {
		void (async () => {
			const reply = {raw: response, getHeaders: () => ({}), hijack: () => {}} as unknown as FastifyReply;
			const out = new ClientStream(reply);
			out.open(200, {'content-type': 'text/plain'});
			const listeners = () => [response.listenerCount('close'), response.listenerCount('drain'), response.listenerCount('error')];
			const before = listeners();
			// Each write is past the socket's high-water mark, so each one waits for a drain.
			const chunk = 'x'.repeat(64 * 1024);
			for (let i = 0; i < 200; i++) await out.write(chunk);
			const afterWrites = listeners();
			out.end();
			server.emit('checked', before, afterWrites);
		})();
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const checked = new Promise<[number[], number[]]>(resolve => server.once('checked', (before: number[], afterWrites: number[]) => resolve([before, afterWrites])));
	const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
	assert.equal((await response.text()).length, 200 * 64 * 1024);
	const [before, afterWrites] = await checked;
	assert.deepEqual(afterWrites, before, 'close / drain / error listeners after 200 waits for a drain');
	await new Promise(resolve => server.close(resolve));
});
