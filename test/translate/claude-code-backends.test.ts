/**
 * Claude Code on other providers' backends (issue 16): fields those backends reject never reach
 * them, a `message_start` carries the prompt's tokens where the provider says them at once, Anthropic
 * usage always has `cache_creation_input_tokens`, and no empty text block is ever written to the
 * client (it would come back in the history, and Anthropic rejects "text content blocks must be
 * non-empty").
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {IRResponse, IRStreamEvent} from '../../source/base/ir.js';
import {anthropicAdapter} from '../../source/formats/anthropic/index.js';
import {startFakeProvider} from '../helpers/fake-providers.js';
import {useClaudeCodeGateway} from './claude-code-gateway.js';
import {anthropicClient, openaiClient} from '../helpers/sdks.js';
import {collect, fromArray, recordingContext, sseFrames} from '../helpers/streams.js';

const cc = useClaudeCodeGateway();

/** What Claude Code sends besides messages: metadata, output_config (effort), context_management. */
const claudeCodeExtras = {
	metadata: {user_id: 'user_2f9c_account_9d1e_session_6b8f'},
	output_config: {effort: 'medium'},
	context_management: {edits: [{type: 'clear_thinking_20251015', keep: 'all'}]},
};

async function streamEvents(model: string): Promise<Array<{type: string; [key: string]: unknown}>> {
	const stream = await anthropicClient(cc.gateway.url, cc.secret).messages.create({
		model,
		max_tokens: 256,
		messages: [{role: 'user', content: 'Say hello.'}],
		stream: true,
		...claudeCodeExtras,
	} as Parameters<ReturnType<typeof anthropicClient>['messages']['create']>[0] & {stream: true});
	const events: Array<{type: string; [key: string]: unknown}> = [];
	for await (const event of stream) events.push(event as unknown as {type: string});
	return events;
}

/** The first event of a type, in the shape the test reads. */
function eventOf<T>(events: ReadonlyArray<{type: string}>, type: string): T {
	return events.find(event => event.type === type) as unknown as T;
}

test('an OpenAI-compatible backend never sees metadata, output_config or context_management; usage has cache_creation_input_tokens', async () => {
	cc.openai.enqueue({text: 'Hello.', usage: {input: 40, output: 3}});
	const events = await streamEvents('cc-openai');
	const body = cc.openai.received.at(-1)!.body as Record<string, unknown>;
	assert.deepEqual(['metadata', 'output_config', 'context_management'].filter(key => key in body), []);
	const start = eventOf<{message: {usage: Record<string, unknown>}}>(events, 'message_start');
	const delta = eventOf<{usage: Record<string, unknown>}>(events, 'message_delta');
	assert.equal(start.message.usage.cache_creation_input_tokens, 0);
	assert.equal(delta.usage.cache_creation_input_tokens, 0);
	assert.equal(delta.usage.input_tokens, 40);
});

test('on a Gemini backend, message_start already carries the prompt tokens (Claude Code sizes its context from it)', async () => {
	cc.gemini.enqueue({text: 'Hello.', usage: {input: 1234, output: 3}});
	const events = await streamEvents('cc-gemini');
	const start = eventOf<{message: {usage: {input_tokens: number}}}>(events, 'message_start');
	assert.equal(start.message.usage.input_tokens, 1234);
});

