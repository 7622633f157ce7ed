/**
 * Server-sent events: a real parser (eventsource-parser) over a byte stream, and the frame writer.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
import {createParser, type EventSourceParser} from 'eventsource-parser';
import {Utf8Chunks} from '../base/utf8-chunks.js';

export type SseMessage = {readonly event?: string; readonly data: string; readonly id?: string};

/**
 * SSE messages from bytes (or text) fed as they arrive, synchronously: each message is handed to
 * `onMessage` during the `push` that completes it.
 */
export class SseFeed {
	private readonly parser: EventSourceParser;
	private readonly decoder = new Utf8Chunks();

	constructor(onMessage: (message: SseMessage) => void) {
		this.parser = createParser({onEvent: onMessage});
	}

	push(chunk: Uint8Array | string): void {
		this.parser.feed(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk));
	}

	/** The bytes have run out. A last event without its blank line is still delivered, as real clients do. */
	end(): void {
		this.parser.feed(`${this.decoder.end()}\n\n`);
	}
}

/**
 * Parse a stream of bytes (or strings) into SSE messages, as they arrive. A consumer that stops
 * before the end (a decoder returns at its terminal event) ends the source — or, with `leftover`,
 * hands what is left of it over instead (the proxy drains a provider's body rather than destroy it).
 */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>, leftover?: (rest: AsyncIterator<Uint8Array | string>) => void): AsyncGenerator<SseMessage> {
	const queue: SseMessage[] = [];
	const feed = new SseFeed(message => queue.push(message));
	const source = chunks[Symbol.asyncIterator]();
	let ended = false;
	try {
		for (let next = await source.next(); !next.done; next = await source.next()) {
			feed.push(next.value);
			while (queue.length > 0) yield queue.shift()!;
		}
		ended = true;
	} catch (error) {
		ended = true;
		throw error;
	} finally {
		if (!ended) {
			if (leftover) leftover(source);
			else await source.return?.();
		}
	}
	feed.end();
	while (queue.length > 0) yield queue.shift()!;
}

/** One SSE frame. `event` is omitted for formats that use only `data:` lines (OpenAI, Gemini). */
export function sseFrame(data: string, event?: string): string {
	// JSON text, the usual data, has no raw line breaks.
	if (!data.includes('\n')) return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
	const lines = data.split('\n').map(line => `data: ${line}`).join('\n');
	return event ? `event: ${event}\n${lines}\n\n` : `${lines}\n\n`;
}
