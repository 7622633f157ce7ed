/**
 * A client that reads slowly holds its provider back instead of making the gateway buffer the
 * answer: while the client's socket is full, the gateway stops reading the provider's body
 * (`UpstreamBody.pause`), so the provider's own writes stall — passed through and translated. Then
 * the whole answer still arrives, in order. A gateway that kept reading would hold the rest of a
 * 64 MB answer in memory for as long as the client took.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, request as httpRequest, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {addChannel} from '../../source/services/channels.js';
import {startTestGateway} from '../helpers/gateway.js';

const deltas = 48 * 1024;
/** About 1.3 KB a delta on the wire: some 64 MB in all. */
const word = 'x'.repeat(1200);

/** Streams `deltas` text deltas as fast as its socket takes them (OpenAI chat completions or Anthropic messages), counting the bytes it wrote. */
async function fastProvider(): Promise<{url: string; written: () => number; close: () => Promise<void>}> {
	let written = 0;
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		let raw = '';
		req.setEncoding('utf8');
		req.on('data', (part: string) => (raw += part));
		req.on('end', () => {
			const body = JSON.parse(raw) as {model?: string; stream?: boolean; max_tokens?: number};
			const anthropic = req.url === '/v1/messages';
			if ((!anthropic && req.url !== '/v1/chat/completions') || body.stream !== true || typeof body.model !== 'string' || (anthropic && typeof body.max_tokens !== 'number')) {
				res.writeHead(400, {'content-type': 'application/json'});
				res.end('{"error":{"message":"expected a streamed chat completion or message","type":"invalid_request_error","param":null,"code":null}}');
				return;
			}
			const openaiFrame = (choices: unknown[]) => `data: ${JSON.stringify({id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices})}\n\n`;
			const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`;
			const frames: Array<(index: number) => string> = [];
			const opening = anthropic
				? event('message_start', {message: {id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: {input_tokens: 3, output_tokens: 1}}}) + event('content_block_start', {index: 0, content_block: {type: 'text', text: ''}})
				: openaiFrame([{index: 0, delta: {role: 'assistant', content: ''}, finish_reason: null}]);
			frames.push(index => (anthropic ? event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: `${index} ${word}`}}) : openaiFrame([{index: 0, delta: {content: `${index} ${word}`}, finish_reason: null}])));
			const closing = anthropic
				? event('content_block_stop', {index: 0}) + event('message_delta', {delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: deltas}}) + event('message_stop', {})
				: `${openaiFrame([{index: 0, delta: {}, finish_reason: 'stop'}])}data: [DONE]\n\n`;
			res.writeHead(200, {'content-type': 'text/event-stream'});
			const write = (text: string) => {
				written += Buffer.byteLength(text);
				return res.write(text);
			};
			write(opening);
			let index = 0;
			const more = () => {
				while (index < deltas) {
					if (!write(frames[0]!(index++))) {
						res.once('drain', more);
						return;
					}
				}
				written += Buffer.byteLength(closing);
				res.end(closing);
			};
			more();
		});
	});
	await new Promise<void>(resolve => server.listen({host: '127.0.0.1', port: 0}, resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		written: () => written,
		close: async () => {
			server.closeAllConnections();
			await new Promise(resolve => server.close(resolve));
		},
	};
}

test('a client that stops reading holds the provider back, passed through and translated; then the whole answer arrives in order', {timeout: 120_000}, async () => {
	const provider = await fastProvider();
	const gateway = await startTestGateway();
	try {
		await addChannel(gateway.store, {name: 'fast-openai', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-fast-provider-key', models: 'gpt-4o-mini'});
		await addChannel(gateway.store, {name: 'fast-anthropic', format: 'anthropic', baseUrl: provider.url, apiKey: 'sk-ant-fast-provider-key', models: 'claude-sonnet-4-6'});
		await gateway.registry.refresh();
		const {secret} = await gateway.createKey({name: 'slow-reader'});
		for (const model of ['gpt-4o-mini', 'claude-sonnet-4-6']) {
			const before = provider.written();
			const {writtenWhilePaused, text} = await new Promise<{writtenWhilePaused: number; text: string}>((resolve, reject) => {
				const req = httpRequest(`${gateway.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}}, res => {
					assert.equal(res.statusCode, 200);
					// Read nothing for a while: only sockets and the gateway's small buffers fill.
					res.pause();
					setTimeout(() => {
						const writtenWhilePaused = provider.written() - before;
						let text = '';
						res.setEncoding('utf8');
						res.on('data', (chunk: string) => (text += chunk));
						res.on('end', () => resolve({writtenWhilePaused, text}));
						res.on('error', reject);
						res.resume();
					}, 1500);
				});
				req.on('error', reject);
				req.end(JSON.stringify({model, stream: true, messages: [{role: 'user', content: 'a long answer'}]}));
			});
			const total = provider.written() - before;
			assert.ok(total > 60 * 1024 * 1024, `${model}: the provider wrote only ${total} bytes`);
			assert.ok(writtenWhilePaused < total / 2, `${model}: the provider wrote ${writtenWhilePaused} of ${total} bytes while the client read nothing`);
			// Every delta, in order, then the end of the stream.
			const numbers = [...text.matchAll(/"content":"(\d+) x/g)].map(match => Number(match[1]));
			assert.equal(numbers.length, deltas, `${model}: deltas received`);
			assert.ok(
				numbers.every((value, index) => value === index),
				`${model}: deltas out of order`,
			);
			assert.match(text, /data: \[DONE\]\n\n$/);
		}
	} finally {
		await gateway.close();
		await provider.close();
	}
});
