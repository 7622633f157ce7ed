/**
 * One request's journey through the proxy, written in three steps by one function each: `begin`
 * when it arrives, `identify` once the key and the call are known, `settle` with the relay's result
 * (or the error that stopped it). When the client's response closes (finished or aborted) it is
 * emitted once as `request:finished`: priced, with its event type.
 */
import {randomUUID} from 'node:crypto';
import type {FastifyReply, FastifyRequest} from 'fastify';
import {eventTypeOf, type EventBus, type RequestFinished} from '../base/events.js';
import type {IRUsage} from '../base/ir.js';
import {costOf, priceOf} from '../base/prices.js';
import type {KeyRecord} from '../base/records.js';
import type {InboundAdapter, InboundCall} from '../formats/adapter.js';
import type {PinState} from './conversation-pins.js';
import type {Scrubber} from '../base/secrets.js';
import type {Route} from './routing.js';

/** What an exchange reports to: the event bus, and the scrubber of the current registry snapshot. */
export type ExchangeDeps = {readonly events: EventBus; readonly registry: {readonly snapshot: {readonly scrubber: Scrubber}}};

/** What the relay learnt: the channel that answered (or failed last), those tried, and what came back. */
export type Settlement = {
	readonly route: Route | null;
	readonly attempts: readonly string[];
	readonly usage: IRUsage | null;
	readonly error: string | null;
	/** performance.now() when the first byte went to the client. */
	readonly firstByteAt: number | null;
	readonly warnings: readonly string[];
	/** The conversation this turn belongs to, and whether it stayed on its channel. */
	readonly conversation?: {readonly id: string; readonly state: PinState} | null;
};

export type Exchange = {
	readonly id: string;
	readonly started: number;
	readonly time: string;
	readonly inbound: InboundAdapter;
	readonly key: KeyRecord | null;
	readonly call: InboundCall | null;
	readonly settlement: Settlement | null;
	/** The relay's work in progress: a client that hangs up mid-stream closes the response before the relay settles. */
	readonly busy: Promise<unknown> | null;
};

declare module 'fastify' {
	interface FastifyRequest {
		exchange: Exchange | null;
	}
}

const unsettled: Settlement = {route: null, attempts: [], usage: null, error: null, firstByteAt: null, warnings: []};

export function beginExchange(request: FastifyRequest, reply: FastifyReply, inbound: InboundAdapter, deps: ExchangeDeps): Exchange {
	const {events} = deps;
	const exchange: Exchange = {id: `req_${randomUUID().replaceAll('-', '').slice(0, 20)}`, started: performance.now(), time: new Date().toISOString(), inbound, key: null, call: null, settlement: null, busy: null};
	request.exchange = exchange;
	void reply.header('x-request-id', exchange.id);
	reply.raw.once('close', () => {
		const busy = request.exchange?.busy;
		const finish = () => events.emit('request:finished', scrubFinished(finishExchange(request, reply), deps.registry.snapshot.scrubber));
		if (!busy) return finish();
		void busy.then(finish, finish);
	});
	return exchange;
}

export function identify(request: FastifyRequest, fields: {key?: KeyRecord; call?: InboundCall; busy?: Promise<unknown>}): void {
	const exchange = request.exchange!;
	request.exchange = {...exchange, key: fields.key ?? exchange.key, call: fields.call ?? exchange.call, busy: fields.busy ?? exchange.busy};
}

/** Record the outcome; the first settlement wins (an error rendered after a relay result adds its message). */
export function settle(request: FastifyRequest, settlement: Partial<Settlement>): void {
	const exchange = request.exchange;
	if (!exchange) return;
	const current = exchange.settlement ?? unsettled;
	request.exchange = {...exchange, settlement: {...current, ...settlement, error: current.error ?? settlement.error ?? null}};
}

/** The log line's only free texts — the error and the warnings — with every key masked, once. */
function scrubFinished(event: RequestFinished, scrubber: Scrubber): RequestFinished {
	return {...event, error: event.error === null ? null : scrubber.scrub(event.error), warnings: event.warnings.map(warning => scrubber.scrub(warning))};
}

function finishExchange(request: FastifyRequest, reply: FastifyReply): RequestFinished {
	const exchange = request.exchange!;
	const {route, attempts, usage, error, firstByteAt, warnings, conversation} = exchange.settlement ?? unsettled;
	const complete = reply.raw.writableFinished;
	const status = reply.raw.statusCode;
	const model = exchange.call?.model ?? null;
	const upstreamModel = route?.upstreamModel ?? null;
	const outcome = !complete ? 'aborted' : status >= 400 || error ? 'error' : 'ok';
	const cost = costOf(usage, priceOf(route?.channel, model, upstreamModel));
	const fields = {channelId: route?.channel.id ?? null, outcome, attempts, status, model} as const;
	return {
		id: exchange.id,
		time: exchange.time,
		method: request.method,
		path: request.url.split('?')[0] ?? request.url,
		keyId: exchange.key?.id ?? null,
		keyName: exchange.key?.name ?? null,
		model,
		upstreamModel,
		channelId: fields.channelId,
		channelName: route?.channel.name ?? null,
		inboundFormat: exchange.inbound.format,
		outboundFormat: route?.channel.format ?? null,
		stream: exchange.call?.stream ?? false,
		status,
		outcome,
		latencyMs: Math.round(performance.now() - exchange.started),
		ttfbMs: firstByteAt === null ? null : Math.round(firstByteAt - exchange.started),
		usage,
		error: error ?? (complete ? null : 'client disconnected before the answer was complete'),
		warnings,
		eventType: eventTypeOf(fields),
		attempts,
		costUsd: cost.costUsd,
		unpriced: cost.unpriced,
		...(conversation ? {conversation} : {}),
	};
}
