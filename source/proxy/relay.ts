/**
 * The one place where a request meets a channel: pick the channels for (key, model), then pass the
 * request through (the channel speaks the client's wire) or translate it through the IR.
 *
 * Failover: when a channel fails before any byte reached the client (connection error, time-out,
 * 5xx, 429), the request moves to the next eligible channel — possibly of another format, then
 * translated. Never once streaming to the client has begun. Channels whose circuit is open are
 * skipped until their cooldown ends.
 */
import type {FastifyReply} from 'fastify';
import {GatewayError} from '../base/errors.js';
import type {IRUsage, JsonObject} from '../base/ir.js';
import type {ChannelRecord, KeyRecord} from '../base/records.js';
import type {InboundAdapter, InboundCall, WireRequest} from '../formats/adapter.js';
import {adapters} from '../formats/index.js';
import {runAttempt, type Attempt, type AttemptResult, type AttemptServices} from './attempt.js';
import type {Settlement} from './exchange.js';
import type {KeyLimiter} from './limits.js';
import {embed, noEmbeddingsApi} from './embed.js';
import {decodedRequest, interruptedUsage} from './interrupted-usage.js';
import {passthrough} from './passthrough.js';
import type {Registry} from './registry.js';
import {conversationKey, type ConversationPins} from './conversation-pins.js';
import type {Route, RouteOrder} from './routing.js';
import {translationContext} from './translation-context.js';
import {translate} from './translate.js';

export type RelayDeps = AttemptServices & {
	readonly registry: Registry;
	/** Per-key rate limits and budgets; checked once routing found a channel, before anything goes upstream. */
	readonly limiter: KeyLimiter;
	readonly order: RouteOrder;
	readonly pins: ConversationPins;
};

export type RelayInput = {
	readonly inbound: InboundAdapter;
	readonly call: InboundCall;
	readonly body: JsonObject;
	readonly headers: WireRequest['headers'];
	readonly key: KeyRecord;
	readonly reply: FastifyReply;
};

/** Embeddings go only to channels whose format has an embeddings API. */
function servingOperation(routes: readonly Route[], call: InboundCall): readonly Route[] {
	if (call.operation !== 'embed') return routes;
	const able = routes.filter(route => adapters[route.channel.format].upstreamEmbeddings);
	if (able.length === 0) throw noEmbeddingsApi(call.model, routes.map(route => `channel "${route.channel.name}" (${route.channel.format})`));
	return able;
}

/** The channel that served the conversation's last turn goes first while it is healthy. */
function pinFirst(deps: RelayDeps, conversation: string, routes: readonly Route[]): readonly Route[] {
	const pinned = deps.pins.pinned(conversation);
	const index = pinned === undefined ? -1 : routes.findIndex(route => route.channel.id === pinned);
	if (index <= 0 || deps.health.stateOf(routes[index]!.channel) !== 'healthy') return routes;
	return [routes[index]!, ...routes.slice(0, index), ...routes.slice(index + 1)];
}

/** What happened: the settlement for the request log, and the error to answer with when nothing was sent. */
export type RelayResult = Settlement & {readonly failure: GatewayError | null};

export async function relay(deps: RelayDeps, input: RelayInput): Promise<RelayResult> {
	const {inbound, call, key} = input;
	const ordered = deps.order.order(servingOperation(deps.order.resolve(deps.registry.snapshot, key, call.model, inbound), call), inbound, deps.health);
	// A conversation is only worth recognising where there is a choice of channel.
	const conversation = ordered.length > 1 ? conversationKey(key.id, input.headers, input.body) : null;
	const routes = conversation ? pinFirst(deps, conversation, ordered) : ordered;
	// Token counting is free and frequent (Claude Code counts before each turn): only generations count.
	if (call.operation !== 'count_tokens') {
		// A promise only where limits are counted in a shared store: awaiting nothing still costs a turn.
		const admission = deps.limiter.admit(key);
		if (admission) await admission;
	}
	const tried: string[] = [];
	const warnings: string[] = [];
	const ctx = translationContext(warnings, deps.signatures, deps.images);
	let last: {route: Route; error: GatewayError} | undefined;
	for (let index = 0; index < routes.length; index++) {
		const route = routes[index]!;
		if (!deps.health.admit(route.channel)) continue;
		tried.push(route.channel.name);
		const attempt: Attempt = {services: deps, inbound, outbound: adapters[route.channel.format], call, body: input.body, headers: input.headers, route, canFailOver: index < routes.length - 1, reply: input.reply, ctx};
		const result: AttemptResult = await runAttempt(attempt, call.operation === 'embed' ? embed : inbound.affinity(route.channel) === 2 ? passthrough : translate);
		const attempts = tried.slice();
		switch (result.kind) {
			case 'answered': {
				const pin = conversation && call.operation === 'generate' && !result.error ? {id: conversation.slice(-16), state: deps.pins.served(conversation, route.channel.id)} : null;
				return {route, attempts, warnings, usage: result.usage, error: result.error, firstByteAt: result.firstByteAt, failure: null, conversation: pin};
			}
			case 'gone':
				return {route, attempts, warnings, usage: goneUsage(attempt, result.promptSent), error: null, firstByteAt: null, failure: null};
			case 'failed':
				last = {route, error: result.error};
				if (result.retryable) continue;
				return {route, attempts, warnings, usage: null, error: result.error.message, firstByteAt: null, failure: result.error};
		}
	}
	if (last) return {route: last.route, attempts: tried, warnings, usage: null, error: last.error.message, firstByteAt: null, failure: last.error};
	const channels = routes.map(route => route.channel);
	throw allUnavailable(call.model, channels, deps.health.nextTrialInMs(channels));
}

/**
 * What a request whose client left before its answer cost: nothing where the provider was not asked
 * or refused, else its prompt — the provider had it and was answering — estimated and marked so, as
 * for a stream that ends before any text (interrupted-usage.ts). Its output is not known: 0.
 */
function goneUsage(attempt: Attempt, promptSent: boolean): IRUsage | null {
	if (!promptSent || attempt.call.operation !== 'generate') return null;
	return interruptedUsage(attempt, null, 0, () => decodedRequest(attempt));
}

/** The 503 when every channel of the model is resting after failures: when the next trial may go, and what to check. */
function allUnavailable(model: string, channels: readonly ChannelRecord[], nextTrialMs: number): GatewayError {
	const seconds = Math.max(1, Math.ceil(nextTrialMs / 1000));
	const [one] = channels;
	const names = channels.map(channel => `"${channel.name}"`).join(', ');
	const them = channels.length === 1 ? 'it' : 'them';
	const check = channels.length === 1 && one ? `\`gateway-tui channels test ${one.name}\`` : '`gateway-tui channels test NAME`';
	return new GatewayError(
		'overloaded',
		503,
		`Every channel serving "${model}" (${names}) is unavailable after repeated failures. The gateway tries ${them} again in ${seconds} s, or at once when ${channels.length === 1 ? 'its' : 'their'} settings are changed; check ${them} with ${check}.`,
		{code: 'channels_unavailable', retryAfter: String(seconds)},
	);
}
