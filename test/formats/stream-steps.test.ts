/**
 * The step forms of the stream decoders and encoders (stream-steps.ts): the formats whose translated
 * streams run as steps have both forms in the adapter table (its tool-name wrapper included), and
 * a stream fed message by message to a step decoder, and each of its events to a step encoder,
 * gives exactly what the generators give — ending where they end.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {IRStreamEvent} from '../../source/base/ir.js';
import {adapters} from '../../source/formats/index.js';
import {collect, loadChunks, recordingContext, replay} from './anthropic/fixtures.js';

test('OpenAI and Anthropic have step decoders and encoders in the adapter table, so streams between them run as steps', () => {
	for (const format of ['openai', 'anthropic'] as const) {
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
