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
	return new StepEncoder(encode, endEarly, later);
}

/**
 * A class, not an object literal with getters: in Node 20's V8 an object literal's getter closure is
 * held from outside the young generation (its accessor pair, as far as measured: a literal whose
 * closures are plain properties, or whose getter closes over nothing, does not do it), so every
 * young object the getter's closure reaches — here the format's state, the client's parsed request
 * among it — outlived each young-generation collection and was promoted, to be freed only by a full
 * one. A translated stream's every request went that way: about 6 KB a small request, 250 KB one
 * with a coding agent's context (test/formats/stream-encoder-memory.test.ts). A class's getters are
 * on its prototype, made once.
 */
class StepEncoder implements StreamEncoder {
	private ended = false;

	constructor(
		private readonly encode: (event: IRStreamEvent) => string,
		private readonly endEarly: () => string,
		private readonly later: LaterFrames,
	) {}

	get done(): boolean {
		return this.ended;
	}

	get hasMore(): boolean {
		return this.later.hasMore;
	}

	more(): string {
		return this.later.more();
	}

	push(event: IRStreamEvent): string {
		if (this.ended) return '';
		if (event.type === 'finish' || event.type === 'error') this.ended = true;
		return this.encode(event);
	}

	end(): string {
		if (this.ended) return '';
		this.ended = true;
		return this.endEarly();
	}
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
