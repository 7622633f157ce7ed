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
 *
 * An iterator object rather than an async generator: the messages of a chunk are handed out from
 * a queue, each `next()` an already-settled promise, without a generator's suspensions around every
 * message (they were a measurable share of a translated stream's cost).
 */
export function parseSse(chunks: AsyncIterable<Uint8Array | string>, leftover?: (rest: AsyncIterator<Uint8Array | string>) => void): SseMessages {
	return new SseMessages(chunks[Symbol.asyncIterator](), leftover);
}

const finished: IteratorResult<SseMessage> = {done: true, value: undefined};

export class SseMessages implements AsyncIterableIterator<SseMessage> {
	private readonly queue: SseMessage[] = [];
	private head = 0;
	private readonly feed = new SseFeed(message => this.queue.push(message));
	/** The source has no more bytes (or failed): nothing is left to hand over. */
	private sourceDone = false;
	/** This iterator is done: drained, failed or returned. */
	private done = false;

	constructor(
		private readonly source: AsyncIterator<Uint8Array | string>,
		private readonly leftover?: (rest: AsyncIterator<Uint8Array | string>) => void,
	) {}

	[Symbol.asyncIterator](): AsyncIterableIterator<SseMessage> {
		return this;
	}

	next(): Promise<IteratorResult<SseMessage>> {
		const queued = this.take();
		if (queued) return Promise.resolve(queued);
		if (this.done || this.sourceDone) {
			this.done = true;
			return Promise.resolve(finished);
		}
		return this.pull();
	}

	async return(): Promise<IteratorResult<SseMessage>> {
		if (this.done) return finished;
		this.done = true;
		this.queue.length = 0;
		if (!this.sourceDone) {
			this.sourceDone = true;
			if (this.leftover) this.leftover(this.source);
			else await this.source.return?.();
		}
		return finished;
	}

	private take(): IteratorResult<SseMessage> | null {
		if (this.head >= this.queue.length) return null;
		const value = this.queue[this.head++]!;
		if (this.head === this.queue.length) {
			this.queue.length = 0;
			this.head = 0;
		}
		return {done: false, value};
	}

	private async pull(): Promise<IteratorResult<SseMessage>> {
		for (;;) {
			await this.fill();
			const queued = this.take();
			if (queued) return queued;
			if (this.sourceDone) {
				this.done = true;
				return finished;
			}
		}
	}

	/** One chunk of the source into the parser (at the source's end, the parser's end). */
	private async fill(): Promise<void> {
		let next: IteratorResult<Uint8Array | string>;
		try {
			next = await this.source.next();
		} catch (error) {
			this.done = true;
			this.sourceDone = true;
			throw error;
		}
		if (next.done) {
			this.sourceDone = true;
			this.feed.end();
		} else {
			this.feed.push(next.value);
		}
	}
}

/** One SSE frame. `event` is omitted for formats that use only `data:` lines (OpenAI, Gemini). */
export function sseFrame(data: string, event?: string): string {
	// JSON text, the usual data, has no raw line breaks.
	if (!data.includes('\n')) return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
	const lines = data.split('\n').map(line => `data: ${line}`).join('\n');
	return event ? `event: ${event}\n${lines}\n\n` : `${lines}\n\n`;
}
