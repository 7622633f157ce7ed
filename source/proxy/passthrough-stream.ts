/**
 * A passed-through stream: the provider's bytes go to the client as they come (whole SSE frames),
 * a copy to the usage meter. The client's response opens only with the first frame, so a provider
 * that fails, stalls past the first-byte deadline or sends nothing still fails over.
 */
import {GatewayError} from '../base/errors.js';
import {SseFeed} from '../formats/sse.js';
import type {StreamReading} from '../formats/stream-reader.js';
import type {StreamHiding} from '../formats/adapter.js';
import {answered, failed, gone, scrubberOf, type Attempt, type AttemptResult} from './attempt.js';
import {failedBeforeAnswer, type FirstByteDeadline} from './call-channel.js';
import {ClientStream, forwardedHeaders} from './client-stream.js';
import {toGatewayError} from './errors.js';
import {StreamMeter} from './meter.js';
import {endStream} from './stream-end.js';
import {OutboundStreamScrub, lastFrameEnd, nextFrameEnd} from './stream-scrub.js';
import {upstreamFailure, type UpstreamResponse} from './upstream.js';
import type {BodySink} from './upstream-body.js';
import {headerValue} from './upstream-errors.js';
import type {Hangup} from './hangup.js';
import {asBuffer} from '../base/bytes.js';

/**
 * What goes to the client, one piece per chunk the provider sent, worked out as the chunk arrives
 * (no generator between the provider's body and the client: a slow stream's every chunk comes
 * alone, and each turn of a generator and its promises cost as much as the chunk's own work): the
 * provider's own bytes in whole frames, the meter reading a copy. When the gateway asked for a frame
 * on its own account (`hiding`: the usage chunk of an OpenAI client that did not ask for usage),
 * only the frames its pattern points at are parsed, and those it hides are cut out; the other bytes
 * go as they came. An empty piece: nothing to send yet.
 */
export class Outgoing {
	/** The frames `hiding` points at, parsed: made at the first such frame, one per stream. */
	private frames: HiddenFrames | null = null;

	constructor(
		private readonly meter: StreamMeter,
		private readonly hiding: StreamHiding | undefined,
		private readonly scrub: OutboundStreamScrub,
	) {}

	push(chunk: Uint8Array): Uint8Array | string {
		this.meter.pushBytes(chunk);
		return this.shown(this.scrub.push(chunk));
	}

	/** The provider's body ended: what was held back for a whole frame. */
	end(): Uint8Array | string {
		return this.shown(this.scrub.end());
	}

	/** Whole frames (scrubbed already), without those the client must not see. */
	private shown(piece: Uint8Array | string): Uint8Array | string {
		const hiding = this.hiding;
		if (!hiding || piece.length === 0) return piece;
		if (typeof piece === 'string') return this.withoutHidden(hiding, piece, piece, (from, to) => piece.slice(from, to), parts => parts.join(''));
		const bytes = asBuffer(piece);
		// Latin-1 is a character a byte: the text's indexes are the bytes' (the pattern and the separators are ASCII).
		return this.withoutHidden(hiding, bytes, bytes.toString('latin1'), (from, to) => bytes.subarray(from, to), parts => Buffer.concat(parts));
	}

	/**
	 * `piece` without the frames `hiding` hides: each frame that `hiding.near` matches in `text` (the
	 * piece's text, index for index) is parsed alone, and cut out when its message is hidden. A piece
	 * nothing matches is returned as it is.
	 */
	private withoutHidden<T extends Uint8Array | string>(hiding: StreamHiding, piece: T, text: string, slice: (from: number, to: number) => T, join: (parts: T[]) => T): T {
		let match = text.search(hiding.near);
		if (match === -1) return piece;
		const frames = (this.frames ??= new HiddenFrames(hiding));
		const kept: T[] = [];
		let copied = 0;
		while (match !== -1) {
			const start = lastFrameEnd(text, match);
			const end = nextFrameEnd(text, match);
			if (frames.allHidden(slice(start, end))) {
				kept.push(slice(copied, start));
				copied = end;
			}
			match = frames.nextMatch(text, end);
		}
		if (copied === 0) return piece;
		kept.push(slice(copied, text.length));
		return join(kept);
	}
}

/**
 * Whether a span of whole frames is all hidden: one message, normally; a span of two (frames ended
 * by a blank line stream-scrub.ts does not name, `\n\r\n`) is cut only if every message in it is.
 * One parser for the stream, fed one span at a time (each ends with its frames, so nothing of one
 * is left over for the next), and the pattern made global, to search on from an index without
 * slicing the text.
 */
class HiddenFrames {
	private messages = 0;
	private hidden = 0;
	private readonly feed: SseFeed;
	private readonly near: RegExp;

	constructor(hiding: StreamHiding) {
		this.feed = new SseFeed(message => {
			this.messages++;
			if (hiding.test(message)) this.hidden++;
		});
		this.near = new RegExp(hiding.near.source, hiding.near.flags.includes('g') ? hiding.near.flags : `${hiding.near.flags}g`);
	}

