/**
 * What OpenAI-compatible providers differ on inside one wire format (issue 16, Claude Code on
 * OpenAI-compatible backends; cache_control markers): DeepSeek's output cap, which providers take
 * an end-user id, and OpenRouter's `cache_control` on content parts.
 */
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {describe, it} from 'node:test';
import type {UpstreamTarget} from '../../../source/formats/adapter.js';
import type {IRRequest} from '../../../source/base/ir.js';
import {openaiAdapter} from '../../../source/formats/openai/index.js';
import {testContext} from './helpers.js';

const at = (baseUrl: string, model = 'm'): UpstreamTarget => ({model, stream: false, baseUrl, defaultMaxTokens: 8192});

/** What Claude Code sends, as the IR: a marked system prompt, a marked tool, the newest user turn marked. */
const claudeCodeIR: IRRequest = {
	model: 'claude-sonnet-4-6',
	system: [{text: "You are Claude Code, Anthropic's official CLI for Claude."}, {text: 'Follow the rules.', cache: {type: 'ephemeral'}}],
	messages: [
		{role: 'user', parts: [{type: 'text', text: 'Read /a'}]},
		{role: 'assistant', parts: [{type: 'tool_call', id: 'call_1', name: 'Read', arguments: '{"path":"/a"}'}]},
		{
			role: 'user',
			parts: [
				{type: 'tool_result', toolCallId: 'call_1', content: [{type: 'text', text: 'contents of a'}], cache: {type: 'ephemeral', ttl: '1h'}},
				{type: 'text', text: 'Summarise it.', cache: {type: 'ephemeral'}},
			],
		},
	],
	tools: [{name: 'Read', description: 'Reads a file', parameters: {type: 'object', properties: {path: {type: 'string'}}}, cache: {type: 'ephemeral'}}],
	maxTokens: 32_000,
	stream: true,
	user: 'user_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef_account_1_session_2',
};

describe('max_tokens above a provider cap', () => {
	it('is lowered to DeepSeek\'s 8192 for deepseek-chat, with a warning; deepseek-reasoner keeps up to 64K', async () => {
		const ctx = testContext();
		const chat = await openaiAdapter.encodeRequest(claudeCodeIR, at('https://api.deepseek.com/v1', 'deepseek-chat'), ctx);
		assert.equal(chat.body.max_tokens, 8192);
		assert.deepEqual(ctx.warnings, ["max_tokens 32000 is above deepseek-chat's limit of 8192 at api.deepseek.com: sent as 8192."]);
		const reasoner = await openaiAdapter.encodeRequest(claudeCodeIR, at('https://api.deepseek.com', 'deepseek-reasoner'), testContext());
		assert.equal(reasoner.body.max_tokens, 32_000);
	});

	it('is sent as asked where no cap is known', async () => {
		for (const baseUrl of ['https://api.groq.com/openai/v1', 'http://127.0.0.1:11434/v1']) {
			const encoded = await openaiAdapter.encodeRequest(claudeCodeIR, at(baseUrl, 'deepseek-chat'), testContext());
			assert.equal(encoded.body.max_tokens, 32_000, baseUrl);
		}
	});
});

describe('metadata.user_id as OpenAI `user`', () => {
	const hashed = createHash('sha256').update(claudeCodeIR.user!).digest('hex');

	it('goes, hashed to 64 characters, only to providers that document `user`', async () => {
		const sent: Record<string, unknown> = {};
		for (const baseUrl of ['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'https://api.groq.com/openai/v1', 'https://api.x.ai/v1', 'https://api.deepseek.com/v1', 'https://api.mistral.ai/v1', 'http://127.0.0.1:11434/v1']) {
			sent[new URL(baseUrl).hostname] = (await openaiAdapter.encodeRequest(claudeCodeIR, at(baseUrl), testContext())).body.user;
		}
		assert.deepEqual(sent, {
			'api.openai.com': hashed,
			'openrouter.ai': hashed,
			'api.groq.com': hashed,
			'api.x.ai': hashed,
			// Mistral rejects fields it does not know; DeepSeek and local servers have no use for it.
			'api.deepseek.com': undefined,
			'api.mistral.ai': undefined,
			'127.0.0.1': undefined,
		});
	});

	it('keeps a short id as it is', async () => {
		const encoded = await openaiAdapter.encodeRequest({...claudeCodeIR, user: 'user-7'}, at('https://openrouter.ai/api/v1'), testContext());
		assert.equal(encoded.body.user, 'user-7');
	});
});

describe('cache_control on OpenAI-compatible channels', () => {
	it('reaches OpenRouter on the system, user and tool-result parts that carried it', async () => {
		const encoded = await openaiAdapter.encodeRequest(claudeCodeIR, at('https://openrouter.ai/api/v1', 'anthropic/claude-sonnet-4.5'), testContext());
		assert.deepEqual(encoded.body.messages, [
			{
				role: 'system',
				content: [
					{type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude."},
					{type: 'text', text: 'Follow the rules.', cache_control: {type: 'ephemeral'}},
				],
			},
			// Arrays even unmarked: the bytes of a turn do not change when Claude Code moves the marker on.
			{role: 'user', content: [{type: 'text', text: 'Read /a'}]},
			{role: 'assistant', content: null, tool_calls: [{id: 'call_1', type: 'function', function: {name: 'Read', arguments: '{"path":"/a"}'}}]},
			{role: 'tool', tool_call_id: 'call_1', content: [{type: 'text', text: 'contents of a', cache_control: {type: 'ephemeral', ttl: '1h'}}]},
			{role: 'user', content: [{type: 'text', text: 'Summarise it.', cache_control: {type: 'ephemeral'}}]},
		]);
		// OpenRouter documents markers on content parts only: a tool's marker is covered by the system one after it.
		assert.ok(!JSON.stringify(encoded.body.tools).includes('cache_control'));
	});

	it('is left out for a channel that does not honour it, the system prompt staying one string', async () => {
		const encoded = await openaiAdapter.encodeRequest(claudeCodeIR, at('https://api.deepseek.com/v1', 'deepseek-chat'), testContext());
		assert.ok(!JSON.stringify(encoded.body).includes('cache_control'));
		const messages = encoded.body.messages as Array<{role: string; content: unknown}>;
		assert.equal(messages[0]!.content, "You are Claude Code, Anthropic's official CLI for Claude.\n\nFollow the rules.");
		assert.equal(messages.at(-1)!.content, 'Summarise it.');
	});
});
