/**
 * A channel of another wire: decode the request to the IR with the client's adapter, encode it with
 * the channel's, and do the same backwards for the answer, streamed event by event. The client's
 * response opens only with the first event, so a provider that fails, stalls or sends an error
 * first still fails over; errors inside the stream are scrubbed before the encoder renders them.
 */
import {GatewayError} from '../base/errors.js';
import type {IRRequest, IRStreamEvent, IRUsage} from '../base/ir.js';
import {parseSse} from '../formats/sse.js';
import type {EncodeStreamOptions} from '../formats/adapter.js';
import type {StreamDecoder, StreamEncoder} from '../formats/stream-steps.js';
import {answered, failed, gone, goneWhileAnswered, scrubberOf, streamTimeoutsOf, type Attempt, type AttemptResult, type ChannelFault} from './attempt.js';
import {callChannel, failedBeforeAnswer, FirstByteDeadline} from './call-channel.js';
import {ClientStream, abortOnClientClose} from './client-stream.js';
import {StepPipe, type StepOutcome} from './translated-stream.js';
import {countTokens} from './count-tokens.js';
import type {Tokenizer} from './tokenizer.js';
import {toGatewayError} from './errors.js';
import {mergeUsage, type StreamEnding} from '../formats/stream-reader.js';
import {endStream} from './stream-end.js';
import {endedEarly, interruptedUsage} from './interrupted-usage.js';
import type {Hangup} from './hangup.js';
import {upstreamFailure, type UpstreamResponse} from './upstream.js';
import {errorFailure, mapUpstreamError} from './upstream-errors.js';

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
		const options: EncodeStreamOptions = {model: call.model, request: attempt.body, includeUsage: ir.includeUsage === true, sse: call.sse, estimateInputTokens: estimateOf(attempt.services.tokenizer, ir)};
		// Both sides as synchronous steps where both formats have them (stream-steps.ts); else their generators.
		if (outbound.streamDecoder && inbound.streamEncoder) return await stepStreamAnswer(attempt, ir, upstream, abort, deadline, outbound.streamDecoder(ctx), () => inbound.streamEncoder!(options, ctx));
		return await streamAnswer(attempt, ir, upstream, abort, deadline, options);
	} finally {
		deadline?.clear();
	}
}

/**
 * The input-token estimate a stream encoder may ask for, as a closure over the tokenizer and the IR
 * only: the encoder keeps it for the whole stream, and a closure written inside `translate` would
 * keep that function's whole scope — the attempt, the reply, the upstream call — as long. (While the
 * step encoders were object literals with getters, that scope went to V8's old generation with every
 * translated stream: see StepEncoder in formats/stream-steps.ts.)
 */
function estimateOf(tokenizer: Tokenizer, ir: IRRequest): () => number {
	return () => tokenizer.estimate(ir);
}

async function errorAnswer(attempt: Attempt, upstream: UpstreamResponse, client: Hangup, fault: ChannelFault | null): Promise<AttemptResult> {
	let text: string;
	try {
		text = await upstream.body.text();
	} catch (error) {
		return client.aborted ? gone : failedBeforeAnswer(attempt, error);
	}
	return errorFailure(attempt, attempt.outbound, upstream.statusCode, text, upstream.headers, fault);
}

