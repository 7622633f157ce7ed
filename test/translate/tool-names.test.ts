/**
 * Tool names providers reject (issue 16): a Claude Code request with a 70-character MCP tool name and
 * a dotted one goes to each channel format under an alias, and the call comes back under the
 * client's name, streamed or not; a Codex namespace tool the same way.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import {formats, type Format} from '../../source/base/ir.js';
import {ToolNameMap} from '../../source/formats/tool-names.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient, openaiClient} from '../helpers/sdks.js';

let gateway: TestGateway;
let secret: string;
const providers = {} as Record<Format, FakeProvider>;

before(async () => {
	gateway = await startTestGateway();
	for (const format of formats) {
		providers[format] = await startFakeProvider(format);
		await gateway.addProvider(providers[format], {name: format, models: `to-${format}=${providers[format].models[0]}`});
	}
	secret = (await gateway.createKey({name: 'tool-names'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all(formats.map(format => providers[format].close()));
});
beforeEach(() => {
	for (const format of formats) providers[format].reset();
});

const longName = 'mcp__claude-in-chrome-browser-extension__take_a_screenshot_of_the_tab_';
const dottedName = 'mcp__github.com__create_issue';
const schema = {type: 'object' as const, properties: {tab: {type: 'string'}}, required: ['tab']};
const tools = [
	{name: longName, description: 'Screenshot a tab.', input_schema: schema},
	{name: dottedName, description: 'Open an issue.', input_schema: schema},
];

/** The name the provider sees for a client tool name (aliases depend only on the name). */
const wireName = (name: string) => new ToolNameMap().alias(name);

test('the long name is 70 characters and both names are ones OpenAI rejects', () => {
	assert.equal(longName.length, 70);
	for (const name of [longName, dottedName]) assert.ok(!/^[a-zA-Z0-9_-]{1,64}$/.test(name));
	assert.match(wireName(longName), /^[a-zA-Z0-9_-]{1,64}$/);
	assert.equal(wireName(dottedName), 'mcp__github_com__create_issue');
});

for (const format of formats) {
	for (const stream of [false, true]) {
		test(`a Claude Code request to a ${format} channel (${stream ? 'streamed' : 'whole'}): the call comes back under the MCP tool's own name`, async () => {
			// The Anthropic channel takes the request as it is (names up to 128 characters); the others see aliases.
			const called = format === 'anthropic' ? longName : wireName(longName);
			providers[format].enqueue({toolCalls: [{...(format === 'gemini' ? {} : {id: 'call_shot'}), name: called, args: {tab: 'current'}}], finishReason: 'tool_calls'});
			// Claude Code only sends names Anthropic accepts to Anthropic itself; a dotted MCP name comes from other clients.
			const declared = format === 'anthropic' ? tools.slice(0, 1) : tools;
			const request = {model: `to-${format}`, max_tokens: 200, messages: [{role: 'user' as const, content: 'Take a screenshot.'}], tools: declared};
			const client = anthropicClient(gateway.url, secret);
			const message = stream ? await client.messages.stream(request).finalMessage() : await client.messages.create(request);
			const call = message.content.find(block => block.type === 'tool_use');
			assert.equal(call?.type === 'tool_use' ? call.name : undefined, longName);
			const sent = JSON.stringify(providers[format].received.at(-1)!.body);
			if (format !== 'anthropic') assert.ok(!sent.includes(dottedName) && !sent.includes(longName), 'only aliases went upstream');
		});
	}
}

test('the next turn sends the history under the same aliases, so the provider pairs call and result', async () => {
	providers.openai.enqueue({text: 'Done.'});
	await anthropicClient(gateway.url, secret).messages.create({
		model: 'to-openai',
		max_tokens: 200,
		tools,
		messages: [
			{role: 'user', content: 'Take a screenshot.'},
			{role: 'assistant', content: [{type: 'tool_use', id: 'toolu_1', name: longName, input: {tab: 'current'}}]},
			{role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok'}]},
		],
	});
	const body = providers.openai.received.at(-1)!.body as {messages: Array<{tool_calls?: Array<{function: {name: string}}>}>; tools: Array<{function: {name: string}}>};
	assert.equal(body.messages[1]!.tool_calls![0]!.function.name, wireName(longName));
	assert.deepEqual(body.tools.map(tool => tool.function.name), [wireName(longName), wireName(dottedName)]);
});

test('a Codex namespace tool with a long flattened name reaches Gemini as an alias and comes back with its namespace', async () => {
	const namespace = 'mcp_server_with_a_rather_long_name_for_its_tools';
	const flat = `${namespace}__list_open_pull_requests`;
	providers.gemini.enqueue({toolCalls: [{name: wireName(flat), args: {}}], finishReason: 'tool_calls'});
	const response = await openaiClient(gateway.url, secret).responses.create({
		model: 'to-gemini',
		input: 'List the pull requests.',
		tools: [{type: 'namespace', name: namespace, description: 'MCP tools.', tools: [{type: 'function', name: 'list_open_pull_requests', parameters: {type: 'object', properties: {repo: {type: 'string'}}}, strict: false}]}] as never,
	});
	const call = response.output.find(item => item.type === 'function_call') as {name: string; namespace?: string} | undefined;
	assert.deepEqual([call?.name, call?.namespace], ['list_open_pull_requests', namespace]);
});