test('an empty text part (Gemini closes a turn with a signed empty part) is never written as an empty text block', async () => {
	// A Gemini 3 stream: a thought, an empty text part carrying the signature, then a function call.
	const events: IRStreamEvent[] = [
		{type: 'start', id: 'r', model: 'gemini-3-pro-preview'},
		{type: 'block-start', index: 0, block: {kind: 'reasoning'}},
		{type: 'reasoning-delta', index: 0, text: 'Thinking.'},
		{type: 'block-end', index: 0},
		{type: 'block-start', index: 1, block: {kind: 'text'}},
		{type: 'signature', index: 1, signature: {format: 'gemini', value: 'CiQB'}},
		{type: 'block-end', index: 1},
		{type: 'block-start', index: 2, block: {kind: 'tool_call', id: 'call_1', name: 'Read'}},
		{type: 'tool-args-delta', index: 2, json: '{"path":"/a"}'},
		{type: 'block-end', index: 2},
		{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 10, outputTokens: 5}},
	];
	const ctx = recordingContext();
	const frames = sseFrames(await collect(anthropicAdapter.encodeStream(fromArray(events), {model: 'claude', includeUsage: false, sse: true}, ctx)));
	const starts = frames.filter(frame => frame.startsWith('event: content_block_start')).map(frame => JSON.parse(frame.split('data: ')[1]!) as {index: number; content_block: {type: string}});
	assert.deepEqual(starts.map(start => [start.index, start.content_block.type]), [[0, 'thinking'], [1, 'tool_use']]);
	assert.ok(frames.every(frame => !/"index":2/.test(frame)), 'wire indices stay consecutive');
	assert.match(ctx.warnings.join('\n'), /signature on streamed text was dropped/);

	const answer: IRResponse = {
		id: 'r',
		model: 'gemini-3-pro-preview',
		parts: [{type: 'text', text: 'Done.'}, {type: 'text', text: '', signature: {format: 'gemini', value: 'CiQB'}}],
		finishReason: 'stop',
		usage: {inputTokens: 1, outputTokens: 1},
	};
	const body = anthropicAdapter.encodeResponse(answer, {model: 'claude'}, recordingContext()) as {content: unknown[]};
	assert.deepEqual(body.content, [{type: 'text', text: 'Done.'}]);
});

test('on a chat completions backend, message_start carries the gateway\'s estimate and the final message the provider\'s figures', async () => {
	// A chat completions provider says the prompt's size only in its last chunk: 1,000 tokens, 600 of them read from its cache.
	cc.openai.enqueue({text: 'Hello.', usage: {input: 1000, output: 3, cached: 600}});
	const stream = anthropicClient(cc.gateway.url, cc.secret).messages.stream({
		model: 'cc-openai',
		max_tokens: 256,
		system: 'You are terse.',
		// About 2,000 tokens by any tokenizer.
		messages: [{role: 'user', content: 'word '.repeat(2000)}],
	});
	let startUsage: {input_tokens: number; cache_creation_input_tokens: number | null; cache_read_input_tokens: number | null} | undefined;
	for await (const event of stream) if (event.type === 'message_start') startUsage = {...event.message.usage}; // the SDK updates this object as the stream goes on
	assert.ok(startUsage && startUsage.input_tokens > 1900 && startUsage.input_tokens < 2200, `message_start estimates the prompt: ${JSON.stringify(startUsage)}`);
	assert.deepEqual([startUsage.cache_creation_input_tokens, startUsage.cache_read_input_tokens], [0, 0]);
	const final = await stream.finalMessage();
	assert.deepEqual(
		{input: final.usage.input_tokens, read: final.usage.cache_read_input_tokens, created: final.usage.cache_creation_input_tokens, output: final.usage.output_tokens},
		{input: 400, read: 600, created: 0, output: 3},
	);
});

test('a prompt that mentions a tokenizer\'s special tokens (<|endoftext|>) is counted as text: the stream and count_tokens answer', async () => {
	// An ML codebase's conversation: the estimate for message_start once threw on these, the stream
	// ended in an error blaming the channel, and count_tokens answered 500.
	const content = 'Why does the model stop at <|endoftext|>? And what are <|im_start|> and <|fim_prefix|>?';
	cc.openai.enqueue({text: 'They are special tokens.', usage: {input: 30, output: 5}});
	const client = anthropicClient(cc.gateway.url, cc.secret);
	const stream = client.messages.stream({model: 'cc-openai', max_tokens: 256, messages: [{role: 'user', content}]});
	let startInput = 0;
	for await (const event of stream) if (event.type === 'message_start') startInput = event.message.usage.input_tokens;
	const final = await stream.finalMessage();
	assert.deepEqual(final.content, [{type: 'text', text: 'They are special tokens.'}]);
	assert.ok(startInput > 20 && startInput < 60, `message_start estimates the prompt as text: ${startInput}`);
	const counted = await client.messages.countTokens({model: 'cc-openai', messages: [{role: 'user', content}]});
	assert.ok(counted.input_tokens > 20 && counted.input_tokens < 60, `count_tokens counts it as text: ${counted.input_tokens}`);
});

