/**
 * A passed-through stream: the provider's bytes go to the client as they come (whole SSE frames),
 * a copy to the usage meter. The client's response opens only with the first frame, so a provider
 * that fails, stalls past the first-byte deadline or sends nothing still fails over.
 */
import {GatewayError} from '../base/errors.js';
import {SseFeed} from '../formats/sse.js';
import type {StreamReading} from '../formats/stream-reader.js';
import type {StreamHiding} from '../formats/adapter.js';
import {answered, failed, goneWhileAnswered, scrubberOf, type Attempt, type AttemptResult} from './attempt.js';
import {failedBeforeAnswer, type FirstByteDeadline} from './call-channel.js';
import {ClientStream, forwardedHeaders} from './client-stream.js';
import {toGatewayError} from './errors.js';
import {StreamMeter, type StreamFraming} from './meter.js';
import {endStream} from './stream-end.js';
import {decodedRequest, endedEarly, interruptedUsage} from './interrupted-usage.js';
import {OutboundStreamScrub, lastFrameEnd, nextFrameEnd, onlyData} from './stream-scrub.js';
import {startsWithByteOrderMark} from '../base/utf8-chunks.js';
import {upstreamFailure, type UpstreamResponse} from './upstream.js';
import type {BodySink} from './upstream-body.js';
import {headerValue} from './upstream-errors.js';
import type {Hangup} from './hangup.js';

/**
 * What goes to the client, one piece per chunk the provider sent, worked out as the chunk arrives
 * (no generator between the provider's body and the client: a slow stream's every chunk comes
 * alone, and each turn of a generator and its promises cost as much as the chunk's own work): the
 * provider's own bytes in whole frames, the meter reading them too. When the gateway asked for a frame
 * on its own account (`hiding`: the usage chunk of an OpenAI client that did not ask for usage),
 * only the frames its pattern points at are parsed, and those it hides are cut out; the other bytes
 * go as they came. An empty piece: nothing to send yet.
 *
 * An SSE stream's frames are decoded once, here, as whole frames leave the scrub: the meter reads
 * that text, the scrub looks for an error in it, and the hiding pattern is searched in it — where
 * every byte is one character (ASCII, most pieces), its indexes are the bytes'. (Each used to decode
 * or copy the bytes for itself: three passes over every piece.) A JSON-array stream (Gemini without
 * `alt=sse`) is metered as its bytes come and nothing of it is hidden.
 */
export class Outgoing {
	/** The frames `hiding` points at, parsed: made at the first such frame, one per stream. */
	private frames: HiddenFrames | null = null;
	/** Whether the first piece has been read (a byte-order mark can only open the stream). */
	private started = false;

	constructor(
		private readonly meter: StreamMeter,
		private readonly framing: StreamFraming,
		private readonly hiding: StreamHiding | undefined,
		private readonly scrub: OutboundStreamScrub,
	) {}

	push(chunk: Uint8Array): Uint8Array | string {
		if (this.framing === 'json-array') {
			this.meter.push(chunk);
			return this.scrub.push(chunk);
		}
		return this.readFrames(this.scrub.take(chunk));
	}

	/** The provider's body ended: what was held back for a whole frame. */
	end(): Uint8Array | string {
		return this.framing === 'json-array' ? this.scrub.end() : this.readFrames(this.scrub.takeRest());
	}

	/** Whole SSE frames, as the provider sent them: read, scrubbed, and without those the client must not see. */
	private readFrames(ready: Buffer): Uint8Array | string {
		if (ready.length === 0) return ready;
		const text = ready.toString('utf8');
		// A byte-order mark can only open the stream; the SSE parser would read it as part of the first field's name.
		this.meter.push(this.started || !startsWithByteOrderMark(ready) ? text : text.slice(1));
		this.started = true;
		const piece = this.scrub.clean(ready, text);
		const hiding = this.hiding;
		if (!hiding) return piece;
		// The text searched: the piece's own where its indexes are the bytes' — a string, or bytes that
		// each decoded to one character (ASCII: most pieces; UTF-8 never makes fewer bytes than
		// characters) — else the bytes read as Latin-1, a character a byte (the pattern and the separators are ASCII).
		const aligned = typeof piece === 'string' ? piece : text.length === ready.length ? text : null;
		const searched = aligned ?? ready.toString('latin1');
		const match = searched.search(hiding.near);
		if (match === -1) return piece;
		if (typeof piece === 'string') {
			const slice = (from: number, to: number) => piece.slice(from, to);
			return this.withoutHidden(hiding, piece, match, piece, slice, slice, parts => parts.join(''));
		}
		const slice = (from: number, to: number) => ready.subarray(from, to);
		return this.withoutHidden(hiding, ready, match, searched, aligned === null ? slice : (from, to) => searched.slice(from, to), slice, parts => Buffer.concat(parts));
	}

