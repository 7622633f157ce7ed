/**
 * Reads a passed-through stream on the side: the relay forwards the provider's bytes to the client
 * untouched and hands each chunk here too, where the format's stream reader (formats/stream-reader.ts)
 * takes its messages as they go by — synchronously, in the same turn as the write, so metering
 * costs no promise per message. Failures here never affect the client's answer; they become a
 * warning on the request log.
 */
import type {InboundAdapter, TranslationContext} from '../formats/adapter.js';
import {SseFeed, type SseMessage} from '../formats/sse.js';
import type {StreamReader, StreamReading} from '../formats/stream-reader.js';
import {JsonArraySplitter} from './json-array.js';

/** How the chunks split into messages. */
export type StreamFraming = 'sse' | 'json-array';

export class StreamMeter {
	private readonly reader: StreamReader;
	private readonly feed: {push(chunk: Uint8Array | string): void; end(): void};
	private broken = false;

	constructor(wire: Pick<InboundAdapter, 'readStream'>, framing: StreamFraming, private readonly ctx: TranslationContext) {
		this.reader = wire.readStream();
		const read = (message: SseMessage) => this.read(message);
		this.feed = framing === 'sse' ? new SseFeed(read) : new JsonArraySplitter(data => read({data}));
	}

	/**
	 * A chunk of the provider's answer, as forwarded: its bytes, or their text when the caller has
	 * decoded them already (whole SSE frames: no character is split between two pieces).
	 */
	push(chunk: Uint8Array | string): void {
		if (!this.broken) this.feed.push(chunk);
	}

	private read(message: SseMessage): void {
		if (this.broken) return;
		try {
			this.reader.read(message);
		} catch (error) {
			this.broken = true;
			this.ctx.warn(`usage could not be read from the stream (${(error as Error).message})`);
		}
	}

	/** The bytes have run out: what the stream reported. Null when the reader itself failed (nothing is known). */
	end(): StreamReading | null {
		if (!this.broken) this.feed.end();
		return this.broken ? null : this.reader.finish();
	}
}
