/**
 * A translated stream's decoder stops at the provider's terminal event (Anthropic's message_stop),
 * usually a moment before the provider's body ends. What is left must be read and dropped, not
 * destroyed: destroying it aborted the request and closed the keep-alive connection, so every
 * translated stream paid for a new connection to the provider (issue 14). A fake Anthropic provider
 * sends the whole stream, then ends the body a little later, and counts its connections.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import OpenAI from 'openai';
import {addChannel} from '../../source/services/channels.js';
import {startTestGateway} from '../helpers/gateway.js';

const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`;

function anthropicStream(model: string): string {
	return (
		event('message_start', {message: {id: 'msg_reuse', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: {input_tokens: 7, output_tokens: 1}}}) +
		event('content_block_start', {index: 0, content_block: {type: 'text', text: ''}}) +
		event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: 'Hello'}}) +
		event('content_block_stop', {index: 0}) +
		event('message_delta', {delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: 3}}) +
		event('message_stop', {})
	);
}

test('translated streams reuse the connection to the provider: the rest of a body after the terminal event is drained, not destroyed', async () => {
	let connections = 0;
	const server: Server = createServer({keepAliveTimeout: 60_000}, (req, res) => {
		const parts: Buffer[] = [];
		req.on('data', (part: Buffer) => parts.push(part));
		req.on('end', () => {
			const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as {model: string; stream?: boolean};
			assert.equal(req.url, '/v1/messages');
			assert.equal(body.stream, true);
			res.writeHead(200, {'content-type': 'text/event-stream'});
			res.write(anthropicStream(body.model));
			// The body ends after its last event has been read: the decoder is done before this.
			setTimeout(() => res.end(), 30);
		});
	});
	server.on('connection', () => connections++);
	await new Promise<void>(resolve => server.listen({host: '127.0.0.1', port: 0}, resolve));
	const provider = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const gateway = await startTestGateway();
	try {
		await addChannel(gateway.store, {name: 'claude', format: 'anthropic', baseUrl: provider, apiKey: 'sk-ant-reuse-provider-key', models: 'reuse-model'});
		const key = (await gateway.createKey({name: 'reuse'})).secret;
		const client = new OpenAI({baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0});
		for (let turn = 0; turn < 5; turn++) {
			const stream = await client.chat.completions.create({model: 'reuse-model', stream: true, stream_options: {include_usage: true}, messages: [{role: 'user', content: 'hi'}]});
			let text = '';
			let usage: OpenAI.CompletionUsage | null | undefined;
			for await (const chunk of stream) {
				text += chunk.choices[0]?.delta.content ?? '';
				usage = chunk.usage ?? usage;
			}
			assert.equal(text, 'Hello');
			assert.deepEqual({prompt: usage?.prompt_tokens, completion: usage?.completion_tokens}, {prompt: 7, completion: 3});
			// The drained rest ends 30 ms after the last event; the next turn starts once it has.
			await new Promise(resolve => setTimeout(resolve, 60));
		}
		assert.equal(connections, 1, `5 translated streams opened ${connections} connections to the provider`);
	} finally {
		await gateway.close();
		server.closeAllConnections();
		await new Promise(resolve => server.close(resolve));
	}
});