	/**
	 * `piece` without the frames `hiding` hides: from `first`, each frame that `hiding.near` matches in
	 * `text` (the piece's text, index for index) is parsed alone — `frame`: those frames as the parser
	 * reads them, text or bytes — and cut out when its message is hidden.
	 */
	private withoutHidden<T extends Uint8Array | string>(
		hiding: StreamHiding,
		piece: T,
		first: number,
		text: string,
		frame: (from: number, to: number) => Uint8Array | string,
		slice: (from: number, to: number) => T,
		join: (parts: T[]) => T,
	): T {
		let match = first;
		const frames = (this.frames ??= new HiddenFrames(hiding));
		const kept: T[] = [];
		let copied = 0;
		while (match !== -1) {
			const start = lastFrameEnd(text, match);
			const end = nextFrameEnd(text, match);
			if (frames.allHidden(frame(start, end))) {
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
 * Whether a span of whole frames is all hidden: one frame, one message (stream-scrub.ts names every
 * blank line the spec does); a span the parser reads no message from (comments) is kept, and one it
 * would read several from is cut only if every message in it is hidden.
 * A span that is one `data:` line and its blank line, ended by LF (what providers send), is read as
 * it is; any other goes through an SSE parser, one for the stream, made the first time one is
 * needed, fed one span at a time (each ends with its frames, so nothing of one is left over for the next).
 */
class HiddenFrames {
	private messages = 0;
	private hidden = 0;
	private feed: SseFeed | null = null;

	constructor(private readonly hiding: StreamHiding) {}

	allHidden(span: Uint8Array | string): boolean {
		const data = typeof span === 'string' ? onlyData(span) : undefined;
		if (data !== undefined) return this.hiding.test({data});
		this.messages = 0;
		this.hidden = 0;
		const feed = (this.feed ??= new SseFeed(message => {
			this.messages++;
			if (this.hiding.test(message)) this.hidden++;
		}));
		feed.push(span);
		feed.end();
		return this.messages > 0 && this.hidden === this.messages;
	}

	/** Where the pattern next matches in `text` at or after `from`, or -1 (a slice of a flat string is not a copy). */
	nextMatch(text: string, from: number): number {
		if (from >= text.length) return -1;
		const at = text.slice(from).search(this.hiding.near);
		return at === -1 ? -1 : from + at;
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
	const framing = sse ? 'sse' : 'json-array';
	const meter = new StreamMeter(inbound, framing, ctx);
	const outgoing = new Outgoing(meter, framing, sse ? hiding : undefined, new OutboundStreamScrub(scrubberOf(attempt), framing));
	let pipe: Pipe | undefined;
	const {client, failure} = await new Promise<Outcome>(settle => {
		pipe = new Pipe(attempt, upstream, outgoing, deadline, settle);
		upstream.body.consume(pipe);
	});
	if (!client) {
		// Nothing reached the client: the attempt failed before its answer, and may fail over.
		if (failure) return abort.aborted ? goneWhileAnswered : failedBeforeAnswer(attempt, failure.error, deadline);
		const error = new GatewayError('upstream', 502, `Channel "${route.channel.name}" ended its stream before sending anything. Try again, or check it with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_empty_stream'});
		return failed(error, attempt.canFailOver, {kind: 'server', reason: 'an empty stream'});
	}
	const reading: StreamReading | null = meter.end();
	const usage = reading && endedEarly(reading.ending, abort.aborted || failure !== null, reading.generatedChars) ? interruptedUsage(attempt, reading.usage, reading.generatedChars, () => decodedRequest(attempt)) : (reading?.usage ?? null);
	if (abort.aborted) {
		client.end();
		return answered(usage, null, client.firstByteAt);
	}
	const broken = failure ? toGatewayError(upstreamFailure(route.channel, failure.error)) : null;
	await pipe!.drained();
	const end = await endStream(attempt, client, {broken, cutOff: reading?.ending === 'cut-off', upstreamError: reading?.ending === 'upstream-error' ? reading.error : null});
	return answered(usage, end.error, client.firstByteAt, end.fault);
}
