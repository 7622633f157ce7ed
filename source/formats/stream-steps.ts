/**
 * A stream's decoder and encoder as synchronous steps: one SSE message in, its IR events out; one
 * IR event in, its frames out. The proxy's translated streams run them directly, message by message
 * as the provider's bytes arrive, with no promise between the provider's body and the client's
 * (an async generator on each side cost a translated stream several turns of the microtask queue
 * per event). `decodeStream` and `encodeStream`, the adapters' generator forms, are these steps
 * wrapped, so each format has one implementation.
 */
import type {IRStreamEvent} from '../base/ir.js';
import type {SseMessage} from './sse.js';

export type StreamDecoder = {
	/** The IR events of one message. After a terminal event (`finish` or `error`) `done` is true and later messages give nothing. */
	push(message: SseMessage): IRStreamEvent[];
	/** The messages ran out: nothing if the stream ended properly, else the error that says it was cut off. */
	end(): IRStreamEvent[];
	readonly done: boolean;
};

export type StreamEncoder = {
	/** The text of one event's frames ('' for none). After a terminal event `done` is true. */
	push(event: IRStreamEvent): string;
	/** The events ran out before a terminal one: the frames that end the stream as failed. */
	end(): string;
	/**
	 * Whether the last `push` or `end` kept frames back, for `more` to build. The caller takes them
	 * all before the next push, writing what it has before asking for the next: a format whose closing
	 * frames each repeat the whole answer (the Responses API's four) builds them one at a time, so a
	 * 50 MB answer is never held twice over. Other formats keep nothing back.
	 */
	readonly hasMore: boolean;
	/** The next of those frames, built now ('' when there are none). */
	more(): string;
	readonly done: boolean;
};

/** Frames an encoder keeps back (see StreamEncoder.hasMore). */
export type LaterFrames = {readonly hasMore: boolean; more(): string};

const nothingLater: LaterFrames = {hasMore: false, more: () => ''};

/**
 * A step encoder from a format's two parts: the text of one event's frames, and the text that ends a
 * stream whose events ran out before a terminal one. The done flag and its guards are here, once:
 * after a terminal event (`finish` or `error`) or the end, nothing more is written.
 */
export function stepEncoder(encode: (event: IRStreamEvent) => string, endEarly: () => string, later: LaterFrames = nothingLater): StreamEncoder {
	let done = false;
	return {
		get hasMore() {
			return later.hasMore;
		},
		more: () => later.more(),
		get done() {
			return done;
		},
		push(event) {
			if (done) return '';
			if (event.type === 'finish' || event.type === 'error') done = true;
			return encode(event);
		},
		end() {
			if (done) return '';
			done = true;
			return endEarly();
		},
	};
}

/** The generator form of a decoder: stops reading (and so ends the message source) at the terminal event. */
export async function* decodeWith(decoder: StreamDecoder, messages: AsyncIterable<SseMessage>): AsyncGenerator<IRStreamEvent> {
	for await (const message of messages) {
		for (const event of decoder.push(message)) yield event;
		if (decoder.done) return;
	}
	for (const event of decoder.end()) yield event;
}

/** The generator form of an encoder: one chunk of text per event that has frames, then each of its later frames (`more`) as its own. */
export async function* encodeWith(encoder: StreamEncoder, events: AsyncIterable<IRStreamEvent>): AsyncGenerator<string> {
	for await (const event of events) {
		const text = encoder.push(event);
		if (text) yield text;
		while (encoder.hasMore) yield encoder.more();
		if (encoder.done) return;
	}
	const rest = encoder.end();
	if (rest) yield rest;
	while (encoder.hasMore) yield encoder.more();
}