	allHidden(span: Uint8Array | string): boolean {
		this.messages = 0;
		this.hidden = 0;
		this.feed.push(span);
		this.feed.end();
		return this.messages > 0 && this.hidden === this.messages;
	}

	/** Where the pattern next matches in `text` at or after `from`, or -1. */
	nextMatch(text: string, from: number): number {
		this.near.lastIndex = from;
		return this.near.exec(text)?.index ?? -1;
	}
}

/** How the provider's body ended, as the pipe saw it. */
type Outcome = {readonly client: ClientStream | null; readonly failure: {readonly error: unknown} | null};

/**
 * The provider's body, piece by piece to the client, driven by the body's own calls (no promise per
 * chunk). The client's response opens with the first piece; a client that reads slowly pauses the
 * body until its socket drains. Settles once, when the body has ended or failed.
 */
class Pipe implements BodySink {
	private client: ClientStream | null = null;
	/** The last write the client has not taken yet. */
	private waiting: Promise<void> | undefined;
	private settled = false;

	constructor(
		private readonly attempt: Attempt,
		private readonly upstream: UpstreamResponse,
		private readonly outgoing: Outgoing,
		private readonly deadline: FirstByteDeadline,
		private readonly settle: (outcome: Outcome) => void,
	) {}

	data(chunk: Buffer): void {
		let piece: Uint8Array | string;
		try {
			piece = this.outgoing.push(chunk);
		} catch (error) {
			this.upstream.body.destroy(error);
			return;
		}
		if (piece.length > 0) this.send(piece);
	}

	end(): void {
		let rest: Uint8Array | string;
		try {
			rest = this.outgoing.end();
		} catch (error) {
			this.fail(error);
			return;
		}
		if (rest.length > 0) this.send(rest);
		this.done(null);
	}

	fail(error: unknown): void {
		this.done({error});
	}

	/** Resolves once the client has taken every write (or is gone). */
	drained(): Promise<void> {
		return this.waiting ?? Promise.resolve();
	}

	private send(piece: Uint8Array | string): void {
		if (!this.client) {
			this.deadline.clear();
			this.client = new ClientStream(this.attempt.reply);
			this.client.open(this.upstream.statusCode, scrubberOf(this.attempt).scrubHeaders(forwardedHeaders(this.upstream.headers)));
		}
		const waiting = this.client.write(piece);
		if (!waiting) return;
		// The client reads slower than the answer comes: hold the provider's body until it has caught up.
		const body = this.upstream.body;
		body.pause();
		const resumed = waiting.then(() => {
			if (this.waiting === resumed) this.waiting = undefined;
			body.resume();
		});
		this.waiting = resumed;
	}

	private done(failure: Outcome['failure']): void {
		if (this.settled) return;
		this.settled = true;
		this.settle({client: this.client, failure});
	}
}

export async function pipeStream(attempt: Attempt, upstream: UpstreamResponse, hiding: StreamHiding | undefined, abort: Hangup, deadline: FirstByteDeadline): Promise<AttemptResult> {
	const {inbound, route, ctx} = attempt;
	const contentType = headerValue(upstream.headers, 'content-type') ?? '';
	const sse = /text\/event-stream/i.test(contentType);
	if (!sse && !/json/i.test(contentType)) {
		await upstream.body.dump().catch(() => {});
		const error = new GatewayError('upstream', 502, `Channel "${route.channel.name}" answered a stream request with ${contentType || 'no content type'} instead of a stream. Check its base URL with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_invalid_response'});
		return failed(error, attempt.canFailOver, {kind: 'server', reason: 'an answer that is not a stream'});
	}
	const meter = new StreamMeter(inbound, sse ? 'sse' : 'json-array', ctx);
	const outgoing = new Outgoing(meter, sse ? hiding : undefined, new OutboundStreamScrub(scrubberOf(attempt), sse ? 'sse' : 'json-array'));
	let pipe: Pipe | undefined;
	const {client, failure} = await new Promise<Outcome>(settle => {
		pipe = new Pipe(attempt, upstream, outgoing, deadline, settle);
		upstream.body.consume(pipe);
	});
	if (!client) {
		// Nothing reached the client: the attempt failed before its answer, and may fail over.
		if (failure) return abort.aborted ? gone : failedBeforeAnswer(attempt, failure.error, deadline);
		const error = new GatewayError('upstream', 502, `Channel "${route.channel.name}" ended its stream before sending anything. Try again, or check it with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_empty_stream'});
		return failed(error, attempt.canFailOver, {kind: 'server', reason: 'an empty stream'});
	}
	const reading: StreamReading | null = meter.end();
	const usage = reading?.usage ?? null;
	if (abort.aborted) {
		client.end();
		return answered(usage, null, client.firstByteAt);
	}
	const broken = failure ? toGatewayError(upstreamFailure(route.channel, failure.error)) : null;
	await pipe!.drained();
	const end = await endStream(attempt, client, {broken, cutOff: reading?.ending === 'cut-off', upstreamError: reading?.ending === 'upstream-error' ? reading.error : null});
	return answered(usage, end.error, client.firstByteAt, end.fault);
}
