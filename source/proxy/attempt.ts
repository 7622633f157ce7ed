/**
 * One attempt at one channel, and what it returns: answered (with usage, an error the client got in
 * the answer, and when the first byte left), failed before anything reached the client (retryable
 * when another channel may take it), or gone (the client hung up first). `callChannel` makes the
 * upstream call and keeps the channel's health.
 */
import type {FastifyReply} from 'fastify';
import type {GatewayError} from '../base/errors.js';
import type {IRUsage, JsonObject} from '../base/ir.js';
import type {FormatAdapter, InboundAdapter, InboundCall, SignatureMemory, TranslationContext, WireRequest} from '../formats/adapter.js';
import {toGatewayError} from './errors.js';
import type {ChannelHealth} from './health.js';
import type {Route} from './routing.js';
import type {Tokenizer} from './tokenizer.js';
import type {ImageFetcher} from './translation-context.js';
import {callUpstream, type UpstreamCall, type UpstreamPools, type UpstreamResponse, type UpstreamTimeouts} from './upstream.js';
import {upstreamError} from './upstream-errors.js';

export type RelayOptions = {
	readonly timeouts?: UpstreamTimeouts;
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

export type AttemptResult =
	| {readonly kind: 'answered'; readonly usage: IRUsage | null; readonly error: string | null; readonly firstByteAt: number | null}
	| {readonly kind: 'failed'; readonly error: GatewayError; readonly retryable: boolean}
	| {readonly kind: 'gone'};

export const answered = (usage: IRUsage | null, error: string | null, firstByteAt: number | null): AttemptResult => ({kind: 'answered', usage, error, firstByteAt});

export const failed = (error: unknown, retryable = false): AttemptResult => ({kind: 'failed', error: toGatewayError(error), retryable});

/** Call the attempt's channel. An error answer in `wire` (the format spoken upstream) may become a retryable failure. */
export async function callChannel(attempt: Attempt, wire: Pick<InboundAdapter, 'decodeError'>, call: Omit<UpstreamCall, 'channel' | 'timeouts'>): Promise<{ok: true; response: UpstreamResponse} | {ok: false; result: AttemptResult}> {
	const {services, route, canFailOver} = attempt;
	const {channel} = route;
	let response: UpstreamResponse;
	try {
		response = await callUpstream(services.pools, {...call, channel, timeouts: services.options.timeouts});
	} catch (error) {
		if (call.signal?.aborted) {
			services.health.released(channel);
			return {ok: false, result: {kind: 'gone'}};
		}
		const failure = toGatewayError(error);
		services.health.failed(channel, failure.kind === 'timeout' ? 'timeout' : 'connect', failure.message);
		return {ok: false, result: failed(failure, canFailOver)};
	}
	const status = response.statusCode;
	if (status >= 500 || status === 429) {
		services.health.failed(channel, status === 429 ? 'rate_limit' : 'server', `HTTP ${status}`);
		if (canFailOver) return {ok: false, result: failed(upstreamError(channel, wire, status, await response.body.text(), response.headers), true)};
	} else {
		services.health.succeeded(channel);
	}
	return {ok: true, response};
}
