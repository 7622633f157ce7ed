/**
 * A real Claude stream of a tool call without arguments (one `input_json_delta` with an empty
 * `partial_json`), translated for OpenAI chat and Responses clients (issue 16).
 */
import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {adapters, inboundAdapters} from '../../source/formats/index.js';
import {loadChunks} from './anthropic/fixtures.js';
import {collect, fromArray, recordingContext} from '../helpers/streams.js';

const decoded = () => adapters.anthropic.decodeStream(fromArray(loadChunks('tool-no-args')), recordingContext());

describe('a recorded Claude tool call without arguments', () => {
	it('reaches OpenAI chat clients with arguments "{}"', async () => {
		// An event's frames may leave as one piece: split the text into frames.
		const frames = (await collect(inboundAdapters.openai.encodeStream(decoded(), {model: 'm', includeUsage: false, sse: true}, recordingContext()))).join('').split('\n\n');
		const pieces = frames
			.filter(frame => frame.startsWith('data: {'))
			.flatMap(frame => (JSON.parse(frame.slice(6)) as {choices: Array<{delta: {tool_calls?: Array<{function?: {arguments?: string}}>}}>}).choices)
			.flatMap(choice => choice.delta.tool_calls ?? [])
			.map(call => call.function?.arguments ?? '');
		assert.equal(pieces.join(''), '{}');
	});

	it('reaches Responses clients with a function_call_arguments.delta before .done', async () => {
		// An event's frames may leave as one piece: split the text into frames.
		const frames = (await collect(inboundAdapters.responses.encodeStream(decoded(), {model: 'm', includeUsage: false, sse: true, request: {}}, recordingContext()))).join('').split('\n\n');
		const events = frames.map(frame => /^event: (\S+)/.exec(frame)?.[1]).filter(name => name?.startsWith('response.function_call_arguments'));
		assert.deepEqual(events, ['response.function_call_arguments.delta', 'response.function_call_arguments.done']);
	});
});
