/**
 * A passed-through Gemini stream (SSE, or the elements of a JSON array), read for the log (see
 * formats/stream-reader.ts): the latest `usageMetadata` (cumulative), an error frame, and the end —
 * a `finishReason`, or a blocked prompt — as `decodeGeminiStream` has it.
 */
import type {SseMessage} from '../sse.js';
import {ReadingState, mergeUsage, type StreamReader, type StreamReading} from '../stream-reader.js';
import {asArray, isWireObject, parseJsonObject, type WireObject} from '../wire.js';
import {frameError, geminiStreamProblems} from './decode-gemini-stream.js';
import {decodeGeminiUsage} from './map-gemini-usage.js';
import {firstCandidate, promptBlockReason} from './response.js';
import {pick, pickString} from './schema.js';

export class GeminiStreamReader implements StreamReader {
	private readonly state = new ReadingState();
	private started = false;
	private finished = false;

	read(message: SseMessage): void {
		const {state} = this;
		if (state.ended || message.data.trim() === '') return;
		const frame = parseJsonObject(message.data);
		if (!frame) return state.fail(geminiStreamProblems.notJson(message.data));
		const error = frameError(frame);
		if (error) return state.fail(error.message);
		const metadata = pick(frame, 'usageMetadata');
		if (!this.started) {
			this.started = true;
			if (isWireObject(metadata)) state.usage = mergeUsage(null, {inputTokens: decodeGeminiUsage(metadata).inputTokens});
		}
		if (isWireObject(metadata)) state.usage = mergeUsage(state.usage, decodeGeminiUsage(metadata));
		const candidate = firstCandidate(frame);
		if (candidate) state.generatedChars += generatedChars(candidate);
		if ((candidate && pickString(candidate, 'finishReason') !== undefined) || promptBlockReason(frame) !== undefined) this.finished = true;
	}

	finish(): StreamReading {
		if (this.finished) this.state.complete(this.state.usage ?? {inputTokens: 0, outputTokens: 0});
		return this.state.finish(geminiStreamProblems.cutOff);
	}
}

/** The characters a candidate's parts generate: text (thoughts too) and function calls' arguments as JSON. */
function generatedChars(candidate: WireObject): number {
	const content = pick(candidate, 'content');
	const parts = isWireObject(content) ? asArray(content.parts) : undefined;
	if (!parts) return 0;
	let chars = 0;
	for (const part of parts) {
		if (!isWireObject(part)) continue;
		if (typeof part.text === 'string') chars += part.text.length;
		const call = pick(part, 'functionCall');
		if (isWireObject(call) && call.args !== undefined) chars += JSON.stringify(call.args).length;
	}
	return chars;
}
