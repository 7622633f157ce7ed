/**
 * A passed-through Anthropic messages stream, read for the log (see formats/stream-reader.ts): the
 * usage of `message_start` and every `message_delta` (cumulative, fields may be omitted), an
 * `error` event, and `message_stop` as the end — as `decodeAnthropicStream` has it.
 */
import type {SseMessage} from '../sse.js';
import {ReadingState, mergeUsage, stringChars, stringFields, type StreamReader, type StreamReading} from '../stream-reader.js';
import {asString, isWireObject, looksLikeJsonObject, parseJsonObject, type WireObject} from '../wire.js';
import {anthropicStreamProblems, mergeWireUsage} from './decode-anthropic-stream.js';
import {decodeAnthropicError} from './errors.js';
import {completeUsage, decodeAnthropicUsagePartial} from './map-anthropic-usage.js';

/** Events that carry nothing the reader needs once the stream has started: content, and keep-alives. */
const isContentEvent = (event: string) => event === 'content_block_delta' || event === 'content_block_start' || event === 'content_block_stop' || event === 'ping';

/** What a `content_block_delta` generates: text, thinking, a tool call's input. */
const generated = stringFields('text', 'thinking', 'partial_json');

export class AnthropicStreamReader implements StreamReader {
	private readonly state = new ReadingState();
	private started = false;
	/** The latest wire value of each usage counter. */
	private wire: WireObject = {};

	read(message: SseMessage): void {
		const {state} = this;
		if (state.ended) return;
		if (this.started && message.event !== undefined && isContentEvent(message.event)) {
			if (!looksLikeJsonObject(message.data)) state.fail(anthropicStreamProblems.notJson(message.data));
			else if (message.event === 'content_block_delta') state.generatedChars += stringChars(message.data, generated);
			return;
		}
		const data = parseJsonObject(message.data);
		if (!data) return state.fail(anthropicStreamProblems.notJson(message.data));
		const type = message.event ?? asString(data.type);
		if (type === 'error') return state.fail(decodeAnthropicError(0, data).message);
		if (!this.started && type !== 'ping') {
			this.started = true;
			this.merge(isWireObject(data.message) ? data.message.usage : undefined);
		}
		if (type === 'message_delta') this.merge(data.usage);
		else if (type === 'message_stop') state.complete(mergeUsage(state.usage, completeUsage(decodeAnthropicUsagePartial(this.wire))));
	}

	finish(): StreamReading {
		return this.state.finish(anthropicStreamProblems.cutOff);
	}

	private merge(update: unknown): void {
		this.wire = mergeWireUsage(this.wire, update);
		this.state.usage = mergeUsage(this.state.usage, decodeAnthropicUsagePartial(this.wire));
	}
}
