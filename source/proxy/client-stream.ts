/**
 * Writing a streamed answer to the client: headers once, each chunk as it comes (never buffered),
 * waiting for the socket to drain when the client reads slowly, and stopping as soon as the client
 * is gone. It notes when the first byte left, for the request log.
 */
import type {FastifyReply} from 'fastify';
import {Hangup} from './hangup.js';

export class ClientStream {
	private readonly raw: FastifyReply['raw'];
	/** performance.now() of the first body write. */
	firstByteAt: number | null = null;
	/** Text written this turn, not yet handed to the response. */
	private text = '';
	/** Whether the socket is corked until the end of this turn. */
	private held = false;
	/** Set while the client has not read what the last turn sent. */
	private backpressure: Promise<void> | null = null;

	constructor(private readonly reply: FastifyReply) {
		this.raw = reply.raw;
	}

	get closed(): boolean {
		return this.raw.destroyed || this.raw.writableEnded;
	}

	/** Take the response over from Fastify and send the status line and headers. */
	open(status: number, headers: Record<string, string>): void {
		// Fastify's own headers first (set by hooks), then the stream's, then the provider's: one object, built once.
		const head: Record<string, string> = {};
		const set = this.reply.getHeaders();
		for (const name in set) {
			const value = set[name];
			if (value !== undefined && Object.hasOwn(set, name)) head[name] = String(value);
		}
		head['cache-control'] = 'no-cache';
		head['x-accel-buffering'] = 'no';
		for (const name in headers) if (Object.hasOwn(headers, name)) head[name] = headers[name]!;
		this.reply.hijack();
		// The head leaves with the first chunk, which is written in the same turn (one packet, not two).
		this.raw.writeHead(status, head);
	}

	/**
	 * One piece of the answer. What is written in one turn of the event loop leaves together, when the
	 * loop has handled its pending I/O: text (a translated stream's frames) is joined into one chunk of
	 * the response, and the socket is corked so the stream's end — which follows its last piece by a
	 * tick, as the provider's body ends — joins it. A 20-frame answer costs one system call with three
	 * buffers instead of sixty. Nothing waits longer than that turn; past 64 KiB text goes at once.
	 *
	 * A promise only when the caller must wait — the client reads slower than the answer comes — and
	 * nothing otherwise: a caller that awaits only a promise pays no turn of the microtask queue per
	 * piece (a slow stream's every chunk arrives alone).
	 */
	write(chunk: Uint8Array | string): Promise<void> | undefined {
		if (this.closed) return undefined;
		this.firstByteAt ??= performance.now();
		if (this.backpressure) return this.backpressure.then(() => this.write(chunk));
		this.holdTurn();
		if (typeof chunk === 'string') {
			this.text += chunk;
			return this.text.length >= maxHeldText ? (this.sendText() ?? undefined) : undefined;
		}
		const waiting = this.sendText();
		return waiting ? waiting.then(() => this.writeBytes(chunk)) : this.writeBytes(chunk);
	}

	private writeBytes(chunk: Uint8Array): Promise<void> | undefined {
		if (this.closed || this.raw.write(chunk)) return undefined;
		return drainedOrClosed(this.raw);
	}

	end(): void {
		if (this.closed) return;
		const text = this.takeText();
		if (text) this.raw.end(text);
		else this.raw.end();
	}

	private holdTurn(): void {
		if (this.held) return;
		this.held = true;
		this.raw.cork();
		setImmediate(this.releaseTurn);
	}

	private readonly releaseTurn = () => {
		this.held = false;
		// end() has sent everything already, and the socket may serve the connection's next request.
		if (this.closed) return;
		const waiting = this.sendText();
		if (waiting) {
			this.backpressure = waiting.then(() => {
				this.backpressure = null;
			});
		}
		this.raw.uncork();
	};

	/** Hands the held text to the response; a promise of the drain when the client reads slowly, else null. */
	private sendText(): Promise<void> | null {
		const text = this.closed ? '' : this.takeText();
		return text && !this.raw.write(text) ? drainedOrClosed(this.raw) : null;
	}

	private takeText(): string {
		const text = this.text;
		this.text = '';
		return text;
	}
}

/** Text held for the end of the turn beyond this is written at once. */
const maxHeldText = 64 * 1024;

/**
 * Resolves when the socket drains or closes, removing both listeners either way. (A race of two
 * `events.once` left the loser's 'close' and 'error' listeners behind, one pair per wait; when the
 * response closed, each leftover removed its partner from a list as long as the pile — quadratic:
 * 50 MB streamed in small deltas froze the event loop for over ten minutes before its last events.)
 */
function drainedOrClosed(raw: FastifyReply['raw']): Promise<void> {
	return new Promise(resolve => {
		const done = () => {
			raw.off('drain', done);
			raw.off('close', done);
			resolve();
		};
		raw.on('drain', done);
		raw.on('close', done);
	});
}

/** Abort the upstream call when the client goes away before its answer is complete. */
export function abortOnClientClose(reply: FastifyReply): Hangup {
	const hangup = new Hangup();
	reply.raw.once('close', () => {
		if (!reply.raw.writableFinished) hangup.abort(new Error('client disconnected'));
	});
	return hangup;
}

/** Upstream response headers worth passing on to the client. */
export function forwardedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const name in headers) {
		const value = headers[name];
		if (value === undefined || !Object.hasOwn(headers, name) || !isForwarded(name.toLowerCase())) continue;
		out[name === 'x-request-id' || name === 'request-id' ? `upstream-${name}` : name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return out;
}

/** content-type, retry-after, request ids, OpenAI's processing time and every rate-limit header (`lower`: the name in lower case). */
function isForwarded(lower: string): boolean {
	switch (lower) {
		case 'content-type':
		case 'retry-after':
		case 'request-id':
		case 'x-request-id':
		case 'openai-processing-ms':
			return true;
		default:
			return lower.startsWith('anthropic-ratelimit-') || lower.startsWith('x-ratelimit-');
	}
}