async function wholeAnswer(attempt: Attempt, upstream: UpstreamResponse, client: Hangup): Promise<AttemptResult> {
	const {inbound, outbound, call, route, reply, ctx} = attempt;
	let answer;
	try {
		answer = outbound.decodeResponse(JSON.parse(await upstream.body.text()), ctx);
	} catch (error) {
		if (client.aborted) return goneWhileAnswered;
		if (!(error instanceof SyntaxError) && !(error instanceof GatewayError)) return failedBeforeAnswer(attempt, error);
		const unusable = new GatewayError('upstream', 502, `Channel "${route.channel.name}" answered HTTP ${upstream.statusCode} with a body the gateway cannot read (${error.message.slice(0, 200)}). Check it with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_invalid_response'});
		return failed(unusable, attempt.canFailOver, {kind: 'server', reason: 'an answer that cannot be read'});
	}
	const firstByteAt = performance.now();
	const options = {model: call.model, request: attempt.body};
	// As text: Fastify's serializer would be JSON.stringify of the same object.
	const text = inbound.encodeResponseText ? inbound.encodeResponseText(answer, options, ctx) : JSON.stringify(inbound.encodeResponse(answer, options, ctx));
	void reply.code(200).type('application/json; charset=utf-8').send(text);
	return answered(answer.usage, null, firstByteAt);
}

async function streamAnswer(attempt: Attempt, ir: IRRequest, upstream: UpstreamResponse, abort: Hangup, deadline: FirstByteDeadline, options: EncodeStreamOptions): Promise<AttemptResult> {
	const {inbound, outbound, call, route, reply, ctx} = attempt;
	const events = outbound.decodeStream(parseSse(upstream.body, () => upstream.body.release()), ctx);
	const read = await firstRead(attempt, abort, deadline, () => events.next());
	if ('result' in read) return read.result;
	const first = read.value;
	if (first.done || first.value.type === 'error') return failedAtOnce(attempt, first.done ? undefined : first.value);
	const out = new ClientStream(reply);
	out.open(200, {'content-type': inbound.streamContentType({sse: call.sse})});
	const meter = new EventMeter(attempt, ir);
	const metered = new MeteredEvents(first.value, events, meter);
	let broken: GatewayError | null = null;
	try {
		for await (const text of inbound.encodeStream(metered, options, ctx)) {
			const waiting = out.write(text);
			if (waiting) await waiting;
		}
	} catch (failure) {
		if (!abort.aborted) broken = toGatewayError(upstreamFailure(route.channel, failure));
	}
	return finishStream(attempt, out, abort, meter, broken);
}

/**
 * The same with the decoder and encoder as synchronous steps, driven by the provider's body (see
 * translated-stream.ts): each chunk is parsed, decoded, metered and encoded at once, and its frames
 * leave as one write.
 */
async function stepStreamAnswer(attempt: Attempt, ir: IRRequest, upstream: UpstreamResponse, abort: Hangup, deadline: FirstByteDeadline, decoder: StreamDecoder, encoderOf: () => StreamEncoder): Promise<AttemptResult> {
	const meter = new EventMeter(attempt, ir);
	const outcome = await new Promise<StepOutcome>(settle => upstream.body.consume(new StepPipe(attempt, upstream, abort, deadline, decoder, encoderOf, meter, settle)));
	switch (outcome.kind) {
		case 'before':
			return outcome.result;
		case 'failed-at-once':
			return failedAtOnce(attempt, outcome.first);
		case 'answered':
			return finishStream(attempt, outcome.out, abort, meter, outcome.broken);
	}
}

/**
 * The first read of a stream, under the first-byte deadline: what it gave, or the attempt's result
 * when it failed, the deadline passed or the client left meanwhile.
 */
async function firstRead<T>(attempt: Attempt, abort: Hangup, deadline: FirstByteDeadline, read: () => Promise<T>): Promise<{value: T} | {result: AttemptResult}> {
	let value: T;
	try {
		value = await read();
	} catch (error) {
		return {result: abort.aborted ? goneWhileAnswered : failedBeforeAnswer(attempt, error, deadline)};
	}
	deadline.clear();
	if (abort.aborted) return {result: goneWhileAnswered};
	if (deadline.expired) return {result: failedBeforeAnswer(attempt, null, deadline)};
	return {value};
}

/** The first thing a provider streamed was an error, or it streamed nothing: a failure that may fail over. */
function failedAtOnce(attempt: Attempt, first: IRStreamEvent | undefined): AttemptResult {
	const {route} = attempt;
	const error = first?.type === 'error' ? mapUpstreamError(route, first.error, undefined) : new GatewayError('upstream', 502, `Channel "${route.channel.name}" ended its stream before sending anything. Try again.`);
	return failed(error, attempt.canFailOver, {kind: 'server', reason: `a stream that failed at once: ${error.message.slice(0, 200)}`});
}

async function finishStream(attempt: Attempt, out: ClientStream, abort: Hangup, meter: EventMeter, broken: GatewayError | null): Promise<AttemptResult> {
	const usage = endedEarly(meter.ending, abort.aborted || broken !== null, meter.generatedChars) ? interruptedUsage(attempt, meter.usage, meter.generatedChars, () => meter.request) : meter.usage;
	if (abort.aborted) {
		out.end();
		return answered(usage, null, out.firstByteAt);
	}
	const end = await endStream(attempt, out, {broken, cutOff: false, upstreamError: meter.upstreamError});
	return answered(usage, end.error, out.firstByteAt, end.fault);
}

/**
 * Usage and upstream errors noted as the events go by, and the characters generated (for the
 * estimate of a stream that ends early: interrupted-usage.ts); errors scrubbed before any encoder sees them.
 */
class EventMeter {
	usage: IRUsage | null = null;
	upstreamError: string | null = null;
	generatedChars = 0;
	/** The provider's last event came: its usage is all it bills. */
	private finished = false;
	private readonly scrubber;

	constructor(
		attempt: Attempt,
		readonly request: IRRequest,
	) {
		this.scrubber = scrubberOf(attempt);
	}

	/** How the provider's events ended, as a passed-through stream's reader says it: its last event, its error, or neither. */
	get ending(): StreamEnding {
		return this.finished ? 'complete' : this.upstreamError !== null ? 'upstream-error' : 'cut-off';
	}

	tap(event: IRStreamEvent): IRStreamEvent {
		switch (event.type) {
			case 'text-delta':
			case 'reasoning-delta':
				this.generatedChars += event.text.length;
				return event;
			case 'tool-args-delta':
				this.generatedChars += event.json.length;
				return event;
			case 'start':
			case 'usage':
				if (event.usage) this.usage = mergeUsage(this.usage, event.usage);
				return event;
			case 'finish':
				this.finished = true;
				this.usage = mergeUsage(this.usage, event.usage);
				return event;
			case 'error':
				break;
			default:
				return event;
		}
		const error = {...event.error, message: this.scrubber.scrub(event.error.message)};
		this.upstreamError = error.message;
		return {...event, error};
	}
}

/**
 * IR events passed through (`first`, already read, then the rest), each through the meter. An
 * iterator object, not an async generator: one promise per event instead of a generator's
 * suspensions around each.
 */
class MeteredEvents implements AsyncIterableIterator<IRStreamEvent> {
	private first: IRStreamEvent | null;
	private done = false;

	constructor(
		first: IRStreamEvent,
		private readonly rest: AsyncIterator<IRStreamEvent>,
		private readonly meter: EventMeter,
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
			return Promise.resolve({done: false, value: this.meter.tap(first)});
		}
		return this.rest.next().then(
			next => {
				if (!next.done) return {done: false, value: this.meter.tap(next.value)};
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
}

const endOfEvents: IteratorResult<IRStreamEvent> = {done: true, value: undefined};
