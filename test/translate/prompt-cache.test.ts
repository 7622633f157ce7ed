/**
 * Prompt-cache markers and stable prefixes (issue 16): Claude Code's `cache_control` markers reach
 * an OpenAI-compatible channel that honours them (OpenRouter: Anthropic's shape on content parts),
 * and two consecutive turns of one conversation go upstream with the same bytes for what the first
 * turn already sent — system prompt, tools and history — on every channel format, so the provider's
 * prompt cache keeps matching.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import dns from 'node:dns';
import type Anthropic from '@anthropic-ai/sdk';
import {addChannel} from '../../source/services/channels.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient} from '../helpers/sdks.js';

let gateway: TestGateway;
let openai: FakeProvider;
let gemini: FakeProvider;
let secret: string;
const lookup = dns.lookup;

/**
 * openrouter.ai resolves to the fake OpenAI server on loopback for this process only: the channel's
 * base URL names the real host, which is what the gateway decides by.
 */
function resolveOpenrouterLocally(): void {
	const patched = (hostname: string, ...rest: unknown[]) => (lookup as (...args: unknown[]) => void).call(dns, hostname === 'openrouter.ai' ? '127.0.0.1' : hostname, ...rest);
	Object.assign(dns, {lookup: patched});
}

before(async () => {
	resolveOpenrouterLocally();
	[openai, gemini] = await Promise.all([startFakeProvider('openai'), startFakeProvider('gemini')]);
	gateway = await startTestGateway();
	await gateway.addProvider(openai, {name: 'deepseek-like', models: 'cc-plain=gpt-4o'});
	await gateway.addProvider(gemini, {name: 'gemini', models: 'cc-gemini=gemini-2.5-pro'});
	const port = new URL(openai.url).port;
	await addChannel(gateway.store, {name: 'openrouter', format: 'openai', baseUrl: `http://openrouter.ai:${port}/v1`, apiKey: openai.apiKey, models: 'cc-openrouter=gpt-4o'});
	await gateway.registry.refresh();
	secret = (await gateway.createKey({name: 'claude-code'})).secret;
});
after(async () => {
	Object.assign(dns, {lookup});
	await gateway.close();
	await Promise.all([openai.close(), gemini.close()]);
});

const system: Anthropic.TextBlockParam[] = [
	{type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude."},
	{type: 'text', text: 'Follow the project rules. '.repeat(50), cache_control: {type: 'ephemeral'}},
];

const tools: Anthropic.Tool[] = [
	{name: 'Read', description: 'Reads a file', input_schema: {type: 'object', properties: {path: {type: 'string'}, limit: {type: 'number', exclusiveMinimum: 0}}, required: ['path']}},
	{name: 'mcp__github__create_pull_request_with_a_rather_long_descriptive_name', description: 'Opens a PR', input_schema: {type: 'object', properties: {title: {type: 'string'}}}, cache_control: {type: 'ephemeral'}},
];

/** Claude Code's two turns: the marker on the newest user turn moves with it. */
const turns: Anthropic.MessageParam[][] = [
	[{role: 'user', content: [{type: 'text', text: 'Read /tmp/a.txt', cache_control: {type: 'ephemeral'}}]}],
	[
		{role: 'user', content: [{type: 'text', text: 'Read /tmp/a.txt'}]},
		{role: 'assistant', content: [{type: 'text', text: 'Reading it.'}, {type: 'tool_use', id: 'toolu_01', name: 'Read', input: {path: '/tmp/a.txt'}}]},
		{role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_01', content: 'alpha'}, {type: 'text', text: 'Summarise it.', cache_control: {type: 'ephemeral'}}]},
	],
];

/** Both turns through the gateway; what the provider received for each. */
async function twoTurns(model: string, provider: FakeProvider): Promise<[Record<string, unknown>, Record<string, unknown>]> {
	const client = anthropicClient(gateway.url, secret);
	const bodies: Array<Record<string, unknown>> = [];
	for (const messages of turns) {
		await client.messages.create({model, max_tokens: 1024, system, tools, messages, metadata: {user_id: 'user_abc_account_def_session_1'}});
		bodies.push(provider.received.at(-1)!.body as Record<string, unknown>);
	}
	return [bodies[0]!, bodies[1]!];
}

const bytes = (value: unknown) => JSON.stringify(value);
const withoutMarkers = (value: unknown) => JSON.stringify(value, (key, item: unknown) => (key === 'cache_control' ? undefined : item));

test('a chat completions channel: turn two repeats turn one\'s system, tools and messages byte for byte', async () => {
	const [first, second] = await twoTurns('cc-plain', openai);
	const sent = first.messages as unknown[];
	assert.equal(bytes(second.tools), bytes(first.tools));
	assert.equal(bytes((second.messages as unknown[]).slice(0, sent.length)), bytes(sent));
	assert.ok(!bytes(second).includes('cache_control'), 'a channel that does not honour markers never sees them');
});

test('a Gemini channel: turn two repeats turn one\'s systemInstruction, tools and contents byte for byte', async () => {
	const [first, second] = await twoTurns('cc-gemini', gemini);
	const sent = first.contents as unknown[];
	assert.equal(bytes(second.systemInstruction), bytes(first.systemInstruction));
	assert.equal(bytes(second.tools), bytes(first.tools));
	assert.equal(bytes((second.contents as unknown[]).slice(0, sent.length)), bytes(sent));
});

test('OpenRouter gets the markers on content parts, and the same prefix but for the marker Claude Code moved', async () => {
	const [first, second] = await twoTurns('cc-openrouter', openai);
	const [firstMessages, secondMessages] = [first.messages as Array<{role: string; content: unknown}>, second.messages as Array<{role: string; content: unknown}>];
	assert.deepEqual(firstMessages[0], {
		role: 'system',
		content: [
			{type: 'text', text: system[0]!.text},
			{type: 'text', text: system[1]!.text, cache_control: {type: 'ephemeral'}},
		],
	});
	assert.deepEqual(firstMessages[1], {role: 'user', content: [{type: 'text', text: 'Read /tmp/a.txt', cache_control: {type: 'ephemeral'}}]});
	assert.deepEqual(secondMessages.at(-1), {role: 'user', content: [{type: 'text', text: 'Summarise it.', cache_control: {type: 'ephemeral'}}]});
	assert.equal(bytes(secondMessages[0]), bytes(firstMessages[0]));
	assert.equal(bytes(second.tools), bytes(first.tools));
	assert.equal(withoutMarkers(secondMessages.slice(0, firstMessages.length)), withoutMarkers(firstMessages));
	assert.equal(second.user, 'user_abc_account_def_session_1', 'OpenRouter takes the end-user id');
});
