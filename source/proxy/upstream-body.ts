/**
 * A provider's answer, read straight off undici's dispatch handler. undici's `request()` wraps each
 * answer in a Node Readable (plus an AsyncResource, an abort-signal listener pair and the stream's
 * tick-by-tick bookkeeping) that the gateway only ever drained one of three ways: whole as text,
 * chunk by chunk, or dropped. This body does those three and nothing else, with the same
 * backpressure (the connection pauses once 64 KiB wait unread) — a few microseconds and a few
 * hundred bytes less per request, which at thousands of requests a second or streams open at once
 * is most of what a relay costs beyond its sockets.
 */
import type {IncomingHttpHeaders} from 'node:http';
import {startsWithByteOrderMark} from '../base/utf8-chunks.js';
import type {Hangup} from './hangup.js';
import {errors as undiciErrors, type Dispatcher} from './stack.js';

/** Unread bytes past which the connection is paused until the reader catches up (undici's own default). */
const highWaterMark = 64 * 1024;
/** What `dump()` reads and drops before it gives up the connection instead (undici's own default). */
const dumpLimit = 128 * 1024;
/** What `release()` reads and drops of a body its reader stopped early, before the connection is given up instead. */
const releaseLimit = 64 * 1024;

type Reader = {readonly resolve: (result: IteratorResult<Uint8Array>) => void; readonly reject: (error: unknown) => void};

/**
 * What `consume()` hands a body to, a chunk at a time as it arrives. `data` may call the body's
 * `pause()` before it returns (the client reads slowly); nothing more is handed over until `resume()`.
 * After `end` or `fail` nothing is called again.
 */
export type BodySink = {
	data(chunk: Buffer): void;
	end(): void;
	fail(error: unknown): void;
};
type Whole = {readonly resolve: (text: string) => void; readonly reject: (error: unknown) => void};

const finished: IteratorResult<Uint8Array> = {done: true, value: undefined};

export class UpstreamBody implements AsyncIterable<Uint8Array> {
	private readonly queue: Buffer[] = [];
	private queued = 0;
	private ended = false;
	private failure: {error: unknown} | null = null;
	/** A `next()` waiting for a chunk. */
	private reader: Reader | null = null;
	/** `text()` waiting for the end. */
	private whole: Whole | null = null;
	/** `dump()`: chunks are dropped as they come; settles at the end. */
	private dumping: {bytes: number; readonly limit: number; readonly settle: () => void} | null = null;
	/** `consume()`: chunks are handed to it as they come, unless paused. */
	private sink: BodySink | null = null;
	private held = false;
	/** One reader per body, as with a stream: text, dump, iteration or a sink. */
	private taken = false;

	constructor(private readonly controller: Dispatcher.DispatchController) {}

	/** The whole body as UTF-8 text (a leading byte-order mark dropped, as fetch's `text()` does). */
	text(): Promise<string> {
		const refused = this.take();
		if (refused) return Promise.reject(refused);
		if (this.failure) return Promise.reject(this.failure.error);
		if (this.ended) return Promise.resolve(this.drainText());
		return new Promise((resolve, reject) => {
			this.whole = {resolve, reject};
			this.controller.resume();
		});
	}

	/** Read and drop the rest, so the connection can be reused; past 128 KiB the request is aborted instead. Never rejects. */
	dump(): Promise<void> {
		const taken = this.take() !== null;
		if (taken || this.ended || this.failure) {
			// Read by someone else already: whatever of it is left cannot be drained here, so it is given up.
			if (taken) this.destroy();
			this.queue.length = 0;
			return Promise.resolve();
		}
		return new Promise(settle => this.drop(dumpLimit, settle));
	}

	/**
	 * The reader is done before the body is (a stream decoder stops at its terminal event, a moment
	 * before the provider's body ends): what is left is read and dropped in the background, so the
	 * connection goes back to the pool — destroying the body would abort the request, close a good
	 * keep-alive connection and build an abort error for nothing. Past 64 KiB the request is aborted
	 * instead. The reader (a sink, or an iterator's pending `next()`) hears nothing more.
	 */
	release(): void {
		const reader = this.reader;
		this.sink = null;
		this.reader = null;
		this.held = false;
		reader?.resolve(finished);
		if (this.ended || this.failure || this.dumping) {
			this.queue.length = 0;
			this.queued = 0;
			return;
		}
		this.drop(releaseLimit, () => {});
	}

	/** Drop what is queued and whatever still comes, settling at the end; past `limit` bytes the request is aborted instead. */
	private drop(limit: number, settle: () => void): void {
		const bytes = this.queued;
		this.queue.length = 0;
		this.queued = 0;
		this.dumping = {bytes, limit, settle};
		if (bytes > limit) this.destroy();
		else this.controller.resume();
	}

	/** Stop reading: the request is aborted and its connection closed. `error` (whatever a reader threw) becomes the failure. */
	destroy(error?: unknown): void {
		if (this.ended || this.failure) return;
		const reason = error === undefined ? new undiciErrors.RequestAbortedError() : error instanceof Error ? error : new Error(String(error));
		this.controller.abort(reason);
		// undici reports the abort through onResponseError; if it did not (already finishing), settle here.
		if (!this.failure) this.fail(reason);
	}

	/**
	 * Hand the body to `sink` chunk by chunk, through calls instead of a promise per chunk: a slow
	 * stream waits between chunks with nothing allocated for the wait, where each awaited `next()`
	 * kept a promise, its reader and the caller's suspended frame alive for the whole gap — long
	 * enough, over thousands of open streams, for V8 to move them to the old generation (a heap
	 * profile of 2,000 slow streams had that as the gateway's largest share of what it promoted).
	 */
	consume(sink: BodySink): void {
		const refused = this.take();
		if (refused) {
			sink.fail(refused);
			return;
		}
		if (this.failure) {
			sink.fail(this.failure.error);
			return;
		}
		this.sink = sink;
		this.deliver();
	}

