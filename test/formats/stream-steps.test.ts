/**
 * The step forms of the stream decoders and encoders (stream-steps.ts): the formats whose translated
 * streams run as steps have both forms in the adapter table (its tool-name wrapper included), and
 * a stream fed message by message to a step decoder, and each of its events to a step encoder,
 * gives exactly what the generators give — ending where they end.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {IRStreamEvent} from '../../source/base/ir.js';
import {adapters, inboundAdapters} from '../../source/formats/index.js';
import {collect, loadChunks, recordingContext, replay} from './anthropic/fixtures.js';
import {loadChunks as loadGeminiChunks} from './gemini/fixtures.js';
import type {StreamDecoder, StreamEncoder} from '../../source/formats/stream-steps.js';
import type {SseMessage} from '../../source/formats/sse.js';

test('OpenAI, Anthropic and Gemini have step decoders and encoders in the adapter table, so streams between them run as steps', () => {
	for (const format of ['openai', 'anthropic', 'gemini'] as const) {
		assert.equal(typeof adapters[format].streamDecoder, 'function', `${format} step decoder`);
		assert.equal(typeof adapters[format].streamEncoder, 'function', `${format} step encoder`);
	}
});

test('message by message: the step decoder and encoder give what the generators give, and stop at the terminal event', async () => {
	const messages = loadChunks('text');
	const options = {model: 'gpt-4o-mini', includeUsage: true, sse: true};
	const fromGenerators = await collect(adapters.openai.encodeStream(adapters.anthropic.decodeStream(replay(messages), recordingContext()), options, recordingContext()));
	const decoder = adapters.anthropic.streamDecoder!(recordingContext());
	const encoder = adapters.openai.streamEncoder!(options, recordingContext());
	const events: IRStreamEvent[] = [];
	let text = '';
	for (const message of [...messages, {data: '{"type":"ping"}'}]) {
		for (const event of decoder.push(message)) {
			events.push(event);
			text += encoder.push(event);
		}
	}
	for (const event of decoder.end()) text += encoder.push(event);
	text += encoder.end();
	assert.ok(decoder.done && encoder.done);
	assert.equal(events.filter(event => event.type === 'finish').length, 1, 'one finish, nothing after the terminal event');
	// The ids are made up per stream: compare with them masked.
	const mask = (frames: string) => frames.replace(/"id":"[^"]*"/g, '"id":"…"').replace(/"created":\d+/g, '"created":0');
	assert.equal(mask(text), mask(fromGenerators.join('')));
});

test('cut off before the terminal event: the step decoder ends with the error the generator ends with', async () => {
	const messages = loadChunks('text').slice(0, 4);
	const fromGenerator = await collect(adapters.anthropic.decodeStream(replay(messages), recordingContext()));
	const decoder = adapters.anthropic.streamDecoder!(recordingContext());
	const events = [...messages.flatMap(message => decoder.push(message)), ...decoder.end()];
	assert.deepEqual(events, fromGenerator);
	assert.equal(events.at(-1)?.type, 'error');
	assert.deepEqual(decoder.end(), [], 'said once');
});

/** A stream through a step decoder and a step encoder, message by message, as translate.ts runs it. */
function throughSteps(messages: readonly SseMessage[], decoder: StreamDecoder, encoder: StreamEncoder): string {
	let text = '';
	for (const message of messages) for (const event of decoder.push(message)) text += encoder.push(event);
	for (const event of decoder.end()) text += encoder.push(event);
	return text + encoder.end();
}

const maskIds = (frames: string) => frames.replace(/"(id|responseId)":"[^"]*"/g, '"$1":"…"').replace(/"created":\d+/g, '"created":0');

for (const fixture of ['text', 'thinking', 'parallel-tool-calls', 'error-mid-stream'] as const) {
	test(`Gemini's steps give what its generators give (${fixture}: Gemini to OpenAI, and to a Gemini JSON-array client)`, async () => {
		const messages = loadGeminiChunks(fixture);
		const openaiOptions = {model: 'gpt-4o-mini', includeUsage: true, sse: true};
		const viaGenerators = await collect(adapters.openai.encodeStream(adapters.gemini.decodeStream(replay(messages), recordingContext()), openaiOptions, recordingContext()));
		const viaSteps = throughSteps(messages, adapters.gemini.streamDecoder!(recordingContext()), adapters.openai.streamEncoder!(openaiOptions, recordingContext()));
		assert.equal(maskIds(viaSteps), maskIds(viaGenerators.join('')));

		const arrayOptions = {model: 'gemini-2.5-flash', includeUsage: true, sse: false};
		const arrayViaGenerators = (await collect(adapters.gemini.encodeStream(adapters.gemini.decodeStream(replay(messages), recordingContext()), arrayOptions, recordingContext()))).join('');
		const arrayViaSteps = throughSteps(messages, adapters.gemini.streamDecoder!(recordingContext()), adapters.gemini.streamEncoder!(arrayOptions, recordingContext()));
		assert.equal(maskIds(arrayViaSteps), maskIds(arrayViaGenerators));
		assert.ok(Array.isArray(JSON.parse(arrayViaSteps)), 'a whole JSON array, closed once');
	});
}

test("Gemini's step decoder: a frame that is not JSON ends the stream as failed, the block open before it closed; later messages give nothing", () => {
	const decoder = adapters.gemini.streamDecoder!(recordingContext());
	const [first] = loadGeminiChunks('text');
	const events = [...decoder.push(first!), ...decoder.push({data: '{not json'})];
	assert.deepEqual(events.slice(-2).map(event => event.type), ['block-end', 'error']);
	assert.ok(decoder.done);
	assert.deepEqual([...decoder.push(first!), ...decoder.end()], []);
});

