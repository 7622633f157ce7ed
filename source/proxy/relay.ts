/**
 * The one place where a request meets a channel: pick the channels for (key, model), then pass the
 * request through (inbound format == channel format) or translate it through the IR.
 *
 * Failover: when a channel fails before any byte reached the client (connection error, time-out,
 * 5xx, 429), the request moves to the next eligible channel — possibly of another format, then
 * translated. Never once streaming to the client has begun. Channels whose circuit is open are
 * skipped until their cooldown ends.
 */
import type {FastifyReply, FastifyRequest} from 'fastify';
import {GatewayError} from '../base/errors.js';
import type {InboundFormat} from '../base/ir.js';
import type {KeyRecord} from '../base/records.js';
import type {Exchange} from './exchange.js';
import type {ChannelHealth} from './health.js';
import type {KeyLimiter} from './limits.js';
import type {Registry} from './registry.js';
import {orderRoutes, passesThrough, resolveRoutes, type Route} from './routing.js';
import type {UpstreamTimeouts} from './upstream.js';
import {passthrough} from './passthrough.js';
import {translate} from './translate.js';
import {RetryableFailure} from './upstream-call.js';

export type RelayOptions = {
	readonly timeouts?: UpstreamTimeouts;
	/** max_tokens sent to Anthropic channels when the client gave none. */
	readonly defaultMaxTokens: number;
	/** Images fetched for Gemini channels: size limit and time-out. */
	readonly imageFetch: {readonly maxBytes: number; readonly timeoutMs: number};
};

export type RelayDeps = {
	readonly registry: Registry;
	readonly health: ChannelHealth;
	/** Per-key rate limits and budgets; checked once routing found a channel, before anything goes upstream. */
	readonly limiter: KeyLimiter;
	readonly relay: RelayOptions;
};

export type RelayRequest = {
	readonly inbound: InboundFormat;
	readonly operation: 'generate' | 'count_tokens';
	readonly model: string;
	readonly stream: boolean;
	/** Gemini streaming: the client asked for `alt=sse` (otherwise it gets a JSON array). */
	readonly sse: boolean;
	readonly body: Record<string, unknown>;
	readonly key: KeyRecord;
	readonly exchange: Exchange;
	readonly request: FastifyRequest;
	readonly reply: FastifyReply;
};

export type RelayContext = RelayRequest & {
	readonly route: Route;
	readonly options: RelayOptions;
	readonly health: ChannelHealth;
	/** Another channel could take this request if this one fails before answering. */
	readonly canFailOver: boolean;
};

export async function relay(deps: RelayDeps, request: RelayRequest): Promise<void> {
	const {exchange} = request;
	const routes = orderRoutes(resolveRoutes(deps.registry.snapshot, request.key, request.model, request.inbound), request.inbound, deps.health);
	// Token counting is free and frequent (Claude Code counts before each turn): only generations count.
	if (request.operation === 'generate') deps.limiter.admit(request.key);
	const tried: string[] = [];
	let failure: RetryableFailure | undefined;
	for (const [index, route] of routes.entries()) {
		if (!deps.health.admit(route.channel)) continue;
		tried.push(route.channel.name);
		exchange.channel = route.channel;
		exchange.upstreamModel = route.upstreamModel;
		exchange.outbound = route.channel.format;
		exchange.attempts = [...tried];
		if (tried.length > 1) exchange.eventType = 'failover';
		const context: RelayContext = {...request, route, options: deps.relay, health: deps.health, canFailOver: index < routes.length - 1};
		try {
			if (passesThrough(route.channel, request.inbound)) await passthrough(context);
			else await translate(context);
			return;
		} catch (error) {
			if (!(error instanceof RetryableFailure)) throw error;
			failure = error;
		}
	}
	if (failure) throw failure.error;
	const names = routes.map(route => `"${route.channel.name}"`).join(', ');
	throw new GatewayError('overloaded', 503, `Every channel serving "${request.model}" (${names}) is unavailable after repeated failures; the gateway retries them after a cooldown. Try again shortly or check them with \`gateway-tui channels test\`.`, {code: 'channels_unavailable', retryAfter: '30'});
}
