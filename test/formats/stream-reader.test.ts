/**
 * The passthrough meter reads a stream with its format's StreamReader (synchronous, no IR); the
 * translation path decodes the same streams with `decodeStream`. The two must report the same usage,
 * error and ending, and count the same generated characters (what an interrupted stream's output is
 * estimated from) — for every captured stream of every format, cut off after each of its messages,
 * and with a message that is not JSON in its middle.
 */
import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import type {IRUsage} from '../../source/base/ir.js';
import type {InboundAdapter} from '../../source/formats/adapter.js';
import {anthropicAdapter} from '../../source/formats/anthropic/index.js';
import {geminiAdapter} from '../../source/formats/gemini/index.js';
import {openaiAdapter} from '../../source/formats/openai/index.js';
import {responsesAdapter} from '../../source/formats/responses/index.js';
import type {SseMessage} from '../../source/formats/sse.js';
import {mergeUsage, type StreamReading} from '../../source/formats/stream-reader.js';
import {loadChunks as anthropicChunks} from './anthropic/fixtures.js';
import {loadChunks as geminiChunks} from './gemini/fixtures.js';
import {chunkLines as openaiLines, testContext} from './openai/helpers.js';
import {chunkLines as responsesLines} from './responses/helpers.js';

/** What the meter reported before it had readers: the decoder's events folded the way the meter folded them. */
async function decoded(adapter: InboundAdapter, messages: readonly SseMessage[]): Promise<StreamReading> {
	let inputDone = false;
	async function* source(): AsyncGenerator<SseMessage> {
		yield* messages;
		inputDone = true;
	}
	let usage: IRUsage | null = null;
	let generatedChars = 0;
	// The readers count generated text as the provider wrote it in JSON (escapes included), Gemini's from the parsed frame.
	const charsOf = (text: string) => (adapter.format === 'gemini' ? text.length : JSON.stringify(text).length - 2);
	let error: string | null = null;
	let ending: StreamReading['ending'] | null = null;
	for await (const event of adapter.decodeStream(source(), testContext())) {
		if (event.type === 'error') {
			error ??= event.error.message;
			ending ??= inputDone ? 'cut-off' : 'upstream-error';
		}
		if ((event.type === 'usage' || event.type === 'start') && event.usage) usage = mergeUsage(usage, event.usage);
		if (event.type === 'text-delta' || event.type === 'reasoning-delta') generatedChars += charsOf(event.text);
		if (event.type === 'tool-args-delta') generatedChars += charsOf(event.json);
		if (event.type === 'finish') {
			usage = mergeUsage(usage, event.usage);
			ending ??= 'complete';
		}
	}
	assert.ok(ending, 'the decoder ended with a finish or an error');
	return {usage, error, ending, generatedChars};
}

function read(adapter: InboundAdapter, messages: readonly SseMessage[]): StreamReading {
	const reader = adapter.readStream();
	for (const message of messages) reader.read(message);
	return reader.finish();
}

const responsesEvents = (name: string): SseMessage[] => responsesLines(name).map(data => ({event: (JSON.parse(data) as {type: string}).type, data}));

const cases: ReadonlyArray<{adapter: InboundAdapter; name: string; messages: SseMessage[]}> = [
	...['text', 'thinking', 'tool-call', 'parallel-tool-calls', 'usage-cached', 'mid-stream-error'].map(name => ({adapter: openaiAdapter, name, messages: openaiLines(name).map(data => ({data}))})),
	...['text', 'thinking', 'tool-use', 'parallel-tool-use', 'tool-no-args', 'usage-cache', 'error-mid-stream'].map(name => ({adapter: anthropicAdapter, name, messages: anthropicChunks(name)})),
	...['text', 'thinking', 'tool-call', 'parallel-tool-calls', 'usage-caching', 'error-mid-stream'].map(name => ({adapter: geminiAdapter, name, messages: geminiChunks(name)})),
	...['text', 'reasoning-tool-call', 'error-insufficient-quota'].map(name => ({adapter: responsesAdapter, name, messages: responsesEvents(name)})),
];

describe('stream readers report what the decoders report', () => {
	for (const {adapter, name, messages} of cases) {
		it(`${adapter.format} ${name}: whole, cut off after each message, and with a broken message`, async () => {
			const whole = read(adapter, messages);
			assert.deepEqual(whole, await decoded(adapter, messages));
			for (let length = 0; length < messages.length; length++) {
				const prefix = messages.slice(0, length);
				assert.deepEqual(read(adapter, prefix), await decoded(adapter, prefix), `cut off after ${length} of ${messages.length} messages`);
			}
			const broken = [...messages.slice(0, 1), {event: messages[1]?.event, data: '{"cut": '}, ...messages.slice(1)];
			const reading = read(adapter, broken);
			assert.deepEqual(reading, await decoded(adapter, broken));
			assert.equal(reading.ending, 'upstream-error');
		});
	}

	it('the captured streams end as their names say, with the usage they report', () => {
		const ending = (adapter: InboundAdapter, messages: SseMessage[]) => read(adapter, messages).ending;
		assert.equal(ending(openaiAdapter, openaiLines('text').map(data => ({data}))), 'complete');
		assert.equal(ending(openaiAdapter, openaiLines('mid-stream-error').map(data => ({data}))), 'upstream-error');
		assert.equal(ending(anthropicAdapter, anthropicChunks('error-mid-stream')), 'upstream-error');
		assert.equal(ending(geminiAdapter, geminiChunks('error-mid-stream')), 'upstream-error');
		assert.equal(ending(responsesAdapter, responsesEvents('error-insufficient-quota')), 'upstream-error');
		assert.deepEqual(read(openaiAdapter, openaiLines('text').map(data => ({data}))).usage, {inputTokens: 16, outputTokens: 300});
		assert.equal(read(anthropicAdapter, anthropicChunks('usage-cache')).ending, 'complete');
		assert.ok((read(anthropicAdapter, anthropicChunks('usage-cache')).usage?.cachedTokens ?? 0) > 0, 'cache reads are counted');
	});
});