test("Gemini's step encoder: events that run out before a terminal one still close a JSON array", () => {
	const encoder = adapters.gemini.streamEncoder!({model: 'g', includeUsage: true, sse: false}, recordingContext());
	assert.equal(encoder.end(), '[]', 'nothing written: an empty array');
	const again = adapters.gemini.streamEncoder!({model: 'g', includeUsage: true, sse: false}, recordingContext());
	const text = again.push({type: 'start', id: 'r1', model: 'g'}) + again.push({type: 'block-start', index: 0, block: {kind: 'text'}}) + again.push({type: 'text-delta', index: 0, text: 'Hi'}) + again.end();
	assert.deepEqual(JSON.parse(text).map((element: {candidates: Array<{content: {parts: unknown[]}}>}) => element.candidates[0]!.content.parts), [[{text: 'Hi'}]]);
	assert.equal(again.end(), '', 'said once');
});

test('the Responses API encodes its streams as a step too (it is an inbound format only: no step decoder)', () => {
	assert.equal(typeof inboundAdapters.responses.streamEncoder, 'function');
	assert.equal(inboundAdapters.responses.streamDecoder, undefined);
});

const responsesOptions = {model: 'gpt-5', includeUsage: true, sse: true, request: {model: 'gpt-5', input: 'hi', stream: true}};
const typesOf = (frames: string) => [...frames.matchAll(/^event: (\S+)$/gm)].map(match => match[1]);
const sequenceOf = (frames: string) => [...frames.matchAll(/"sequence_number":(\d+)/g)].map(match => Number(match[1]));

test("Responses step encoder: a short answer's closing frames leave with their event, nothing waits in `more`", () => {
	const encoder = inboundAdapters.responses.streamEncoder!(responsesOptions, recordingContext());
	let text = '';
	const pushed: IRStreamEvent[] = [
		{type: 'start', id: 'msg_1', model: 'gpt-5'},
		{type: 'block-start', index: 0, block: {kind: 'text'}},
		{type: 'text-delta', index: 0, text: 'Hello'},
		{type: 'block-end', index: 0},
		{type: 'finish', reason: 'stop', usage: {inputTokens: 3, outputTokens: 1}},
	];
	for (const event of pushed) {
		text += encoder.push(event);
		assert.equal(encoder.hasMore, false, `${event.type}: every frame came with the push`);
	}
	assert.ok(encoder.done);
	assert.deepEqual(typesOf(text), ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
	assert.deepEqual(sequenceOf(text), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
});

test('Responses step encoder: the closing frames of a long answer are built one at a time, as `more` is asked, numbered in order', () => {
	const encoder = inboundAdapters.responses.streamEncoder!(responsesOptions, recordingContext());
	const long = 'x'.repeat(1_000_000);
	let text = encoder.push({type: 'start', id: 'msg_1', model: 'gpt-5'}) + encoder.push({type: 'block-start', index: 0, block: {kind: 'text'}});
	for (let i = 0; i < 10; i++) text += encoder.push({type: 'text-delta', index: 0, text: long.slice(i * 100_000, (i + 1) * 100_000)});
	assert.equal(encoder.hasMore, false);
	// block-end: output_text.done, content_part.done, output_item.done each carry the whole text.
	const pieces = [encoder.push({type: 'block-end', index: 0})];
	assert.ok(encoder.hasMore, 'the other two are kept back');
	while (encoder.hasMore) pieces.push(encoder.more());
	assert.deepEqual(pieces.map(typesOf), [['response.output_text.done'], ['response.content_part.done'], ['response.output_item.done']]);
	for (const piece of pieces) assert.ok(piece.length > long.length && piece.length < long.length + 1000, 'one whole-text frame per piece');
	// finish: response.completed alone.
	const completed = encoder.push({type: 'finish', reason: 'stop', usage: {inputTokens: 3, outputTokens: 250_000}});
	assert.deepEqual(typesOf(completed), ['response.completed']);
	assert.equal(encoder.hasMore, false);
	assert.equal(encoder.more(), '');
	assert.ok(encoder.done);
	const all = text + pieces.join('') + completed;
	assert.deepEqual(sequenceOf(all), Array.from({length: sequenceOf(all).length}, (_, i) => i), 'sequence numbers follow the order the frames are written');
});

test('Responses step encoder: events that run out end with error and response.failed; its generator form gives the same frames', async () => {
	const events: IRStreamEvent[] = [
		{type: 'start', id: 'msg_1', model: 'gpt-5'},
		{type: 'block-start', index: 0, block: {kind: 'text'}},
		{type: 'text-delta', index: 0, text: 'Hel'},
	];
	const encoder = inboundAdapters.responses.streamEncoder!(responsesOptions, recordingContext());
	let text = events.map(event => encoder.push(event)).join('');
	text += encoder.end();
	while (encoder.hasMore) text += encoder.more();
	assert.deepEqual(typesOf(text).slice(-2), ['error', 'response.failed']);
	assert.equal(encoder.end(), '', 'said once');
	const generated = (await collect(inboundAdapters.responses.encodeStream(replay(events), responsesOptions, recordingContext()))).join('');
	const mask = (frames: string) => frames.replace(/"(id|item_id)":"[^"]*"/g, '"$1":"…"').replace(/"created_at":\d+/g, '"created_at":0');
	assert.equal(mask(generated), mask(text));
});
