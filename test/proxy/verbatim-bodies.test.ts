/**
 * A passed-through request whose body the gateway does not change goes upstream as the bytes the
 * client sent — no re-encoding of a coding agent's 200 KB context on every turn — unless a key the
 * gateway routes or meters by is duplicated or spelled with an escape (JSON.parse keeps a duplicate's
 * last value, a provider may keep its first: forwarding those bytes would let the provider read a
 * model the key was never checked for). Strict fake providers record the text they received.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import type {KeyRecord} from '../../source/base/records.js';

let gateway: TestGateway;
let openai: FakeProvider;
let anthropic: FakeProvider;
let gemini: FakeProvider;
let key: KeyRecord;
let narrow: KeyRecord;

before(async () => {
	[openai, anthropic, gemini] = await Promise.all([startFakeProvider('openai'), startFakeProvider('anthropic'), startFakeProvider('gemini')]);
	gateway = await startTestGateway();
	await gateway.addProvider(openai, {models: 'gpt-4o-mini,gpt-4o,fast=gpt-4o'});
	await gateway.addProvider(anthropic);
	await gateway.addProvider(gemini);
	key = await gateway.createKey({name: 'verbatim'});
	narrow = await gateway.createKey({name: 'mini only', models: ['gpt-4o-mini']});
});
after(async () => {
	await gateway.close();
	await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
});
beforeEach(() => {
	for (const provider of [openai, anthropic, gemini]) provider.reset();
});

async function post(path: string, text: string, headers: Record<string, string>): Promise<{status: number; body: string}> {
	const response = await fetch(`${gateway.url}${path}`, {method: 'POST', headers: {'content-type': 'application/json', ...headers}, body: text});
	return {status: response.status, body: await response.text()};
}

const openaiPost = (text: string, secret = key.secret) => post('/v1/chat/completions', text, {authorization: `Bearer ${secret}`});

test('an OpenAI body with its own spacing, number spelling and escapes reaches the provider byte for byte', async () => {
	const text = '{ "model" : "gpt-4o-mini",\n  "messages": [{"role": "user", "content": "caf\\u00e9 at 1.0 \\ud83d\\ude00"}],\n  "temperature": 1.0, "top_p": 1e0 }';
	const answer = await openaiPost(text);
	assert.equal(answer.status, 200, answer.body);
	assert.equal(openai.received.at(-1)?.text, text);
});

test('a streamed OpenAI body that already asks for usage goes as it came; one that does not goes with include_usage in front', async () => {
	const asked = '{"model":"gpt-4o-mini", "stream": true, "stream_options": {"include_usage": true}, "messages":[{"role":"user","content":"hi"}]}';
	assert.equal((await openaiPost(asked)).status, 200);
	assert.equal(openai.received.at(-1)?.text, asked);
	const plain = '{"model":"gpt-4o-mini", "stream": true, "messages":[{"role":"user","content":"hi"}]}';
	assert.equal((await openaiPost(plain)).status, 200);
	const sent = openai.received.at(-1)!;
	assert.equal(sent.text, `{"stream_options":{"include_usage":true},${plain.slice(1)}`);
});

test('an alias is re-encoded with the upstream model', async () => {
	const text = '{"model": "fast", "messages": [{"role": "user", "content": "hi"}]}';
	assert.equal((await openaiPost(text)).status, 200);
	const sent = openai.received.at(-1)!;
	assert.equal((sent.body as {model: string}).model, 'gpt-4o');
	assert.equal(sent.text.split('"model"').length - 1, 1);
});

test('a duplicated or escaped model key never reaches the provider: the body is re-encoded with the one model the key was checked for', async () => {
	// The key may use gpt-4o-mini only; the gateway reads the last "model", a first-wins provider would read gpt-4o.
	const duplicate = '{"model":"gpt-4o","model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}]}';
	assert.equal((await openaiPost(duplicate, narrow.secret)).status, 200);
	let sent = openai.received.at(-1)!;
	assert.equal(sent.text.split('"model"').length - 1, 1, sent.text);
	assert.equal((sent.body as {model: string}).model, 'gpt-4o-mini');
	const escaped = '{"model":"gpt-4o","m\\u006fdel":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}]}';
	assert.equal((await openaiPost(escaped, narrow.secret)).status, 200);
	sent = openai.received.at(-1)!;
	assert.ok(!sent.text.includes('\\u006f'), sent.text);
	assert.equal(sent.text.split('"model"').length - 1, 1, sent.text);
	assert.equal((sent.body as {model: string}).model, 'gpt-4o-mini');
	// A duplicated include_usage (the gateway would see true, the provider perhaps false: no usage to count) is re-encoded too.
	const usage = '{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":false,"include_usage":true},"messages":[{"role":"user","content":"hi"}]}';
	assert.equal((await openaiPost(usage)).status, 200);
	sent = openai.received.at(-1)!;
	assert.equal(sent.text.split('"include_usage"').length - 1, 1, sent.text);
});

test('Anthropic and Gemini bodies pass byte for byte too', async () => {
	const message = '{"model": "claude-sonnet-4-6", "max_tokens": 64,\n "messages": [{"role": "user", "content": "hi \\u00e9"}]}';
	const answer = await post('/v1/messages', message, {'x-api-key': key.secret, 'anthropic-version': '2023-06-01'});
	assert.equal(answer.status, 200, answer.body);
	assert.equal(anthropic.received.at(-1)?.text, message);
	const content = '{ "contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"temperature": 0.50} }';
	const generated = await post('/v1beta/models/gemini-2.5-flash:generateContent', content, {'x-goog-api-key': key.secret});
	assert.equal(generated.status, 200, generated.body);
	assert.equal(gemini.received.at(-1)?.text, content);
});

test('a request that fails over reaches the next channel byte for byte too; its text is dropped only once no channel can follow', async () => {
	// A second OpenAI channel for the same model, behind the first: the first answers 500, the request moves on.
	const backup = await startFakeProvider('openai');
	const primary = await startFakeProvider('openai');
	const local = await startTestGateway();
	try {
		await local.addProvider(primary, {name: 'primary', models: 'gpt-4o-mini', priority: 2});
		await local.addProvider(backup, {name: 'backup', models: 'gpt-4o-mini', priority: 1});
		const {secret} = await local.createKey({name: 'failover-verbatim'});
		primary.enqueue({error: {status: 500, message: 'primary down'}});
		const text = '{ "model" : "gpt-4o-mini",  "messages": [{"role": "user", "content": "keep me \\u00e9xact"}], "top_p": 1e0 }';
		const finished = local.nextFinished();
		const response = await fetch(`${local.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: text});
		assert.equal(response.status, 200, await response.clone().text());
		await response.text();
		assert.deepEqual((await finished).attempts, ['primary', 'backup']);
		assert.equal(primary.received.at(-1)?.text, text);
		assert.equal(backup.received.at(-1)?.text, text);
	} finally {
		await local.close();
		await Promise.all([primary.close(), backup.close()]);
	}
});
