/**
 * A channel of another wire: decode the request to the IR with the client's adapter, encode it with
 * the channel's, and do the same backwards for the answer, streamed event by event. The client's
 * response opens only with the first event, so a provider that fails, stalls or sends an error
 * first still fails over; errors inside the stream are scrubbed before the encoder renders them.
 */
import {GatewayError} from '../base/errors.js';
import type {IRStreamEvent, IRUsage} from '../base/ir.js';
import {parseSse} from '../formats/sse.js';
import {answered, failed, gone, scrubberOf, streamTimeoutsOf, type Attempt, type AttemptResult, type ChannelFault} from './attempt.js';
import {callChannel, failedBeforeAnswer, FirstByteDeadline} from './call-channel.js';
import {ClientStream, abortOnClientClose} from './client-stream.js';
import {countTokens} from './count-tokens.js';
import {toGatewayError} from './errors.js';
import {mergeUsage} from '../formats/stream-reader.js';
import {endStream} from './stream-end.js';
import type {Hangup} from './hangup.js';
import {dropRest, upstreamFailure, type UpstreamResponse} from './upstream.js';
import {mapUpstreamError, upstreamError} from './upstream-errors.js';

export async function translate(attempt: Attempt): Promise<AttemptResult> {
	const {inbound, outbound, call, route, reply, ctx} = attempt;
	if (call.operation === 'count_tokens') return countTokens(attempt);
	const ir = inbound.decodeRequest(attempt.body, {model: call.model, stream: call.stream}, ctx);
	const target = {model: route.upstreamModel, stream: call.stream, baseUrl: route.channel.baseUrl, defaultMaxTokens: attempt.services.options.defaultMaxTokens};
	const encoded = await outbound.encodeRequest(ir, target, ctx);
	const abort = abortOnClientClose(reply);
	const deadline = call.stream ? new FirstByteDeadline(streamTimeoutsOf(attempt).firstByteMs, abort) : undefined;
	try {
		const called = await callChannel(attempt, outbound, {method: 'POST', path: encoded.path, query: encoded.query, body: JSON.stringify(encoded.body), hangup: abort, deadline});
		if (!called.ok) return called.result;
		const upstream = called.response;
		if (upstream.statusCode >= 400) return await errorAnswer(attempt, upstream, abort, called.fault);
		if (!deadline) return await wholeAnswer(attempt, upstream, abort);
		return await streamAnswer(attempt, upstream, abort, deadline, ir.includeUsage === true, () => attempt.services.tokenizer.estimate(ir));
	} finally {
		deadline?.clear();
	}
}

async function errorAnswer(attempt: Attempt, upstream: UpstreamResponse, client: Hangup, fault: ChannelFault | null): Promise<AttemptResult> {
	let text: string;
	try {
		text = await upstream.body.text();
	} catch (error) {
		return client.aborted ? gone : failedBeforeAnswer(attempt, error);
	}
	return failed(upstreamError(attempt.route.channel, attempt.outbound, upstream.statusCode, text, upstream.headers), false, fault);
}

