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
 * What goes to the client, one piece per chunk the provider sent. Normally the provider's own bytes
 * in whole frames; when the gateway asked for the usage chunk on its own account (`hides`), the
 * frames are parsed here, the meter reads the same messages, and the frames the client may see of
 * one chunk leave together.
 */
async function* outgoing(upstream: UpstreamResponse, meter: StreamMeter, hides: Hides | undefined, scrub: OutboundStreamScrub): AsyncGenerator<Uint8Array | string> {
	if (hides) {
		const messages: SseMessage[] = [];
		const feed = new SseFeed(message => messages.push(message));
		const shown = (): string => {
			let text = '';
			for (const message of messages) {
				meter.read(message);
				if (!hides(message)) text += sseFrame(message.data, message.event);
			}
			messages.length = 0;
			return text === '' ? text : scrub.frame(text);
		};
		for await (const chunk of upstream.body) {
			feed.push(chunk as Uint8Array);
			const text = shown();
			if (text !== '') yield text;
		}
		feed.end();
		const text = shown();
		if (text !== '') yield text;
		return;
	}
	for await (const chunk of upstream.body) {
		meter.pushBytes(chunk as Uint8Array);
		const ready = scrub.push(chunk as Uint8Array);
		if (ready.length > 0) yield ready;
	}
	const rest = scrub.end();
	if (rest.length > 0) yield rest;
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
	const pieces = outgoing(upstream, meter, hides, new OutboundStreamScrub(scrubber, sse ? 'sse' : 'json-array'));
	let first: IteratorResult<Uint8Array | string>;
	try {
		first = await pieces.next();
	} catch (error) {
		return abort.aborted ? gone : failedBeforeAnswer(attempt, error, deadline);
	}
	deadline.clear();
	if (first.done) {
		const error = new GatewayError('upstream', 502, `Channel "${route.channel.name}" ended its stream before sending anything. Try again, or check it with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_empty_stream'});
		return failed(error, attempt.canFailOver, {kind: 'server', reason: 'an empty stream'});
	}
	const client = new ClientStream(attempt.reply);
	client.open(upstream.statusCode, scrubber.scrubHeaders(forwardedHeaders(upstream.headers)));
	let broken: GatewayError | null = null;
	let reading: StreamReading | null = null;
	try {
		await client.write(first.value);
		for (let next = await pieces.next(); !next.done; next = await pieces.next()) await client.write(next.value);
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
