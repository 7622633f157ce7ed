/**
 * A passed-through Responses API stream, read for the log (see formats/stream-reader.ts): the usage
 * of `response.completed` or `response.incomplete` (the end), `response.failed` and `error` — as
 * `decodeResponsesStream` has it.
 */
import type {SseMessage} from '../sse.js';
import {ReadingState, mergeUsage, stringChars, stringFields, type StreamReader, type StreamReading} from '../stream-reader.js';
import {asObject, looksLikeJsonObject, parseJsonObject} from '../wire.js';
import {responsesStreamProblems, terminalError} from './decode-responses-stream.js';
import {decodeResponsesUsage} from './map-responses-usage.js';

/** The events the reader acts on; OpenAI names each event on its `event:` line, so the others (every delta) need no parse. */
const isTerminalEvent = (event: string) => event === 'response.completed' || event === 'response.incomplete' || event === 'response.failed' || event === 'error';

/** The `delta` of a text, reasoning, refusal or tool-arguments event (`….delta`; audio's base64 deltas are not text). */
const generated = stringFields('delta');
const isGeneratedDelta = (event: string) => event.endsWith('.delta') && !event.includes('audio');

export class ResponsesStreamReader implements StreamReader {
	private readonly state = new ReadingState();

	read(message: SseMessage): void {
		const {state} = this;
		if (state.ended || message.data.trim() === '[DONE]') return;
		if (message.event !== undefined && !isTerminalEvent(message.event)) {
			if (!looksLikeJsonObject(message.data)) state.fail(responsesStreamProblems.notJson(message.data));
			else if (isGeneratedDelta(message.event)) state.generatedChars += stringChars(message.data, generated);
			return;
		}
		const event = parseJsonObject(message.data);
		if (!event) return state.fail(responsesStreamProblems.notJson(message.data));
		const response = asObject(event.response) ?? {};
		switch (event.type) {
			case 'response.completed':
			case 'response.incomplete':
				return state.complete(mergeUsage(null, decodeResponsesUsage(asObject(response.usage))));
			case 'response.failed':
			case 'error':
				return state.fail(terminalError(event, response).message);
		}
	}

	finish(): StreamReading {
		return this.state.finish(responsesStreamProblems.cutOff);
	}
}
