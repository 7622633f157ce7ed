/**
 * One attempt at one channel, and what it returns: answered (with usage, an error the client got in
 * the answer, and when the first byte left), failed before anything reached the client (retryable
 * when another channel may take it), or gone (the client hung up first). Each result says whether
 * the channel was at fault; `runAttempt` turns that into the channel's health, once per attempt —
 * so a stream that breaks after its headers counts against the channel like a refused connection.
 */
import type {FastifyReply} from 'fastify';
import type {GatewayError} from '../base/errors.js';
import type {IRUsage, JsonObject} from '../base/ir.js';
import type {Scrubber} from '../base/secrets.js';
import type {FormatAdapter, InboundAdapter, InboundCall, SignatureMemory, TranslationContext, WireRequest} from '../formats/adapter.js';
import {toGatewayError} from './errors.js';
import type {ChannelHealth, FailureKind} from './health.js';
import type {Route} from './routing.js';
import type {Tokenizer} from './tokenizer.js';
import type {ImageFetcher} from './translation-context.js';
import type {UpstreamPools, UpstreamTimeouts} from './upstream.js';

export type StreamTimeouts = {
	/** Longest wait for the first byte of a streamed answer; past it the request fails over. */
	readonly firstByteMs: number;
	/** Longest silence between two chunks of a streamed answer. */
	readonly idleMs: number;
};

/** A 429 or 503 with a short retry-after is retried on the same channel when no other can serve. */
export type RetryPolicy = {readonly maxWaitMs: number; readonly maxRetries: number};

export const defaultStreamTimeouts: StreamTimeouts = {firstByteMs: 60_000, idleMs: 120_000};
export const defaultRetryPolicy: RetryPolicy = {maxWaitMs: 5_000, maxRetries: 2};

export type RelayOptions = {
	/** Non-streaming calls (and the connect time-out of every call). */
	readonly timeouts?: UpstreamTimeouts;
	/** Streaming calls, unless the channel sets its own. */
	readonly streamTimeouts?: StreamTimeouts;
	readonly retry?: RetryPolicy;
	/** max_tokens sent to Anthropic channels when the client gave none. */
	readonly defaultMaxTokens: number;
	/** Images fetched for Gemini channels: size limit and time-out. */
	readonly imageFetch: {readonly maxBytes: number; readonly timeoutMs: number};
};

/** What attempts use of their gateway. */
export type AttemptServices = {
	readonly pools: UpstreamPools;
	readonly health: ChannelHealth;
	readonly tokenizer: Tokenizer;
	readonly signatures: SignatureMemory;
	readonly images: ImageFetcher;
	readonly options: RelayOptions;
	/** For the scrubber of the current snapshot: every error frame leaves through it. */
	readonly registry: {readonly snapshot: {readonly scrubber: Scrubber}};
};

export type Attempt = {
	readonly services: AttemptServices;
	readonly inbound: InboundAdapter;
	/** The adapter of the channel's format. */
	readonly outbound: FormatAdapter;
	readonly call: InboundCall;
	readonly body: JsonObject;
	readonly headers: WireRequest['headers'];
	readonly route: Route;
	/** Another channel could take this request if this one fails before answering. */
	readonly canFailOver: boolean;
	readonly reply: FastifyReply;
	readonly ctx: TranslationContext;
};

/** The channel failed (counted by its circuit breaker), and why, for its health reason. */
export type ChannelFault = {readonly kind: FailureKind; readonly reason: string};

export type AttemptResult =
	| {readonly kind: 'answered'; readonly usage: IRUsage | null; readonly error: string | null; readonly firstByteAt: number | null; readonly fault: ChannelFault | null}
	| {readonly kind: 'failed'; readonly error: GatewayError; readonly retryable: boolean; readonly fault: ChannelFault | null}
	/** `promptSent`: the provider had the request and was answering it (not refusing it) when the client left. */
	| {readonly kind: 'gone'; readonly promptSent: boolean};

export const answered = (usage: IRUsage | null, error: string | null, firstByteAt: number | null, fault: ChannelFault | null = null): AttemptResult => ({kind: 'answered', usage, error, firstByteAt, fault});

export const failed = (error: unknown, retryable = false, fault: ChannelFault | null = null): AttemptResult => ({kind: 'failed', error: toGatewayError(error), retryable, fault});

/** The client left before the provider was asked, or while it answered with an error: nothing it bills. */
export const gone: AttemptResult = {kind: 'gone', promptSent: false};

/**
 * The client left while the provider answered (the request sent, no error back, nothing passed on
 * yet): the provider bills the prompt at least, so the relay records it estimated.
 */
export const goneWhileAnswered: AttemptResult = {kind: 'gone', promptSent: true};

/** The fault of a transport failure (a GatewayError from upstreamFailure); none for the gateway's own bug. */
export function transportFault(error: GatewayError): ChannelFault | null {
	if (error.kind === 'internal') return null;
	return {kind: error.kind === 'timeout' ? 'timeout' : 'connect', reason: error.message};
}

/**
 * Run an attempt and keep the channel's health: a fault counts against it, a clean answer for it,
 * and an attempt that never reached the channel (or whose client left) releases a half-open trial.
 */
export async function runAttempt(attempt: Attempt, run: (attempt: Attempt) => Promise<AttemptResult>): Promise<AttemptResult> {
	const {health} = attempt.services;
	const {channel} = attempt.route;
	let result: AttemptResult;
	try {
		result = await run(attempt);
	} catch (error) {
		result = failed(error);
	}
	if (result.kind !== 'gone' && result.fault) health.failed(channel, result.fault.kind, result.fault.reason);
	else if (result.kind === 'answered') health.succeeded(channel);
	else health.released(channel);
	return result;
}

/** The scrubber of the current snapshot, for this attempt's outbound error strings. */
export function scrubberOf(attempt: Attempt): Scrubber {
	return attempt.services.registry.snapshot.scrubber;
}

/** The stream time-outs of the attempt's channel. */
export function streamTimeoutsOf(attempt: Attempt): StreamTimeouts {
	const defaults = attempt.services.options.streamTimeouts ?? defaultStreamTimeouts;
	const {channel} = attempt.route;
	return {firstByteMs: channel.firstByteTimeoutMs ?? defaults.firstByteMs, idleMs: channel.streamIdleTimeoutMs ?? defaults.idleMs};
}
