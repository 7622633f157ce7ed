/**
 * Writing a streamed answer to the client: headers once, each chunk as it comes (never buffered),
 * waiting for the socket to drain when the client reads slowly, and stopping as soon as the client
 * is gone. It notes when the first byte left, for the request log.
 */
import type {FastifyReply} from 'fastify';

export class ClientStream {
	private readonly raw: FastifyReply['raw'];
	/** performance.now() of the first body write. */
	firstByteAt: number | null = null;

	constructor(private readonly reply: FastifyReply) {
		this.raw = reply.raw;
	}

	get closed(): boolean {
		return this.raw.destroyed || this.raw.writableEnded;
	}

	/** Take the response over from Fastify and send the status line and headers. */
	open(status: number, headers: Record<string, string>): void {
		const fastifyHeaders: Record<string, string> = {};
		for (const [name, value] of Object.entries(this.reply.getHeaders())) if (value !== undefined) fastifyHeaders[name] = String(value);
		this.reply.hijack();
		// The head leaves with the first chunk, which is written in the same turn (one packet, not two).
		this.raw.writeHead(status, {...fastifyHeaders, 'cache-control': 'no-cache', 'x-accel-buffering': 'no', ...headers});
	}

	async write(chunk: Uint8Array | string): Promise<void> {
		if (this.closed) return;
		this.firstByteAt ??= performance.now();
		// What is written in one turn of the event loop leaves in one packet: the socket is corked until
		// the loop has handled its pending I/O, so a stream's end that follows its last chunk (the next
		// tick, as the provider's body ends) joins it instead of costing its own system call.
		if (!this.corked) {
			this.corked = true;
			this.raw.cork();
			setImmediate(this.uncork);
		}
		if (!this.raw.write(chunk)) await drainedOrClosed(this.raw);
	}

	private corked = false;
	private readonly uncork = () => {
		this.corked = false;
		// end() has flushed everything already, and the socket may serve the connection's next request.
		if (!this.raw.writableEnded && !this.raw.destroyed) this.raw.uncork();
	};

	end(): void {
		if (!this.closed) this.raw.end();
	}
}

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
export function abortOnClientClose(reply: FastifyReply): AbortController {
	const controller = new AbortController();
	reply.raw.once('close', () => {
		if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
	});
	return controller;
}

/** Upstream response headers worth passing on to the client. */
export function forwardedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value === undefined) continue;
		if (/^(content-type|retry-after|request-id|x-request-id|openai-processing-ms|anthropic-ratelimit-.*|x-ratelimit-.*)$/i.test(name)) {
			out[name === 'x-request-id' || name === 'request-id' ? `upstream-${name}` : name] = Array.isArray(value) ? value.join(', ') : value;
		}
	}
	return out;
}
