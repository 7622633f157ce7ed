/**
 * A stream encoder must not keep its stream's state in V8's old generation. The step encoders were
 * object literals with getters (`get done()`); Node 20's V8 holds a literal's getter closure from
 * outside the young generation (its accessor pair, as far as measured), and everything it reaches —
 * the format's state, the options with the client's parsed request — then survives every
 * young-generation collection and is promoted, to be freed only by a full collection: about 6 KB a small translated stream, 250 KB one with a coding
 * agent's context, and a third of a translated stream's CPU went to the collector. Pinned by memory,
 * not by a timing: streams are encoded with a fresh 16 KB request each, then only young-generation
 * collections run, and the old generation may not grow by a fraction of what the requests weighed.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {getHeapSpaceStatistics} from 'node:v8';
import {exposeGc} from '../../source/base/idle-trim.js';
import type {InboundFormat, IRStreamEvent} from '../../source/base/ir.js';
import {adapters, inboundAdapters} from '../../source/formats/index.js';
import {loadChunks, recordingContext} from './anthropic/fixtures.js';

const oldSpaceUsed = () => getHeapSpaceStatistics().find(space => space.space_name === 'old_space')!.space_used_size;

/** A client's parsed request of about 16 KB, made fresh (young) for each stream. */
function request(index: number): Record<string, unknown> {
	return {model: 'm', stream: true, messages: Array.from({length: 64}, (_, turn) => ({role: turn % 2 === 0 ? 'user' : 'assistant', content: `turn ${turn} of stream ${index}: ${'some words of a conversation '.repeat(7)}`}))};
}

/** A short stream's IR events (text, finish), decoded once from a recorded Anthropic stream. */
function events(): IRStreamEvent[] {
	const decoder = adapters.anthropic.streamDecoder!(recordingContext());
	const out: IRStreamEvent[] = [];
	for (const message of loadChunks('text')) out.push(...decoder.push(message));
	out.push(...decoder.end());
	return out;
}

test('the step encoders of every client format leave their streams to the young generation', () => {
	const gc = exposeGc();
	assert.ok(gc, 'this Node exposes V8 gc() through --expose-gc at run time');
	const stream = events();
	assert.ok(stream.some(event => event.type === 'finish'), 'the recorded stream ends with a finish');
	const streams = 600;
	const requestBytes = streams * JSON.stringify(request(0)).length;
	for (const format of ['openai', 'anthropic', 'gemini', 'responses'] as const satisfies readonly InboundFormat[]) {
		const encoderOf = inboundAdapters[format].streamEncoder;
		assert.ok(encoderOf, `${format} has a step encoder`);
		const encode = (index: number) => {
			const encoder = encoderOf({model: 'client-model', request: request(index), includeUsage: true, sse: true, estimateInputTokens: () => 12}, recordingContext());
			let text = '';
			for (const event of stream) {
				text += encoder.push(event);
				while (encoder.hasMore) text += encoder.more();
			}
			assert.ok(encoder.done, `${format}: the encoder is done after the finish`);
			return text.length;
		};
		// Warm up (the code, and what a first call allocates for good), then start from a full collection.
		for (let index = 0; index < 200; index++) encode(index);
		gc({type: 'major'});
		gc({type: 'major'});
		const before = oldSpaceUsed();
		for (let index = 0; index < streams; index++) {
			assert.ok(encode(index) > 0);
			if (index % 50 === 49) gc({type: 'minor'});
		}
		gc({type: 'minor'});
		gc({type: 'minor'});
		const grown = oldSpaceUsed() - before;
		// Without the fix the old generation took most of the requests (≈ their size); some promotion of the encoders' own is fine.
		assert.ok(grown < requestBytes * 0.2, `${format}: the old generation grew by ${(grown / 1e6).toFixed(2)} MB over ${streams} streams whose requests weighed ${(requestBytes / 1e6).toFixed(2)} MB`);
	}
});
