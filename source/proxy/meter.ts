/**
 * Reads a passed-through stream on the side: the relay forwards the provider's bytes to the client
 * untouched and hands each chunk here too, where the format's stream reader (formats/stream-reader.ts)
 * takes its messages as they go by — synchronously, in the same turn as the write, so metering
 * costs no promise per message. Failures here never affect the client's answer; they become a
 * warning on the request log.
 */
import {createParser, type EventSourceParser} from 'eventsource-parser';
import type {InboundAdapter, TranslationContext} from '../formats/adapter.js';
import type {SseMessage} from '../formats/sse.js';
import type {StreamReader, StreamReading} from '../formats/stream-reader.js';
import {JsonArraySplitter} from './json-array.js';

export type StreamFraming = 'sse' | 'json-array';

export class StreamMeter {
	private readonly reader: StreamReader;
	private readonly decoder = new TextDecoder();
	private readonly sse: EventSourceParser | null;
	private readonly elements: JsonArraySplitter | null;
	private broken = false;

	constructor(wire: Pick<InboundAdapter, 'readStream'>, framing: StreamFraming, private readonly ctx: TranslationContext) {
		this.reader = wire.readStream();
		const read = (message: SseMessage) => this.read(message);
		this.sse = framing === 'sse' ? createParser({onEvent: read}) : null;
		this.elements = framing === 'json-array' ? new JsonArraySplitter(data => read({data})) : null;
	}

	/** A chunk of the provider's bytes, as forwarded. */
	pushBytes(chunk: Uint8Array): void {
		if (this.broken) return;
		const text = this.decoder.decode(chunk, {stream: true});
		if (this.sse) this.sse.feed(text);
		else this.elements?.push(text);
	}

	/** A message the relay parsed itself (the stream whose usage chunk it hides). */
	read(message: SseMessage): void {
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
		if (!this.broken) {
			const rest = this.decoder.decode();
			// A last event without its blank line is still delivered by real clients; flush it the same way.
			if (this.sse) this.sse.feed(`${rest}\n\n`);
			else this.elements?.push(rest);
		}
		return this.broken ? null : this.reader.finish();
	}
}
