/**
 * A slow stream waits for its provider's next chunk with nothing allocated for the wait (issue 14,
 * thousands of slow streams): the provider's body is handed to the gateway chunk by chunk through
 * calls (`UpstreamBody.consume`), not a promise per `next()`, both where it is passed through
 * (passthrough-stream.ts) and where it is translated step by step (translated-stream.ts). Each
 * awaited chunk kept a promise, its reader and two or three suspended async frames alive for the
 * whole gap between two chunks — over 2,000 open streams, long enough for V8 to move them to the
 * old generation, where they were the largest share of what the gateway promoted. Pinned by
 * counting the promises the gateway's code creates for one stream, with few chunks and with many:
 * what each chunk adds must be below one (it was four passed through).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, request as httpRequest, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {addChannel} from '../../source/services/channels.js';
import {startTestGateway} from '../helpers/gateway.js';
import {gatewayPromiseCounter} from '../helpers/promises.js';

/**
 * A provider that streams `chunks` text deltas 2 ms apart, in OpenAI chat completions
 * (`/v1/chat/completions`, the usage chunk when asked for) or Anthropic messages (`/v1/messages`).
 */
async function slowProvider(chunks: () => number): Promise<{url: string; close: () => Promise<void>}> {
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		let raw = '';
		req.setEncoding('utf8');
		req.on('data', (part: string) => (raw += part));
		req.on('end', () => {
			const body = JSON.parse(raw) as {model?: string; stream?: boolean; max_tokens?: number; stream_options?: {include_usage?: boolean}};
			const anthropic = req.url === '/v1/messages';
			if ((!anthropic && req.url !== '/v1/chat/completions') || body.stream !== true || typeof body.model !== 'string' || (anthropic && typeof body.max_tokens !== 'number')) {
				res.writeHead(400, {'content-type': 'application/json'});
				res.end('{"error":{"message":"expected a streamed chat completion or message","type":"invalid_request_error","param":null,"code":null}}');
				return;
			}
			const total = chunks();
			const openaiFrame = (choices: unknown[], extra: object = {}) => `data: ${JSON.stringify({id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices, ...extra})}\n\n`;
			const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`;
			const opening = anthropic
				? event('message_start', {message: {id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: {input_tokens: 3, output_tokens: 1}}}) + event('content_block_start', {index: 0, content_block: {type: 'text', text: ''}})
				: openaiFrame([{index: 0, delta: {role: 'assistant', content: ''}, finish_reason: null}]);
			const delta = (index: number) => (anthropic ? event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: `w${index} `}}) : openaiFrame([{index: 0, delta: {content: `w${index} `}, finish_reason: null}]));
			const closing = anthropic
				? event('content_block_stop', {index: 0}) + event('message_delta', {delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: total}}) + event('message_stop', {})
				: `${openaiFrame([{index: 0, delta: {}, finish_reason: 'stop'}])}${body.stream_options?.include_usage ? openaiFrame([], {usage: {prompt_tokens: 3, completion_tokens: total, total_tokens: 3 + total}}) : ''}data: [DONE]\n\n`;
			res.writeHead(200, {'content-type': 'text/event-stream'});
			res.write(opening);
			let sent = 0;
			const timer = setInterval(() => {
				if (sent < total) {
					res.write(delta(sent++));
					return;
				}
				clearInterval(timer);
				res.end(closing);
			}, 2);
		});
	});
	await new Promise<void>(resolve => server.listen({host: '127.0.0.1', port: 0}, resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url: origin,
		close: async () => {
			server.closeAllConnections();
			await new Promise(resolve => server.close(resolve));
		},
	};
}

/** A streamed request through node:http (which makes no promises of its own); resolves with the whole answer. */
function stream(url: string, secret: string, body: object): Promise<string> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}}, res => {
			let text = '';
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => (text += chunk));
			res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${res.statusCode}: ${text}`))));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(JSON.stringify(body));
	});
}

test('a slow stream creates no promise per chunk: passed through (the gateway hiding the usage chunk, or the client asking for it) and translated', async () => {
	let chunks = 0;
	const provider = await slowProvider(() => chunks);
	const gateway = await startTestGateway();
	const promises = gatewayPromiseCounter();
	try {
		await addChannel(gateway.store, {name: 'slow', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-slow-provider-key', models: 'gpt-4o-mini'});
		await addChannel(gateway.store, {name: 'slow-anthropic', format: 'anthropic', baseUrl: provider.url, apiKey: 'sk-ant-slow-provider-key', models: 'claude-sonnet-4-6'});
		await gateway.registry.refresh();
		const {secret} = await gateway.createKey({name: 'waits'});
		for (const [model, includeUsage] of [['gpt-4o-mini', false], ['gpt-4o-mini', true], ['claude-sonnet-4-6', false]] as const) {
			const body = {model, stream: true, messages: [{role: 'user', content: 'count'}], ...(includeUsage ? {stream_options: {include_usage: true}} : {})};
			const count = async (deltas: number) => {
				chunks = deltas;
				await stream(`${gateway.url}/v1/chat/completions`, secret, body); // warm: connections, caches
				promises.start();
				const text = await stream(`${gateway.url}/v1/chat/completions`, secret, body);
				const made = promises.stop();
				assert.match(text, new RegExp(`w${deltas - 1} `));
				assert.match(text, /data: \[DONE\]/);
				assert.equal(/"usage":\{/.test(text), includeUsage, 'the usage chunk reaches the client only when it asked for it');
				return made;
			};
			const few = await count(10);
			const many = await count(110);
			const perChunk = (many - few) / 100;
			assert.ok(perChunk < 0.5, `${model}: ${perChunk.toFixed(2)} promises a chunk (${few} for 10 chunks, ${many} for 110; include_usage: ${includeUsage})`);
		}
	} finally {
		promises.dispose();
		await gateway.close();
		await provider.close();
	}
});
