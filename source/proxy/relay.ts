/**
 * The one place where a request meets a channel: pick the channel for (key, model), then pass the
 * request through (inbound format == channel format) or translate it through the IR.
 */
import type {FastifyReply, FastifyRequest} from 'fastify';
import type {Format} from '../formats/ir.js';
import type {KeyRecord} from '../store/records.js';
import type {Exchange} from './exchange.js';
import type {Registry} from './registry.js';
import {resolveRoutes, type Route} from './routing.js';
import type {UpstreamTimeouts} from './upstream.js';
import {passthrough} from './passthrough.js';
import {translate} from './translate.js';

export type RelayOptions = {
	readonly timeouts?: UpstreamTimeouts;
	/** max_tokens sent to Anthropic channels when the client gave none. */
	readonly defaultMaxTokens: number;
	/** Images fetched for Gemini channels: size limit and time-out. */
	readonly imageFetch: {readonly maxBytes: number; readonly timeoutMs: number};
};

export type RelayRequest = {
	readonly inbound: Format;
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

export type RelayContext = RelayRequest & {readonly route: Route; readonly options: RelayOptions};

export async function relay(registry: Registry, options: RelayOptions, request: RelayRequest): Promise<void> {
	const [route] = resolveRoutes(registry.snapshot, request.key, request.model, request.inbound);
	const {exchange} = request;
	exchange.channel = route!.channel;
	exchange.upstreamModel = route!.upstreamModel;
	exchange.outbound = route!.channel.format;
	const context: RelayContext = {...request, route: route!, options};
	if (route!.channel.format === request.inbound) await passthrough(context);
	else await translate(context);
}
