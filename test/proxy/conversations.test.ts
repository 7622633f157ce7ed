/**
 * A conversation stays on one channel: among equal channels the gateway round-robins per request,
 * but turns of one conversation (the client's session header, else the same system prompt, tools
 * and first message) go to the channel that served the previous turn while it is healthy; a
 * failure moves it. Model names with the suffixes clients add resolve to the configured model.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, eventually} from '../helpers/sdks.js';
import {ConversationPins, conversationKey} from '../../source/proxy/conversation-pins.js';
import {nameMatch} from '../../source/proxy/model-names.js';

let gateway: TestGateway;
let one: FakeProvider;
let two: FakeProvider;
let secret: string;

before(async () => {
	[one, two] = await Promise.all([startFakeProvider('anthropic'), startFakeProvider('anthropic')]);
	gateway = await startTestGateway();
	await gateway.addProvider(one, {name: 'one', models: 'claude-sonnet-4-6'});
	await gateway.addProvider(two, {name: 'two', models: 'claude-sonnet-4-6'});
	secret = (await gateway.createKey({name: 'pins'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all([one.close(), two.close()]);
});
beforeEach(() => {
	one.reset();
	two.reset();
	gateway.finished.length = 0;
});

const session = (id: string) => new Anthropic({baseURL: gateway.url, apiKey: secret, defaultHeaders: {'x-claude-code-session-id': id}, maxRetries: 0});

async function turn(client: Anthropic, system: string, first = 'hello'): Promise<string> {
	await client.messages.create({model: 'claude-sonnet-4-6', max_tokens: 50, system, messages: [{role: 'user', content: first}]});
	await eventually(() => gateway.finished.length > 0);
	return gateway.finished.pop()!.channelName!;
}

test('without pinning, equal channels take turns; turns of one session stay on one channel', async () => {
	// Different conversations (no session header, different first messages) are spread.
	const spread = new Set<string>();
	for (const first of ['a', 'b', 'c', 'd']) spread.add(await turn(anthropicClient(gateway.url, secret), 'sys', first));
	assert.deepEqual([...spread].sort(), ['one', 'two']);
	// One Claude Code session: every turn on the channel of its first.
	const client = session('5f0c3c1e-9d1b-4a8e-9a57-0c1b2d3e4f50');
	const first = await turn(client, 'sys', 'first');
	for (let i = 0; i < 4; i++) assert.equal(await turn(client, `sys ${i}`, `turn ${i}`), first, `turn ${i}`);
});

test('without a session header, the same system prompt and first message pin the conversation; the log says so', async () => {
	const client = anthropicClient(gateway.url, secret);
	const first = await turn(client, 'You are terse.', 'What is 2+2?');
	for (let i = 0; i < 3; i++) assert.equal(await turn(client, 'You are terse.', 'What is 2+2?'), first);
	await client.messages.create({model: 'claude-sonnet-4-6', max_tokens: 50, system: 'You are terse.', messages: [{role: 'user', content: 'What is 2+2?'}]});
	await eventually(() => gateway.finished.length > 0);
	assert.equal(gateway.finished.at(-1)!.conversation?.state, 'pinned');
});

test('a failing pinned channel moves the conversation, and it stays on the new one', async () => {
	const client = session('0a7e1d52-6f0f-4c1d-8f9e-5b3c2a1d0e9f');
	const first = await turn(client, 'sys', 'x');
	const [pinned, other] = first === 'one' ? [one, 'two'] : [two, 'one'];
	pinned.enqueue({error: {status: 500}});
	assert.equal(await turn(client, 'sys', 'x'), other);
	assert.equal(gateway.finished.length, 0);
	await client.messages.create({model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{role: 'user', content: 'x'}]});
	await eventually(() => gateway.finished.length > 0);
	assert.deepEqual([gateway.finished.at(-1)!.channelName, gateway.finished.at(-1)!.conversation?.state], [other, 'pinned']);
});

test('model names with a [1m] tag or a date resolve to the configured model, never forwarded with the suffix', async () => {
	for (const model of ['claude-sonnet-4-6[1m]', 'claude-sonnet-4-6-20250929']) {
		await anthropicClient(gateway.url, secret).messages.create({model, max_tokens: 10, messages: [{role: 'user', content: 'hi'}]});
	}
	const sent = [...one.received, ...two.received].map(request => (request.body as {model: string}).model);
	assert.deepEqual(sent, ['claude-sonnet-4-6', 'claude-sonnet-4-6']);
	await assert.rejects(anthropicClient(gateway.url, secret).messages.create({model: 'claude-opus-4-1', max_tokens: 10, messages: [{role: 'user', content: 'hi'}]}), {status: 404});
});

test('name matching: exact beats a tag, a tag beats a date; conversation keys are per virtual key; pins are bounded and expire', () => {
	assert.deepEqual([nameMatch('gpt-4o', 'gpt-4o'), nameMatch('claude-sonnet-4-6', 'claude-sonnet-4-6[1m]'), nameMatch('claude-sonnet-4-6-20250929', 'claude-sonnet-4-6'), nameMatch('gpt-4o', 'gpt-4o-mini')], [3, 2, 1, 0]);
	const body = {system: 's', messages: [{role: 'user', content: 'm'}]};
	assert.equal(conversationKey('k1', {}, body), conversationKey('k1', {}, {...body, messages: [...body.messages, {role: 'assistant', content: 'later'}]}));
	assert.notEqual(conversationKey('k1', {}, body), conversationKey('k2', {}, body));
	assert.equal(conversationKey('k1', {'session-id': 'abc'}, body), conversationKey('k1', {'session-id': 'abc'}, {messages: []}));
	let now = 0;
	const pins = new ConversationPins(() => now, 2, 1000);
	assert.deepEqual([pins.served('a', 'ch1'), pins.served('a', 'ch1'), pins.served('a', 'ch2')], ['new', 'pinned', 'moved']);
	pins.served('b', 'ch1');
	pins.served('c', 'ch1');
	assert.equal(pins.size, 2);
	assert.equal(pins.pinned('a'), undefined, 'the oldest pin went first');
	now = 1001;
	assert.equal(pins.pinned('c'), undefined, 'an idle pin expires');
});
