/**
 * A passed-through Responses API stream, read for the log (see formats/stream-reader.ts): the usage
 * of `response.completed` or `response.incomplete` (the end), `response.failed` and `error` — as
 * `decodeResponsesStream` has it.
 */
import type {SseMessage} from '../sse.js';
import {ReadingState, mergeUsage, type StreamReader, type StreamReading} from '../stream-reader.js';
import {asObject, isWireObject, parseJsonObject} from '../wire.js';
import {decodeResponsesError} from './errors.js';
import {decodeResponsesUsage} from './map-responses-usage.js';

export class ResponsesStreamReader implements StreamReader {
	private readonly state = new ReadingState();

	read(message: SseMessage): void {
		const {state} = this;
		if (state.ended || message.data.trim() === '[DONE]') return;
		const event = parseJsonObject(message.data);
		if (!event) return state.fail(`The Responses upstream sent an event that is not JSON: ${message.data.slice(0, 200)}`);
		const response = asObject(event.response) ?? {};
		switch (event.type) {
			case 'response.completed':
			case 'response.incomplete':
				return state.complete(mergeUsage(null, decodeResponsesUsage(asObject(response.usage))));
			case 'response.failed':
				return state.fail(decodeResponsesError(200, {error: asObject(response.error) ?? {message: 'The upstream response failed.'}}).message);
			case 'error':
				return state.fail(decodeResponsesError(200, isWireObject(event.error) ? event : {error: event}).message);
		}
	}

	finish(): StreamReading {
		return this.state.finish('The Responses upstream closed the stream before response.completed.');
	}
}
