/**
 * One request's journey through the proxy: filled in as auth, routing and the relay learn things,
 * and emitted once as `request:finished` when the client's response closes (finished or aborted).
 */
import {randomUUID} from 'node:crypto';
import type {FastifyReply, FastifyRequest} from 'fastify';
import {eventTypeOf, type EventBus, type RequestEventType, type RequestFinished} from '../base/events.js';
import type {Format, InboundFormat, IRUsage} from '../base/ir.js';
import type {ChannelRecord, KeyRecord} from '../base/records.js';

export type Exchange = {
	readonly id: string;
	readonly started: number;
	readonly time: string;
	readonly inbound: InboundFormat;
	key: KeyRecord | null;
	model: string | null;
	upstreamModel: string | null;
	channel: ChannelRecord | null;
	outbound: Format | null;
	stream: boolean;
	firstByteAt: number | null;
	usage: IRUsage | null;
	error: string | null;
	readonly warnings: string[];
	/** Channel names tried, in order (more than one after a failover). */
	attempts: string[];
	eventType: RequestEventType | null;
};

declare module 'fastify' {
	interface FastifyRequest {
		exchange: Exchange | null;
	}
}

export function beginExchange(request: FastifyRequest, reply: FastifyReply, inbound: InboundFormat, events: EventBus): Exchange {
	const exchange: Exchange = {
		id: `req_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
		started: performance.now(),
		time: new Date().toISOString(),
		inbound,
		key: null,
		model: null,
		upstreamModel: null,
		channel: null,
		outbound: null,
		stream: false,
		firstByteAt: null,
		usage: null,
		error: null,
		warnings: [],
		attempts: [],
		eventType: null,
	};
	request.exchange = exchange;
	void reply.header('x-request-id', exchange.id);
	reply.raw.once('close', () => events.emit('request:finished', finishExchange(exchange, request, reply)));
	return exchange;
}

function finishExchange(exchange: Exchange, request: FastifyRequest, reply: FastifyReply): RequestFinished {
	const ended = performance.now();
	const complete = reply.raw.writableFinished;
	const status = reply.raw.statusCode;
	const event: RequestFinished = {
		id: exchange.id,
		time: exchange.time,
		method: request.method,
		path: request.url.split('?')[0] ?? request.url,
		keyId: exchange.key?.id ?? null,
		keyName: exchange.key?.name ?? null,
		model: exchange.model,
		upstreamModel: exchange.upstreamModel,
		channelId: exchange.channel?.id ?? null,
		channelName: exchange.channel?.name ?? null,
		inboundFormat: exchange.inbound,
		outboundFormat: exchange.outbound,
		stream: exchange.stream,
		status,
		outcome: !complete ? 'aborted' : status >= 400 || exchange.error ? 'error' : 'ok',
		latencyMs: Math.round(ended - exchange.started),
		ttfbMs: exchange.firstByteAt === null ? null : Math.round(exchange.firstByteAt - exchange.started),
		usage: exchange.usage,
		error: exchange.error ?? (complete ? null : 'client disconnected before the answer was complete'),
		warnings: exchange.warnings,
		attempts: exchange.attempts,
	};
	return {...event, eventType: exchange.eventType ?? eventTypeOf(event)};
}
