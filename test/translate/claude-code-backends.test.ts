/**
 * Claude Code on other providers' backends (issue 16): fields those backends reject never reach
 * them, a `message_start` carries the prompt's tokens where the provider says them at once, Anthropic
 * usage always has `cache_creation_input_tokens`, and no empty text block is ever written to the
 * client (it would come back in the history, and Anthropic rejects "text content blocks must be
 * non-empty").
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import type {IRResponse, IRStreamEvent} from '../../source/base/ir.js';
import {anthropicAdapter} from '../../source/formats/anthropic/index.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {anthropicClient} from '../helpers/sdks.js';
import {collect, fromArray, recordingContext} from '../helpers/streams.js';

let gateway: TestGateway;
let openai: FakeProvider;
let gemini: FakeProvider;
let secret: string;

before(async () => {
	[openai, gemini] = await Promise.all([startFakeProvider('openai'), startFakeProvider('gemini')]);
	gateway = await startTestGateway();
	await gateway.addProvider(openai, {name: 'deepseek-like', models: 'cc-openai=gpt-4o'});
	await gateway.addProvider(gemini, {name: 'gemini', models: 'cc-gemini=gemini-2.5-pro'});
	secret = (await gateway.createKey({name: 'claude-code'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all([openai.close(), gemini.close()]);
});

/** What Claude Code sends besides messages: metadata, output_config (effort), context_management. */
const claudeCodeExtras = {
	metadata: {user_id: 'user_2f9c_account_9d1e_session_6b8f'},
	output_config: {effort: 'medium'},
	context_management: {edits: [{type: 'clear_thinking_20251015', keep: 'all'}]},
};

async function streamEvents(model: string): Promise<Array<{type: string; [key: string]: unknown}>> {
	const stream = await anthropicClient(gateway.url, secret).messages.create({
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
	openai.enqueue({text: 'Hello.', usage: {input: 40, output: 3}});
	const events = await streamEvents('cc-openai');
	const body = openai.received.at(-1)!.body as Record<string, unknown>;
	assert.deepEqual(['metadata', 'output_config', 'context_management'].filter(key => key in body), []);
	const start = eventOf<{message: {usage: Record<string, unknown>}}>(events, 'message_start');
	const delta = eventOf<{usage: Record<string, unknown>}>(events, 'message_delta');
	assert.equal(start.message.usage.cache_creation_input_tokens, 0);
	assert.equal(delta.usage.cache_creation_input_tokens, 0);
	assert.equal(delta.usage.input_tokens, 40);
});

test('on a Gemini backend, message_start already carries the prompt tokens (Claude Code sizes its context from it)', async () => {
	gemini.enqueue({text: 'Hello.', usage: {input: 1234, output: 3}});
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
	const frames = await collect(anthropicAdapter.encodeStream(fromArray(events), {model: 'claude', includeUsage: false, sse: true}, ctx));
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
