import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {geminiAdapter} from '../../../source/formats/gemini/index.js';
import type {IRStreamEvent} from '../../../source/base/ir.js';
import {channel, collect, loadChunks, replay, testContext} from './fixtures.js';
import type {SseMessage} from '../../../source/formats/sse.js';

const decode = (name: string) => collect(geminiAdapter.decodeStream(replay(loadChunks(name)), testContext()));
const withoutUsage = (events: IRStreamEvent[]) => events.filter(event => event.type !== 'usage');

describe('gemini decodeStream', () => {
	it('keeps one text block open across frames and signs it with the trailing signature part', async () => {
		const events = await decode('text');
		assert.deepEqual(withoutUsage(events), [
			{type: 'start', id: 'M3iLaY-AI7zTxN8P3Piw4Qg', model: 'gemini-3-pro-preview', usage: {inputTokens: 9}},
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			{type: 'text-delta', index: 0, text: 'There are **3** "r"s in strawberry.\n\n'},
			{type: 'text-delta', index: 0, text: 'St**r**awbe**rr**y'},
			{type: 'signature', index: 0, signature: {format: 'gemini', value: 'EpAICo0IAb4+9vuku3oDHR5EQSMfPm5IpmH06lgm9aGICNAJKKfpVXU3971qpSGSFiIVb60jKjMU182kVfRyl9bViwRtwI1o4nFI+BqC+kLUuUaG'}},
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 9, outputTokens: 325, reasoningTokens: 302}},
		]);
		assert.equal(events.filter(event => event.type === 'usage').length, 3);
	});

	it('turns a whole functionCall into block-start, one args delta and block-end, finishing with tool_calls', async () => {
		const events = withoutUsage(await decode('tool-call'));
		assert.equal(events.length, 6);
		const start = events[1];
		assert.ok(start.type === 'block-start' && start.block.kind === 'tool_call');
		assert.equal(start.block.name, 'weather');
		assert.match(start.block.id, /^call_[0-9a-f]{24}$/);
		assert.deepEqual(events[2], {type: 'tool-args-delta', index: 0, json: '{"location":"San Francisco"}'});
		assert.equal(events[3].type === 'signature' && events[3].signature.format, 'gemini');
		assert.deepEqual(events[4], {type: 'block-end', index: 0});
		assert.deepEqual(events[5], {type: 'finish', reason: 'tool_calls', usage: {inputTokens: 29, outputTokens: 819, reasoningTokens: 804}});
	});

	it('numbers parallel calls as separate blocks', async () => {
		const events = await decode('parallel-tool-calls');
		const starts = events.flatMap(event => (event.type === 'block-start' && event.block.kind === 'tool_call' ? [[event.index, event.block.name]] : []));
		assert.deepEqual(starts, [[0, 'get_weather'], [1, 'get_weather']]);
		assert.deepEqual(events.flatMap(event => (event.type === 'tool-args-delta' ? [event.json] : [])), ['{"city":"Paris"}', '{"city":"Tokyo"}']);
		assert.equal(events.filter(event => event.type === 'signature').length, 1);
	});

	it('streams thought summaries as a reasoning block before the answer', async () => {
		const events = withoutUsage(await decode('thinking'));
		assert.deepEqual(events.slice(1, 8).map(event => event.type), [
			'block-start', 'reasoning-delta', 'reasoning-delta', 'block-end', 'block-start', 'text-delta', 'signature',
		]);
		assert.deepEqual(events.at(-1), {type: 'finish', reason: 'stop', usage: {inputTokens: 9, outputTokens: 241, reasoningTokens: 231}});
	});

	it('reports cumulative usage with cached tokens inside the input', async () => {
		const events = await decode('usage-caching');
		assert.deepEqual(events.at(-1), {type: 'finish', reason: 'stop', usage: {inputTokens: 77, outputTokens: 160, cachedTokens: 4, reasoningTokens: 89}});
	});

	it('turns an error frame into one IR error, after closing the open block', async () => {
		const events = await decode('error-mid-stream');
		assert.deepEqual(events.slice(-2), [
			{type: 'block-end', index: 0},
			{type: 'error', error: {kind: 'overloaded', status: 503, message: 'The model is overloaded. Please try again later.', code: 'UNAVAILABLE'}},
		]);
		assert.equal(events.some(event => event.type === 'finish'), false);
	});

	it('reports a stream cut off before finishReason as an error, not a finish', async () => {
		const frames = loadChunks('text').slice(0, 2);
		const events = await collect(geminiAdapter.decodeStream(replay(frames), testContext()));
		const last = events.at(-1);
		assert.ok(last?.type === 'error');
		assert.match(last.error.message, /without a finishReason/);
	});

	it('ends with a content_filter finish when the prompt itself is blocked', async () => {
		const frames = [{data: JSON.stringify({promptFeedback: {blockReason: 'PROHIBITED_CONTENT'}, usageMetadata: {promptTokenCount: 7, totalTokenCount: 7}})}];
		const events = await collect(geminiAdapter.decodeStream(replay(frames), testContext()));
		assert.deepEqual(events.at(-1), {type: 'finish', reason: 'content_filter', usage: {inputTokens: 7, outputTokens: 0}});
	});

	it('yields the text of a frame before the next frame has arrived', async () => {
		const input = channel<SseMessage>();
		const [first, second, last] = loadChunks('text');
		const events = geminiAdapter.decodeStream(input, testContext())[Symbol.asyncIterator]();
		input.push(first);
		assert.equal((await events.next()).value?.type, 'start');
		assert.equal((await events.next()).value?.type, 'block-start');
		assert.deepEqual((await events.next()).value, {type: 'text-delta', index: 0, text: 'There are **3** "r"s in strawberry.\n\n'});
		input.push(second);
		input.push(last);
		input.close();
		const rest: string[] = [];
		for (let next = await events.next(); !next.done; next = await events.next()) rest.push(next.value.type);
		assert.equal(rest.at(-1), 'finish');
	});
});