	/** Hold chunks back from the sink (they queue; the connection pauses past 64 KiB) until `resume()`. */
	pause(): void {
		this.held = true;
	}

	resume(): void {
		if (!this.held) return;
		this.held = false;
		this.deliver();
	}

	[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
		const refused = this.take();
		return {
			next: () => (refused ? Promise.reject(refused) : this.next()),
			return: () => {
				this.destroy();
				return Promise.resolve(finished);
			},
		};
	}

	// Called by the dispatch handler.

	/** A chunk arrived. */
	push(chunk: Buffer): void {
		if (this.dumping) {
			this.dumping.bytes += chunk.byteLength;
			if (this.dumping.bytes > this.dumping.limit) this.destroy();
			return;
		}
		if (this.sink && !this.held && this.queue.length === 0) {
			this.sink.data(chunk);
			return;
		}
		if (this.reader) {
			const reader = this.reader;
			this.reader = null;
			reader.resolve({done: false, value: chunk});
			return;
		}
		this.queue.push(chunk);
		this.queued += chunk.byteLength;
		if (this.queued >= highWaterMark && !this.whole) this.controller.pause();
	}

	/** The answer is complete. */
	end(): void {
		this.ended = true;
		if (this.whole) {
			const whole = this.whole;
			this.whole = null;
			whole.resolve(this.drainText());
		} else if (this.dumping) {
			this.dumping.settle();
		} else if (this.sink) {
			this.deliver();
		} else if (this.reader && this.queue.length === 0) {
			const reader = this.reader;
			this.reader = null;
			reader.resolve(finished);
		}
	}

	/** The connection failed, a time-out fired, or the call was aborted: what is queued is dropped, as a destroyed stream drops it. */
	fail(error: unknown): void {
		if (this.ended || this.failure) return;
		this.failure = {error};
		this.queue.length = 0;
		this.queued = 0;
		const sink = this.sink;
		if (this.whole) this.whole.reject(error);
		else if (this.reader) this.reader.reject(error);
		else if (this.dumping) this.dumping.settle();
		this.whole = null;
		this.reader = null;
		this.dumping = null;
		this.sink = null;
		sink?.fail(error);
	}

	/** Hand the sink what is queued, then the end if it has come; stops as soon as the sink pauses or the body fails. */
	private deliver(): void {
		const sink = this.sink;
		if (!sink) return;
		while (!this.held && this.queue.length > 0) {
			const chunk = this.queue.shift()!;
			this.queued -= chunk.byteLength;
			sink.data(chunk);
			if (this.sink !== sink) return; // failed, or destroyed by the sink
		}
		if (this.held) return;
		if (this.ended) {
			this.sink = null;
			sink.end();
		} else if (this.controller.paused) {
			this.controller.resume();
		}
	}

	private take(): Error | null {
		if (this.taken) return new TypeError('the upstream body was already read');
		this.taken = true;
		return null;
	}

	private next(): Promise<IteratorResult<Uint8Array>> {
		if (this.failure) return Promise.reject(this.failure.error);
		const chunk = this.queue.shift();
		if (chunk) {
			this.queued -= chunk.byteLength;
			if (this.queued < highWaterMark && this.controller.paused) this.controller.resume();
			return Promise.resolve({done: false, value: chunk});
		}
		if (this.ended) return Promise.resolve(finished);
		if (this.controller.paused) this.controller.resume();
		return new Promise((resolve, reject) => {
			this.reader = {resolve, reject};
		});
	}

	private drainText(): string {
		const bytes = this.queue.length === 1 ? this.queue[0]! : Buffer.concat(this.queue, this.queued);
		this.queue.length = 0;
		this.queued = 0;
		return bytes.toString('utf8', startsWithByteOrderMark(bytes) ? 3 : 0);
	}
}

export type UpstreamResponse = {readonly statusCode: number; readonly headers: IncomingHttpHeaders; readonly body: UpstreamBody};

/**
 * One upstream call as an undici dispatch handler: resolves with the status, headers and body when
 * the headers arrive, rejects if the call fails before. `hangup` aborts it at any point.
 */
export class UpstreamCallHandler implements Dispatcher.DispatchHandler {
	private body: UpstreamBody | null = null;
	private controller: Dispatcher.DispatchController | null = null;
	private stopped: {reason: Error} | null = null;
	private readonly forget: (() => void) | null = null;

	constructor(
		private readonly resolve: (response: UpstreamResponse) => void,
		private readonly reject: (error: unknown) => void,
		hangup: Hangup | undefined,
	) {
		if (hangup) this.forget = hangup.onAbort(reason => this.abort(reason));
	}

	onRequestStart(controller: Dispatcher.DispatchController): void {
		this.controller = controller;
		if (this.stopped) controller.abort(this.stopped.reason);
	}

	onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
		// 1xx answers are informational; the real one follows.
		if (statusCode < 200) return;
		this.body = new UpstreamBody(controller);
		this.resolve({statusCode, headers, body: this.body});
	}

	onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
		this.body?.push(chunk);
	}

	onResponseEnd(): void {
		this.forgetHangup();
		this.body?.end();
	}

	onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
		this.forgetHangup();
		if (this.body) this.body.fail(error);
		else this.reject(error);
	}

	private abort(reason: Error): void {
		this.stopped = {reason};
		this.controller?.abort(reason);
	}

	private forgetHangup(): void {
		this.forget?.();
	}
}
