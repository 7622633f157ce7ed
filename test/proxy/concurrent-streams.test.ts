/**
 * No cap on concurrent streams short of the machine (issue 14): streams are not queued behind each
 * other on the way to a provider. A fake provider holds every stream open after its first chunk
 * until every client has received that chunk, so the test can only pass when all streams are in flight at once:
 * a pool capped at 64 connections per origin would leave the 65th waiting for the 1st to end, which
 * never comes (until the test gives up holding after 20 s, and then the order of the chunks shows it).
 * A slow stream on one channel never delays another channel's requests, even on the same host.
 * No timing assertions beyond generous deadlines.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {Agent, request} from 'undici';
import {addChannel} from '../../source/services/channels.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';

const streams = 300;

/**
 * Each stream holds four sockets in this one process (client, gateway, upstream, provider): 1,200
 * descriptors. Where the open-file limit is lower (1,024 on some machines), the test cannot run.
 */
function tooFewFiles(): string | false {
	try {
		const limit = Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]);
		return limit > 0 && limit < 1600 ? `needs an open-file limit of 1600 or more (ulimit -n is ${limit})` : false;
	} catch {
		return false;
	}
}

type Held = {readonly res: ServerResponse; readonly closing: string};

/**
 * A provider speaking OpenAI chat completions (`/v1/chat/completions`) and Anthropic messages
 * (`/v1/messages`), streaming only. A request whose model is in `holding` gets its first chunk at
 * once and the rest only when the test calls `release`. Any other model is answered at once.
 */
class HoldingProvider {
	readonly held: Held[] = [];
	private server: Server | undefined;
	url = '';

	constructor(private readonly holding: ReadonlySet<string>) {}

