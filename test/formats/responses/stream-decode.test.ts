import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import type {IRStreamEvent} from '../../../source/base/ir.js';
import {responsesAdapter} from '../../../source/formats/responses/index.js';
import {chunkLines, collect, sseMessages, testContext} from './helpers.js';

const decode = async (lines: readonly string[]) => collect(responsesAdapter.decodeStream(sseMessages(lines), testContext()));

describe('responses decodeStream', () => {
	it('decodes a text stream delta by delta, finishing with the usage of response.completed', async () => {
		const events = await decode(chunkLines('text'));
		assert.deepEqual(events, [
			{type: 'start', id: 'resp_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567', model: 'gpt-4.1-nano-2025-04-14'},
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			...['The', ' capital', ' of', ' France', ' is', ' Paris', '.'].map((text): IRStreamEvent => ({type: 'text-delta', index: 0, text})),
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 14, outputTokens: 8}},
		]);
	});

	it('decodes reasoning summaries with their encrypted content as an openai signature, then a function call', async () => {
		const events = await decode(chunkLines('reasoning-tool-call'));
		const reasoning = events.flatMap(event => (event.type === 'reasoning-delta' ? [event.text] : [])).join('');
		assert.equal(reasoning, "**Checking the weather**\n\nI'll call get_weather for Paris.");
		assert.deepEqual(events.find(event => event.type === 'signature'), {type: 'signature', index: 0, signature: {format: 'openai', value: 'gAAAAABpTestEncryptedReasoningBlob=='}});
		assert.deepEqual(events.find(event => event.type === 'block-start' && event.block.kind === 'tool_call'), {type: 'block-start', index: 1, block: {kind: 'tool_call', id: 'call_Wx9YzAbCdEfGhIjKlMnOpQrS', name: 'get_weather'}});
		assert.equal(events.flatMap(event => (event.type === 'tool-args-delta' ? [event.json] : [])).join(''), '{"city":"Paris"}');
		assert.deepEqual(events.at(-1), {type: 'finish', reason: 'tool_calls', usage: {inputTokens: 312, outputTokens: 90, cachedTokens: 256, reasoningTokens: 64}});
	});

	it('turns an error event into an IR error with the provider\'s code', async () => {
		const events = await decode(chunkLines('error-insufficient-quota'));
		assert.deepEqual(events.at(-1), {
			type: 'error',
			error: {kind: 'insufficient_quota', status: 429, message: (events.at(-1) as {error: {message: string}}).error.message, code: 'insufficient_quota', param: undefined},
		});
		assert.match((events.at(-1) as {error: {message: string}}).error.message, /^You exceeded your current quota/);
	});

	it('reports a stream that stops before response.completed', async () => {
		const events = await decode(chunkLines('text').slice(0, 5));
		assert.deepEqual(events.at(-1), {type: 'error', error: {kind: 'upstream', status: 502, message: 'The Responses upstream closed the stream before response.completed.'}});
	});

	it('reads what its own encoder writes: encode → decode keeps text, calls and usage', async () => {
		const source = responsesAdapter.decodeStream(sseMessages(chunkLines('reasoning-tool-call')), testContext());
		const frames = await collect(responsesAdapter.encodeStream(source, {model: 'alias', includeUsage: false, sse: true}, testContext()));
		const lines = frames.join('').split('\n\n').filter(Boolean).map(frame => frame.split('\n').slice(1).join('\n').replace(/^data: /, ''));
		const again = await decode(lines);
		assert.deepEqual(again.slice(1), (await decode(chunkLines('reasoning-tool-call'))).slice(1));
	});
});
