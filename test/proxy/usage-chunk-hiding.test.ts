/**
 * An OpenAI client that streams without asking for usage: the gateway asks for it on its own account
 * (`stream_options.include_usage`) and hides the usage chunk from the client. The request goes
 * upstream as the client's own bytes with that option in front of its first key (no re-encoding of
 * a long conversation), and the answer reaches the client as the provider's own bytes — comments
 * (keep-alives), `id:` lines and CRLF framing included — with only the usage frame cut out, wherever
 * the provider's writes split it. A strict raw provider writes the stream in the pieces each case
 * names and records the request text it received.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {addChannel} from '../../source/services/channels.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';

type Script = {readonly pieces: readonly string[]};

let provider: {url: string; received: Buffer[]; next: Script[]; close: () => Promise<void>};
let gateway: TestGateway;
let secret: string;

const chunk = (choices: unknown[], extra: object = {}) => JSON.stringify({id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices, ...extra});
const delta = (content: string) => chunk([{index: 0, delta: {content}, finish_reason: null}], {usage: null});
const finish = chunk([{index: 0, delta: {}, finish_reason: 'stop'}], {usage: null});
const usageFrame = `data: ${chunk([], {usage: {prompt_tokens: 31, completion_tokens: 5, total_tokens: 36}})}\n\n`;

async function rawProvider(): Promise<typeof provider> {
	const received: Buffer[] = [];
	const next: Script[] = [];
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const parts: Buffer[] = [];
		req.on('data', (part: Buffer) => parts.push(part));
		req.on('end', () => {
			const bytes = Buffer.concat(parts);
			received.push(bytes);
			const body = JSON.parse(bytes.toString('utf8')) as {stream?: unknown; stream_options?: {include_usage?: unknown}};
			const script = next.shift();
			if (req.url !== '/v1/chat/completions' || body.stream !== true || body.stream_options?.include_usage !== true || !script) {
				res.writeHead(400, {'content-type': 'application/json'});
				res.end('{"error":{"message":"expected a streamed chat completion with include_usage","type":"invalid_request_error","param":null,"code":null}}');
				return;
			}
			res.writeHead(200, {'content-type': 'text/event-stream'});
			// Each piece its own write, a moment apart: the gateway sees them as separate chunks.
			const pieces = [...script.pieces];
			const write = () => {
				const piece = pieces.shift();
				if (piece === undefined) return void res.end();
				res.write(piece);
				setTimeout(write, 15);
			};
			write();
		});
	});
	await new Promise<void>(resolve => server.listen({host: '127.0.0.1', port: 0}, resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		next,
		close: async () => {
			server.closeAllConnections();
			await new Promise(resolve => server.close(resolve));
		},
	};
}

before(async () => {
	provider = await rawProvider();
	gateway = await startTestGateway();
	await addChannel(gateway.store, {name: 'raw-openai', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-raw-provider-key', models: 'gpt-4o-mini'});
	await gateway.registry.refresh();
	({secret} = await gateway.createKey({name: 'hiding'}));
});
after(async () => {
	await gateway.close();
	await provider.close();
});

async function stream(text: string | Buffer, script: Script): Promise<{client: string; sent: string; sentBytes: Buffer; usage: unknown}> {
	provider.next.push(script);
	const finished = gateway.nextFinished();
	const response = await fetch(`${gateway.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: text});
	const client = await response.text();
	assert.equal(response.status, 200, client);
	const sentBytes = provider.received.at(-1)!;
	return {client, sent: sentBytes.toString('utf8'), sentBytes, usage: (await finished).usage};
}

const request = '  {"model": "gpt-4o-mini", "stream": true,\n "messages": [{"role": "user", "content": "caf\\u00e9, count to two"}]}';

test('the request goes as the client wrote it, include_usage in front of its first key', async () => {
	const {sent} = await stream(request, {pieces: [`data: ${delta('one')}\n\n`, `data: ${finish}\n\n${usageFrame}data: [DONE]\n\n`]});
	assert.equal(sent, '  {"stream_options":{"include_usage":true},"model": "gpt-4o-mini", "stream": true,\n "messages": [{"role": "user", "content": "caf\\u00e9, count to two"}]}');
});

test('a long conversation (over 64 KiB, non-ASCII text in it) goes as it came too, the option in front', async () => {
	const turns = Array.from({length: 60}, (_, index) => ({role: index % 2 ? 'assistant' : 'user', content: `turn ${index}: ${'déjà vu — 継続 '.repeat(100)}`}));
	const text = JSON.stringify({model: 'gpt-4o-mini', messages: turns, stream: true});
	assert.ok(text.length > 64 * 1024);
	const {sent} = await stream(text, {pieces: [`data: ${finish}\n\n${usageFrame}data: [DONE]\n\n`]});
	assert.equal(sent, `{"stream_options":{"include_usage":true},${text.slice(1)}`);
});

test('a long body that is not valid UTF-8 goes as the text the gateway read (U+FFFD for the bad bytes), never as its own bytes', async () => {
	// 0xC0 0xA2 is an overlong `"`: a lenient decoder upstream could read it as a quote the gateway never saw.
	const head = Buffer.from(`{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"${'x'.repeat(70_000)} `);
	const bytes = Buffer.concat([head, Buffer.from([0xc0, 0xa2]), Buffer.from('"}]}')]);
	const {sentBytes} = await stream(bytes, {pieces: [`data: ${finish}\n\n${usageFrame}data: [DONE]\n\n`]});
	assert.ok(!sentBytes.includes(Buffer.from([0xc0, 0xa2])), 'the invalid bytes went upstream');
	assert.ok(sentBytes.includes(Buffer.from(' \ufffd\ufffd"}]}')), sentBytes.subarray(-20).toString('hex'));
	assert.ok(sentBytes.subarray(0, 60).toString().startsWith('{"stream_options":{"include_usage":true},"model"'));
});

test('the client gets the provider bytes as they came, comments, ids and CRLF frames included, without the usage frame', async () => {
	const shown = [
		': OPENROUTER PROCESSING\n\n',
		`id: 1\ndata: ${delta('one ')}\n\n`,
		`data: ${delta('two')}\r\n\r\n`,
		': keep-alive\n\n',
		`data: ${finish}\n\n`,
	];
	const {client, usage} = await stream(request, {pieces: [...shown, usageFrame, 'data: [DONE]\n\n']});
	assert.equal(client, `${shown.join('')}data: [DONE]\n\n`);
	assert.deepEqual(usage, {inputTokens: 31, outputTokens: 5});
});

test('the usage frame is cut out wherever the writes split it: with the frames around it, or cut in three', async () => {
	const head = `data: ${delta('one')}\n\ndata: ${finish}\n\n`;
	const together = await stream(request, {pieces: [`${head}${usageFrame}data: [DONE]\n\n`]});
	assert.equal(together.client, `${head}data: [DONE]\n\n`);
	assert.deepEqual(together.usage, {inputTokens: 31, outputTokens: 5});
	const cut = [`${head}${usageFrame.slice(0, 20)}`, usageFrame.slice(20, 60), `${usageFrame.slice(60)}data: [DONE]\n\n`];
	const split = await stream(request, {pieces: cut});
	assert.equal(split.client, `${head}data: [DONE]\n\n`);
	assert.deepEqual(split.usage, {inputTokens: 31, outputTokens: 5});
});

test('frames ended by a blank line of mixed endings are never cut with the usage frame they sit beside', async () => {
	// `\n\r\n`: an LF line, then a CRLF blank line — a frame end none of the usual separators names.
	const mixed = `data: ${delta('kept')}\n\r\n${usageFrame}`;
	const {client} = await stream(request, {pieces: [`data: ${delta('one')}\n\n`, mixed, 'data: [DONE]\n\n']});
	assert.ok(client.includes('"content":"kept"'), client);
});

test('a chunk with empty choices and no usage (Azure\'s content-filter chunk) reaches the client unchanged', async () => {
	const filter = `data: ${chunk([], {prompt_filter_results: [{prompt_index: 0, content_filter_results: {}}]})}\n\n`;
	const rest = `data: ${delta('ok')}\n\ndata: ${finish}\n\n`;
	const {client} = await stream(request, {pieces: [filter, rest, `${usageFrame}data: [DONE]\n\n`]});
	assert.equal(client, `${filter}${rest}data: [DONE]\n\n`);
});

test('a client that names stream_options without include_usage has its body re-encoded with it, its own options kept', async () => {
	const text = '{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_obfuscation":false},"messages":[{"role":"user","content":"hi"}]}';
	const {sent, client} = await stream(text, {pieces: [`data: ${finish}\n\n${usageFrame}data: [DONE]\n\n`]});
	assert.deepEqual((JSON.parse(sent) as {stream_options: unknown}).stream_options, {include_obfuscation: false, include_usage: true});
	assert.ok(!client.includes('"usage":{'), client);
});