	async start(): Promise<this> {
		this.server = createServer({keepAliveTimeout: 60_000}, (req, res) => this.handle(req, res));
		await new Promise<void>(resolve => this.server!.listen({host: '127.0.0.1', port: 0, backlog: 4096}, resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	private holdingOn = true;

	release(): void {
		for (const {res, closing} of this.held.splice(0)) res.end(closing);
	}

	/** Release every held stream and answer the next ones at once. */
	stopHolding(): void {
		this.holdingOn = false;
		this.release();
	}

	async close(): Promise<void> {
		this.stopHolding();
		this.server?.closeAllConnections();
		await new Promise(resolve => this.server?.close(resolve));
	}

	private handle(req: IncomingMessage, res: ServerResponse): void {
		const parts: Buffer[] = [];
		req.on('data', (part: Buffer) => parts.push(part));
		req.on('end', () => {
			const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as {model: string; stream?: boolean};
			const {opening, closing} = req.url === '/v1/messages' ? anthropicStream(body.model) : openaiStream(body.model);
			res.writeHead(200, {'content-type': 'text/event-stream'});
			if (!this.holdingOn || !this.holding.has(body.model)) return void res.end(opening + closing);
			res.write(opening);
			this.held.push({res, closing});
		});
	}
}

function openaiStream(model: string): {opening: string; closing: string} {
	const frame = (choices: unknown[], extra: object = {}) => `data: ${JSON.stringify({id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 1, model, choices, ...extra})}\n\n`;
	return {
		opening: frame([{index: 0, delta: {role: 'assistant', content: 'first '}, finish_reason: null}]),
		closing: frame([{index: 0, delta: {content: 'last'}, finish_reason: null}]) + frame([{index: 0, delta: {}, finish_reason: 'stop'}]) + frame([], {usage: {prompt_tokens: 5, completion_tokens: 2, total_tokens: 7}}) + 'data: [DONE]\n\n',
	};
}

function anthropicStream(model: string): {opening: string; closing: string} {
	const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`;
	return {
		opening:
			event('message_start', {message: {id: 'msg_held', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: {input_tokens: 5, output_tokens: 1}}}) +
			event('content_block_start', {index: 0, content_block: {type: 'text', text: ''}}) +
			event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: 'first '}}),
		closing:
			event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: 'last'}}) +
			event('content_block_stop', {index: 0}) +
			event('message_delta', {delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: 2}}) +
			event('message_stop', {}),
	};
}

type Streamed = {readonly status: number; readonly text: string; readonly firstChunk: number; readonly ended: number};

/** One streamed chat completion through the gateway: when its first chunk and its end arrived (a counter, not a clock). */
async function streamChat(gateway: TestGateway, key: string, model: string, agent: Agent, tick: () => number, signal: AbortSignal, onFirstChunk: () => void = () => {}): Promise<Streamed> {
	const response = await request(`${gateway.url}/v1/chat/completions`, {
		method: 'POST',
		headers: {'content-type': 'application/json', authorization: `Bearer ${key}`},
		body: JSON.stringify({model, stream: true, messages: [{role: 'user', content: 'hi'}]}),
		dispatcher: agent,
		signal,
	});
	let text = '';
	let firstChunk = -1;
	for await (const chunk of response.body) {
		if (firstChunk === -1) {
			firstChunk = tick();
			onFirstChunk();
		}
		text += String(chunk);
	}
	return {status: response.statusCode, text, firstChunk, ended: tick()};
}

/** `run`, or a rejection naming `what` once `ms` have passed (its signal is aborted then, so it can stop too). */
async function withDeadline<T>(ms: number, what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const controller = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	const expired = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => {
			const error = new Error(`${what}: not done within ${ms / 1000} s`);
			controller.abort(error);
			reject(error);
		}, ms);
	});
	try {
		return await Promise.race([run(controller.signal), expired]);
	} finally {
		clearTimeout(timer);
	}
}

async function until(ready: () => boolean, signal: AbortSignal): Promise<void> {
	while (!ready()) {
		signal.throwIfAborted();
		await new Promise(resolve => setTimeout(resolve, 10));
	}
}

for (const [mode, format, model] of [
	['passthrough', 'openai', 'held-model'],
	['translated', 'anthropic', 'held-translated'],
] as const) {
	test(`${streams} concurrent streams (${mode}) all receive their first chunk before any of them ends`, {timeout: 120_000, skip: tooFewFiles()}, async () => {
		// Released once every client has its first chunk; past the deadline the test lets go itself, and fails.
		const provider = await new HoldingProvider(new Set([model])).start();
		const gateway = await startTestGateway();
		const agent = new Agent({connections: null, keepAliveTimeout: 1000});
		try {
			await addChannel(gateway.store, {name: 'held', format, baseUrl: format === 'openai' ? `${provider.url}/v1` : provider.url, apiKey: 'sk-held-provider-key', models: model});
			const key = (await gateway.createKey({name: 'many'})).secret;
			let clock = 0;
			const tick = () => ++clock;
			const results = await withDeadline(60_000, `${streams} streams`, async signal => {
				const release = setTimeout(() => provider.stopHolding(), 20_000);
				try {
					let started = 0;
					const onFirstChunk = () => {
						if (++started === streams) provider.release();
					};
					return await Promise.all(Array.from({length: streams}, () => streamChat(gateway, key, model, agent, tick, signal, onFirstChunk)));
				} finally {
					clearTimeout(release);
				}
			});
			assert.deepEqual(new Set(results.map(result => result.status)), new Set([200]));
			for (const result of results) {
				assert.match(result.text, /first /);
				assert.match(result.text, /last/);
				assert.match(result.text, /data: \[DONE\]\n\n$/);
			}
			const lastFirstChunk = Math.max(...results.map(result => result.firstChunk));
			const firstEnd = Math.min(...results.map(result => result.ended));
			const before = results.filter(result => result.firstChunk < firstEnd).length;
			assert.ok(lastFirstChunk < firstEnd, `only ${before} of ${streams} streams had their first chunk before the first one ended: streams were queued`);
			await withDeadline(10_000, 'request log', signal => until(() => gateway.finished.length >= streams, signal));
			assert.equal(gateway.finished.filter(event => event.outcome === 'ok' && event.usage?.outputTokens === 2).length, streams);
		} finally {
			await agent.destroy();
			await gateway.close();
			await provider.close();
		}
	});
}

test('slow streams on one channel never delay another channel on the same provider host', {timeout: 120_000}, async () => {
	const slowCount = 150;
	const provider = await new HoldingProvider(new Set(['slow-model'])).start();
	const gateway = await startTestGateway();
	const agent = new Agent({connections: null, keepAliveTimeout: 1000});
	const slow = new AbortController();
	let slowStreams: Array<Promise<Streamed>> = [];
	try {
		await addChannel(gateway.store, {name: 'slow', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-slow-provider-key', models: 'slow-model'});
		await addChannel(gateway.store, {name: 'quick', format: 'anthropic', baseUrl: provider.url, apiKey: 'sk-quick-provider-key', models: 'quick-model'});
		await addChannel(gateway.store, {name: 'quick-openai', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-quick-openai-key', models: 'quick-openai-model'});
		const key = (await gateway.createKey({name: 'both'})).secret;
		let clock = 0;
		const tick = () => ++clock;
		slowStreams = Array.from({length: slowCount}, () => streamChat(gateway, key, 'slow-model', agent, tick, slow.signal));
		await withDeadline(30_000, `all ${slowCount} slow streams to reach the provider (a pool capped below that per host queues the rest)`, signal => until(() => provider.held.length >= slowCount, signal));
		// Every slow stream holds a connection to the host; the other channels' requests still go straight through.
		const quick = await withDeadline(20_000, 'requests to the other channels while the slow streams are held', signal =>
			Promise.all(Array.from({length: 40}, (_, index) => streamChat(gateway, key, index % 2 ? 'quick-model' : 'quick-openai-model', agent, tick, signal))),
		);
		for (const result of quick) {
			assert.equal(result.status, 200);
			assert.match(result.text, /"content":"first "/);
			assert.match(result.text, /"content":"last"/);
			assert.match(result.text, /data: \[DONE\]\n\n$/);
		}
		assert.equal(provider.held.length, slowCount, 'the slow streams were still open meanwhile');
		provider.release();
		const done = await withDeadline(30_000, 'the slow streams', () => Promise.all(slowStreams));
		assert.ok(done.every(result => result.status === 200 && /data: \[DONE\]\n\n$/.test(result.text)));
		assert.ok(Math.min(...done.map(result => result.ended)) > Math.max(...quick.map(result => result.ended)), 'the slow streams ended only when released');
	} finally {
		provider.stopHolding();
		slow.abort();
		await Promise.allSettled(slowStreams);
		await agent.destroy();
		await gateway.close();
		await provider.close();
	}
});
