/**
 * A request shaped like Claude Code's (long system prompt with cache_control, dozens of tools whose
 * schemas carry $schema, additionalProperties and free-form maps, anthropic-beta, ?beta=true, role "system" inside
 * messages) sent to OpenAI- and Gemini-format channels: the strict fakes must accept it, and the
 * streamed answer must parse in @anthropic-ai/sdk.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {useClaudeCodeGateway} from './claude-code-gateway.js';
import {anthropicClient, eventually} from '../helpers/sdks.js';

const cc = useClaudeCodeGateway();

function claudeCodeTools() {
	return Array.from({length: 36}, (_, index) => ({
		name: `Tool${index}`,
		description: `Tool number ${index}. `.repeat(20),
		input_schema: {
			$schema: 'http://json-schema.org/draft-07/schema#',
			type: 'object' as const,
			additionalProperties: false,
			properties: {
				path: {type: 'string', description: 'Absolute path'},
				mode: {type: 'string', enum: ['read', 'write']},
				limit: {type: 'number', exclusiveMinimum: 0},
				tags: {type: 'array', items: {type: 'string'}, uniqueItems: true},
				options: {type: 'object', additionalProperties: {type: 'string'}, properties: {flag: {type: 'boolean'}}},
				// A free-form map, like AskUserQuestion's `answers`: Gemini refuses an OBJECT without properties.
				answers: {type: 'object', description: 'User answers', additionalProperties: {type: 'string'}},
			},
			required: ['path'],
		},
		...(index === 35 ? {cache_control: {type: 'ephemeral' as const}} : {}),
	}));
}

for (const [label, model] of [
	['an OpenAI-format channel', 'cc-openai'],
	['a Gemini-format channel', 'cc-gemini'],
] as const) {
	test(`a Claude Code request to ${label} is accepted and its stream parses in @anthropic-ai/sdk`, async () => {
		const provider = model === 'cc-openai' ? cc.openai : cc.gemini;
		provider.reset();
		provider.enqueue({text: 'I will read the file.', toolCalls: [{...(model === 'cc-openai' ? {id: 'call_read_1'} : {}), name: 'Tool3', args: {path: '/tmp/a.txt', mode: 'read'}}], chunks: 5});
		const client = anthropicClient(cc.gateway.url, cc.secret);
		const stream = client.beta.messages.stream(
			{
				model,
				max_tokens: 32_000,
				stream: true,
				system: [
					{type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude."},
					{type: 'text', text: 'Follow the instructions. '.repeat(400), cache_control: {type: 'ephemeral'}},
				],
				tools: claudeCodeTools(),
				metadata: {user_id: 'user_abc_account_def_session_123'},
				messages: [
					{role: 'user', content: [{type: 'text', text: '<system-reminder>context</system-reminder>'}, {type: 'text', text: 'Read /tmp/a.txt', cache_control: {type: 'ephemeral'}}]},
					// Claude Code ≥ 2.1.154 may put system entries inside messages.
					{role: 'system', content: 'The user is in /tmp.'} as never,
				],
			},
			{headers: {'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14'}},
		);
		const final = await stream.finalMessage();
		assert.equal(final.stop_reason, 'tool_use');
		const text = final.content.find(block => block.type === 'text');
		assert.equal(text?.type === 'text' && text.text, 'I will read the file.');
		const use = final.content.find(block => block.type === 'tool_use');
		assert.ok(use?.type === 'tool_use');
		assert.deepEqual([use.name, use.input], ['Tool3', {path: '/tmp/a.txt', mode: 'read'}]);

		const received = provider.received.at(-1)!;
		assert.equal(received.headers['anthropic-beta'], undefined, 'Anthropic-only headers stay home');
		assert.equal(received.headers['anthropic-version'], undefined);
		const body = JSON.stringify(received.body);
		assert.ok(body.includes('The user is in /tmp.'), 'the system entry inside messages is folded into the system prompt');
		assert.ok(body.includes("You are Claude Code, Anthropic's official CLI for Claude."));
		if (model === 'cc-gemini') assert.ok(!body.includes('additionalProperties') && !body.includes('$schema') && !body.includes('exclusiveMinimum'), 'Gemini-rejected keywords are cleaned');
		await eventually(() => cc.gateway.finished.some(event => event.model === model && event.usage !== null), 2000, 'usage recorded');
	});
}
