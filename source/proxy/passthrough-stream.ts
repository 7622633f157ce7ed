/**
 * A passed-through stream: the provider's bytes go to the client as they come (whole SSE frames),
 * a copy to the usage meter. The client's response opens only with the first frame, so a provider
 * that fails, stalls past the first-byte deadline or sends nothing still fails over.
 */
import {GatewayError} from '../base/errors.js';
import {SseFeed, sseFrame, type SseMessage} from '../formats/sse.js';
import type {StreamReading} from '../formats/stream-reader.js';
import {answered, failed, gone, scrubberOf, type Attempt, type AttemptResult} from './attempt.js';
import {failedBeforeAnswer, type FirstByteDeadline} from './call-channel.js';
import {ClientStream, forwardedHeaders} from './client-stream.js';
import {toGatewayError} from './errors.js';
import {StreamMeter} from './meter.js';
import {endStream} from './stream-end.js';
import {OutboundStreamScrub} from './stream-scrub.js';
import {upstreamFailure, type UpstreamResponse} from './upstream.js';
import {headerValue} from './upstream-errors.js';
import type {Hangup} from './hangup.js';

type Hides = (message: SseMessage) => boolean;

/**
 * What goes to the client, one piece per chunk the provider sent, worked out as the chunk arrives
 * (no generator between the provider's body and the client: a slow stream's every chunk comes
 * alone, and each turn of a generator and its promises cost as much as the chunk's own work).
 * Normally the provider's own bytes in whole frames; when the gateway asked for the usage chunk on
 * its own account (`hides`), the frames are parsed here, the meter reads the same messages, and the
 * frames the client may see of one chunk leave together. An empty piece: nothing to send yet.
 */
class Outgoing {
	private readonly messages: SseMessage[] = [];
	private readonly feed: SseFeed | null;

	constructor(
		private readonly meter: StreamMeter,
		private readonly hides: Hides | undefined,
		private readonly scrub: OutboundStreamScrub,
	) {
		this.feed = hides ? new SseFeed(message => this.messages.push(message)) : null;
	}

	push(chunk: Uint8Array): Uint8Array | string {
		if (this.feed) {
			this.feed.push(chunk);
			return this.shown();
		}
		this.meter.pushBytes(chunk);
		return this.scrub.push(chunk);
	}

	/** The provider's body ended: what was held back for a whole frame. */
	end(): Uint8Array | string {
		if (this.feed) {
			this.feed.end();
			return this.shown();
		}
		return this.scrub.end();
	}

	private shown(): string {
		let text = '';
		for (const message of this.messages) {
			this.meter.read(message);
			if (!this.hides!(message)) text += sseFrame(message.data, message.event);
		}
		this.messages.length = 0;
		return text === '' ? text : this.scrub.frame(text);
	}
}

export async function pipeStream(attempt: Attempt, upstream: UpstreamResponse, hides: Hides | undefined, abort: Hangup, deadline: FirstByteDeadline): Promise<AttemptResult> {
	const {inbound, route, ctx} = attempt;
	const contentType = headerValue(upstream.headers, 'content-type') ?? '';
	const sse = /text\/event-stream/i.test(contentType);
	if (!sse && !/json/i.test(contentType)) {
		await upstream.body.dump().catch(() => {});
		const error = new GatewayError('upstream', 502, `Channel "${route.channel.name}" answered a stream request with ${contentType || 'no content type'} instead of a stream. Check its base URL with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_invalid_response'});
		return failed(error, attempt.canFailOver, {kind: 'server', reason: 'an answer that is not a stream'});
	}
	const meter = new StreamMeter(inbound, hides ? 'messages' : sse ? 'sse' : 'json-array', ctx);
	const scrubber = scrubberOf(attempt);
	const outgoing = new Outgoing(meter, hides, new OutboundStreamScrub(scrubber, sse ? 'sse' : 'json-array'));
	const chunks = upstream.body[Symbol.asyncIterator]();
	let ended = false;
	/** The next piece to send ('' once the body has ended with nothing more); throws what the body throws. */
	const nextPiece = async (): Promise<Uint8Array | string> => {
		for (;;) {
			const next = await chunks.next();
			if (next.done) {
				ended = true;
				return outgoing.end();
			}
			const piece = outgoing.push(next.value);
			if (piece.length > 0) return piece;
		}
	};
	let first: Uint8Array | string;
	try {
		first = await nextPiece();
	} catch (error) {
		return abort.aborted ? gone : failedBeforeAnswer(attempt, error, deadline);
	}
	deadline.clear();
	if (first.length === 0) {
		const error = new GatewayError('upstream', 502, `Channel "${route.channel.name}" ended its stream before sending anything. Try again, or check it with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_empty_stream'});
		return failed(error, attempt.canFailOver, {kind: 'server', reason: 'an empty stream'});
	}
	const client = new ClientStream(attempt.reply);
	client.open(upstream.statusCode, scrubber.scrubHeaders(forwardedHeaders(upstream.headers)));
	let broken: GatewayError | null = null;
	let reading: StreamReading | null = null;
	try {
		// A piece at a time: the client's write is awaited only when it says to wait (the client reads slowly).
		for (let piece = first; ; piece = await nextPiece()) {
			const waiting = piece.length > 0 ? client.write(piece) : undefined;
			if (waiting) await waiting;
			if (ended) break;
		}
	} catch (failure) {
		if (!abort.aborted) broken = toGatewayError(upstreamFailure(route.channel, failure));
	} finally {
		reading = meter.end();
	}
	const usage = reading?.usage ?? null;
	if (abort.aborted) {
		client.end();
		return answered(usage, null, client.firstByteAt);
	}
	const end = await endStream(attempt, client, {broken, cutOff: reading?.ending === 'cut-off', upstreamError: reading?.ending === 'upstream-error' ? reading.error : null});
	return answered(usage, end.error, client.firstByteAt, end.fault);
}
