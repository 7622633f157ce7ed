/**
 * Compressed request bodies (Codex sends zstd; other clients gzip, deflate, br) are decompressed
 * before they are parsed; an encoding the gateway cannot read is a 415 and a broken body a 400, in the
 * client's format; the body limit counts the decompressed size.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {brotliCompressSync, deflateSync, gzipSync} from 'node:zlib';
import {request} from 'undici';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';

let gateway: TestGateway;
let provider: FakeProvider;
let secret: string;

const body = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"compressed hello"}]}';
/** `body` compressed with the zstd CLI (`zstd -19`): Node 20 has no zstd compressor of its own. */
const zstdBody = Buffer.from('KLUv/SRRHQIAEsUPEaDthR2DitnbWiMA6WaKgOrA1dRza7tA2u6N0DE6uXwrH6OHx+158m0cTwt5rzrd6x7OHnOCh5BQnbxtYncaAPU+PrE=', 'base64');

before(async () => {
	provider = await startFakeProvider('openai');
	gateway = await startTestGateway();
	await gateway.addProvider(provider, {name: 'oa', models: 'gpt-4o-mini'});
	secret = (await gateway.createKey({name: 'codex'})).secret;
});
after(async () => {
	await gateway.close();
	await provider.close();
});

async function send(encoding: string, payload: Buffer): Promise<{status: number; json: {choices?: Array<{message: {content: string}}>; error?: {message: string; type: string}}}> {
	const response = await request(`${gateway.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', 'content-encoding': encoding, authorization: `Bearer ${secret}`}, body: payload});
	return {status: response.statusCode, json: (await response.body.json()) as never};
}

test('zstd, gzip, deflate and br bodies are read as the JSON they compress', async () => {
	for (const [encoding, payload] of [['zstd', zstdBody], ['gzip', gzipSync(body)], ['deflate', deflateSync(body)], ['br', brotliCompressSync(body)]] as const) {
		provider.reset();
		const answer = await send(encoding, payload);
		assert.equal(answer.status, 200, `${encoding}: ${JSON.stringify(answer.json)}`);
		assert.equal(answer.json.choices?.[0]?.message.content, 'Hello from fake-openai');
		assert.deepEqual((provider.received[0]!.body as {messages: unknown}).messages, [{role: 'user', content: 'compressed hello'}], encoding);
	}
});

test('an unknown encoding is a 415 and a broken body a 400, in the client format', async () => {
	const unknown = await send('compress', Buffer.from(body));
	assert.equal(unknown.status, 415);
	assert.match(unknown.json.error?.message ?? '', /encoded as "compress".*gzip, deflate, br or zstd/);
	const broken = await send('gzip', Buffer.from('not gzip at all'));
	assert.equal(broken.status, 400);
	assert.match(broken.json.error?.message ?? '', /not valid gzip/);
});

test('the body limit counts what a body decompresses to', async () => {
	const huge = gzipSync(Buffer.from(`{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${'a'.repeat(40 * 1024 * 1024)}"}]}`));
	assert.ok(huge.length < 1024 * 1024, 'a small bomb');
	const answer = await send('gzip', huge);
	assert.equal(answer.status, 413);
});