async function wholeAnswer(attempt: Attempt, upstream: UpstreamResponse, client: Hangup): Promise<AttemptResult> {
	const {inbound, outbound, call, route, reply, ctx} = attempt;
	let answer;
	try {
		answer = outbound.decodeResponse(JSON.parse(await upstream.body.text()), ctx);
	} catch (error) {
		if (client.aborted) return gone;
		if (!(error instanceof SyntaxError) && !(error instanceof GatewayError)) return failedBeforeAnswer(attempt, error);
		const unusable = new GatewayError('upstream', 502, `Channel "${route.channel.name}" answered HTTP ${upstream.statusCode} with a body the gateway cannot read (${error.message.slice(0, 200)}). Check it with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_invalid_response'});
		return failed(unusable, attempt.canFailOver, {kind: 'server', reason: 'an answer that cannot be read'});
	}
	const firstByteAt = performance.now();
	await reply.code(200).type('application/json').send(inbound.encodeResponse(answer, {model: call.model, request: attempt.body}, ctx));
	return answered(answer.usage, null, firstByteAt);
}

async function streamAnswer(attempt: Attempt, upstream: UpstreamResponse, abort: Hangup, deadline: FirstByteDeadline, includeUsage: boolean, estimateInputTokens: () => number): Promise<AttemptResult> {
	const {inbound, outbound, call, route, reply, ctx} = attempt;
	const events = outbound.decodeStream(parseSse(upstream.body, rest => void dropRest(rest, upstream.body)), ctx);
	let first: IteratorResult<IRStreamEvent>;
	try {
		first = await events.next();
	} catch (error) {
		return abort.aborted ? gone : failedBeforeAnswer(attempt, error, deadline);
	}
	deadline.clear();
	if (abort.aborted) return gone;
	if (deadline.expired) return failedBeforeAnswer(attempt, null, deadline);
	if (first.done || first.value.type === 'error') {
		const error = !first.done && first.value.type === 'error' ? mapUpstreamError(route.channel, first.value.error, undefined) : new GatewayError('upstream', 502, `Channel "${route.channel.name}" ended its stream before sending anything. Try again.`);
		return failed(error, attempt.canFailOver, {kind: 'server', reason: `a stream that failed at once: ${error.message.slice(0, 200)}`});
	}
	const out = new ClientStream(reply);
	out.open(200, {'content-type': inbound.streamContentType({sse: call.sse})});
	let usage: IRUsage | null = null;
	let upstreamError: string | null = null;
	const scrub = (text: string) => scrubberOf(attempt).scrub(text);
	const metered = new MeteredEvents(first.value, events, scrub, {usage: value => (usage = value), error: message => (upstreamError = message)});
	let broken: GatewayError | null = null;
	try {
		for await (const text of inbound.encodeStream(metered, {model: call.model, request: attempt.body, includeUsage, sse: call.sse, estimateInputTokens}, ctx)) await out.write(text);
	} catch (failure) {
		if (!abort.aborted) broken = toGatewayError(upstreamFailure(route.channel, failure));
	}
	if (abort.aborted) {
		out.end();
		return answered(usage, null, out.firstByteAt);
	}
	const end = await endStream(attempt, out, {broken, cutOff: false, upstreamError});
	return answered(usage, end.error, out.firstByteAt, end.fault);
}

/**
 * IR events passed through (`first`, already read, then the rest), noting usage and upstream stream
 * errors (scrubbed before any encoder sees them). An iterator object, not an async generator: one
 * promise per event instead of a generator's suspensions around each.
 */
class MeteredEvents implements AsyncIterableIterator<IRStreamEvent> {
	private usage: IRUsage | null = null;
	private first: IRStreamEvent | null;
	private done = false;

	constructor(
		first: IRStreamEvent,
		private readonly rest: AsyncIterator<IRStreamEvent>,
		private readonly scrub: (text: string) => string,
		private readonly on: {usage(usage: IRUsage): void; error(message: string): void},
	) {
		this.first = first;
	}

	[Symbol.asyncIterator](): AsyncIterableIterator<IRStreamEvent> {
		return this;
	}

	next(): Promise<IteratorResult<IRStreamEvent>> {
		if (this.done) return Promise.resolve(endOfEvents);
		const first = this.first;
		if (first) {
			this.first = null;
			return Promise.resolve(this.tap(first));
		}
		return this.rest.next().then(
			next => {
				if (!next.done) return this.tap(next.value);
				this.done = true;
				return endOfEvents;
			},
			(error: unknown) => {
				this.done = true;
				throw error;
			},
		);
	}

	/** A consumer that stops early (the client left) lets the decoder and the body reader behind it clean up. */
	async return(): Promise<IteratorResult<IRStreamEvent>> {
		if (!this.done) {
			this.done = true;
			await this.rest.return?.(undefined);
		}
		return endOfEvents;
	}

	private tap(event: IRStreamEvent): IteratorResult<IRStreamEvent> {
		if ((event.type === 'start' || event.type === 'usage') && event.usage) this.usage = mergeUsage(this.usage, event.usage);
		if (event.type === 'finish') this.usage = mergeUsage(this.usage, event.usage);
		if (this.usage) this.on.usage(this.usage);
		if (event.type !== 'error') return {done: false, value: event};
		const error = {...event.error, message: this.scrub(event.error.message)};
		this.on.error(error.message);
		return {done: false, value: {...event, error}};
	}
}

const endOfEvents: IteratorResult<IRStreamEvent> = {done: true, value: undefined};