test('a history with empty text blocks beside thinking reaches Gemini and Anthropic without them', async () => {
	const anthropic = await startFakeProvider('anthropic');
	try {
		await cc.gateway.addProvider(anthropic, {name: 'anthropic', models: 'oa-anthropic=claude-sonnet-4-6'});
		// Claude Code's history of a turn another gateway answered: a thinking block, then an empty text block, then a call.
		cc.gemini.enqueue({text: 'Done.'});
		await anthropicClient(cc.gateway.url, cc.secret).messages.create({
			model: 'cc-gemini',
			max_tokens: 256,
			messages: [
				{role: 'user', content: 'Read /a'},
				{
					role: 'assistant',
					content: [
						{type: 'thinking', thinking: 'I should read it.', signature: 'EqQBCkYIBxgCKkBexample'},
						{type: 'text', text: ''},
						{type: 'tool_use', id: 'toolu_01', name: 'Read', input: {path: '/a'}},
					],
				},
				{role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_01', content: 'alpha'}]},
			],
			tools: [{name: 'Read', input_schema: {type: 'object', properties: {path: {type: 'string'}}}}],
		});
		const contents = (cc.gemini.received.at(-1)!.body as {contents: Array<{parts: Array<Record<string, unknown>>}>}).contents;
		assert.ok(contents.every(content => content.parts.every(part => part.text !== '' || part.thoughtSignature !== undefined)), JSON.stringify(contents));

		// The OpenAI SDK's history: an assistant message with empty content beside its reasoning and a call.
		anthropic.enqueue({text: 'Done.'});
		const answer = await openaiClient(cc.gateway.url, cc.secret).chat.completions.create({
			model: 'oa-anthropic',
			messages: [
				{role: 'user', content: 'Read /a'},
				{role: 'assistant', content: '', reasoning_content: 'I should read it.', tool_calls: [{id: 'call_1', type: 'function', function: {name: 'Read', arguments: '{"path":"/a"}'}}]} as never,
				{role: 'tool', tool_call_id: 'call_1', content: 'alpha'},
			],
			tools: [{type: 'function', function: {name: 'Read', parameters: {type: 'object', properties: {path: {type: 'string'}}}}}],
		});
		assert.equal(answer.choices[0]!.message.content, 'Done.');
		const messages = (anthropic.received.at(-1)!.body as {messages: Array<{content: Array<{type: string; text?: string}>}>}).messages;
		assert.ok(messages.every(message => message.content.every(block => block.type !== 'text' || block.text !== '')), JSON.stringify(messages));
	} finally {
		await anthropic.close();
	}
});

test('message_start takes the provider\'s prompt size when it has one, and counts only when it has none', async () => {
	const startOf = async (start: IRStreamEvent) => {
		let counted = 0;
		const events: IRStreamEvent[] = [start, {type: 'finish', reason: 'stop', usage: {inputTokens: 50, outputTokens: 1}}];
		const frames = sseFrames(await collect(anthropicAdapter.encodeStream(fromArray(events), {model: 'claude', includeUsage: false, sse: true, estimateInputTokens: () => ++counted && 42}, recordingContext())));
		const data = JSON.parse(frames[0]!.split('data: ')[1]!) as {message: {usage: {input_tokens: number}}};
		return {input: data.message.usage.input_tokens, counted};
	};
	assert.deepEqual(await startOf({type: 'start', id: 'r', model: 'gemini-2.5-pro', usage: {inputTokens: 1234}}), {input: 1234, counted: 0});
	assert.deepEqual(await startOf({type: 'start', id: 'r', model: 'gpt-4o'}), {input: 42, counted: 1});
});
