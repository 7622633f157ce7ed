/**
 * One request's journey through the proxy, written in three steps by one function each: `begin`
 * when it arrives, `identify` once the key and the call are known, `settle` with the relay's result
 * (or the error that stopped it). When the client's response closes (finished or aborted) it is
 * emitted once as `request:finished`: priced, with its event type. The gateway counts the exchanges
 * open (`OpenExchanges`) so that stopping waits for their records.
 */
import {randomUUID} from 'node:crypto';
import type {FastifyReply, FastifyRequest} from 'fastify';
import {eventTypeOf, type EventBus, type RequestFinished} from '../base/events.js';
import type {IRUsage} from '../base/ir.js';
import type {IsoTime} from '../base/iso-time.js';
import {costOf, priceOf} from '../base/prices.js';
import type {KeyRecord} from '../base/records.js';
import type {InboundAdapter, InboundCall} from '../formats/adapter.js';
import type {PinState} from './conversation-pins.js';
import type {Scrubber} from '../base/secrets.js';
import type {Route} from './routing.js';
import type {BodyCapture} from './bodies.js';
import type {BodyTee} from './body-text.js';
import {RefusedKeyError} from './registry.js';

/** What an exchange reports to: the event bus, the scrubber of the current registry snapshot, the (opt-in) body capture, and the gateway's count of open exchanges. */
export type ExchangeDeps = {readonly events: EventBus; readonly registry: {readonly snapshot: {readonly scrubber: Scrubber}}; readonly bodies?: BodyCapture; readonly isoTime: IsoTime; readonly exchanges: OpenExchanges};

/**
 * The exchanges whose record is not out yet. A gateway that stops closes its clients' connections,
 * which ends every answer in flight (a stream can last minutes); each one's record follows a few
 * ticks later, when its relay has let go of the provider. Stopping waits for those records before it
 * saves usage (they were dropped: a request cut off by Ctrl+C or `q` was in neither the log nor the
 * totals, though the provider had answered part of it), and a record that ends unfinished while the
 * gateway stops says the stop cut it off, not its client.
 */
export class OpenExchanges {
	private open = 0;
	private drained: (() => void) | null = null;
	/** Set when the gateway begins to stop. */
	stopping = false;
	/** Told when the count changes (the TUI's core: its next batch says how many are in flight). */
	onChange: (() => void) | null = null;

	get size(): number {
		return this.open;
	}

	opened(): void {
		this.open++;
		this.onChange?.();
	}

	closed(): void {
		this.open--;
		this.onChange?.();
		if (this.open === 0) this.drained?.();
	}

	/** Resolves once no exchange is open, or after `ms`, with how many are still open. */
	async settled(ms: number): Promise<number> {
		if (this.open === 0) return 0;
		let timer: NodeJS.Timeout | undefined;
		await Promise.race([new Promise<void>(resolve => (this.drained = resolve)), new Promise<void>(resolve => (timer = setTimeout(resolve, ms)))]);
		clearTimeout(timer);
		this.drained = null;
		return this.open;
	}
}

/** The error of a record that ended unfinished: who ended it. */
const clientGone = 'client disconnected before the answer was complete';
const gatewayStopped = 'the gateway stopped before the answer was complete (its connections closed)';

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

/**
 * One request's record in the making. Its own fields are written in place by the three steps below
 * (it belongs to one request, and a copy per step cost every request three object spreads).
 */
export type Exchange = {
	readonly id: string;
	readonly started: number;
	readonly time: string;
	readonly inbound: InboundAdapter;
	key: KeyRecord | null;
	/** A known key refused as revoked or expired: named on the log, never used. */
	refusedKey: {readonly id: string; readonly name: string} | null;
	call: InboundCall | null;
	settlement: Settlement | null;
	/** The relay's work in progress: a client that hangs up mid-stream closes the response before the relay settles. */
	busy: Promise<unknown> | null;
};

declare module 'fastify' {
	interface FastifyRequest {
		exchange: Exchange | null;
	}
}

const noWarnings: readonly string[] = Object.freeze([]);

const unsettled: Settlement = {route: null, attempts: [], usage: null, error: null, firstByteAt: null, warnings: []};

export function beginExchange(request: FastifyRequest, reply: FastifyReply, inbound: InboundAdapter, deps: ExchangeDeps): Exchange {
	const {events, bodies, exchanges} = deps;
	const uuid = randomUUID();
	// The first 20 hex digits of a UUID (its first four groups).
	const id = `req_${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(14, 18)}${uuid.slice(19, 23)}`;
	const exchange: Exchange = {id, started: performance.now(), time: deps.isoTime.text(), inbound, key: null, refusedKey: null, call: null, settlement: null, busy: null};
	request.exchange = exchange;
	exchanges.opened();
	void reply.header('x-request-id', exchange.id);
	// Off (the default), this is the whole cost of body capture: one test.
	const tee = bodies?.capturing ? bodies.tee(reply) : null;
	reply.raw.once('close', () => {
		const busy = request.exchange?.busy;
		const finish = () => {
			try {
				const {scrubber} = deps.registry.snapshot;
				if (tee) keepBodies(deps, exchange.id, request, reply, tee);
				events.emit('request:finished', scrubFinished(finishExchange(request, reply, exchanges.stopping), scrubber));
			} finally {
				exchanges.closed();
			}
		};
		if (!busy) return finish();
		void busy.then(finish, finish);
	});
	return exchange;
}

export function identify(request: FastifyRequest, fields: {key?: KeyRecord; call?: InboundCall; busy?: Promise<unknown>}): void {
	const exchange = request.exchange!;
	if (fields.key) exchange.key = fields.key;
	if (fields.call) exchange.call = fields.call;
	if (fields.busy) exchange.busy = fields.busy;
}

/**
 * Authenticate the request's key. A known key refused as revoked or expired is still named on the
 * request log (its id and name, never its secret); the refusal is rethrown as it is.
 */
export function authenticateExchange(request: FastifyRequest, registry: {authenticate(presented: string | undefined): KeyRecord}, presented: string | undefined): void {
	try {
		request.exchange!.key = registry.authenticate(presented);
	} catch (error) {
		if (error instanceof RefusedKeyError && request.exchange) request.exchange.refusedKey = error.key;
		throw error;
	}
}

/** Record the outcome; the first settlement wins (an error rendered after a relay result adds its message). */
export function settle(request: FastifyRequest, settlement: Partial<Settlement>): void {
	const exchange = request.exchange;
	if (!exchange) return;
	const current = exchange.settlement ?? unsettled;
	// Field by field (what a spread of the two would give): a spread of a partial object is slow, and this runs on every request.
	const has = (field: keyof Settlement) => field in settlement;
	exchange.settlement = {
		route: has('route') ? settlement.route! : current.route,
		attempts: has('attempts') ? settlement.attempts! : current.attempts,
		usage: has('usage') ? settlement.usage! : current.usage,
		error: current.error ?? settlement.error ?? null,
		firstByteAt: has('firstByteAt') ? settlement.firstByteAt! : current.firstByteAt,
		warnings: has('warnings') ? settlement.warnings! : current.warnings,
		conversation: has('conversation') ? settlement.conversation : current.conversation,
	};
}

/** Capture is for debugging: whatever goes wrong in it must never cost the request its log record. */
function keepBodies(deps: ExchangeDeps, id: string, request: FastifyRequest, reply: FastifyReply, tee: BodyTee): void {
	try {
		deps.bodies?.record(id, request, reply, tee, deps.registry.snapshot.scrubber);
	} catch (error) {
		deps.events.emit('warning', {message: `The bodies of request ${id} could not be kept: ${error instanceof Error ? error.message : String(error)}`});
	}
}

/** The log line's only free texts — the error and the warnings — with every key masked, once. */
function scrubFinished(event: RequestFinished, scrubber: Scrubber): RequestFinished {
	if (event.error === null && event.warnings.length === 0) return event;
	return {...event, error: event.error === null ? null : scrubber.scrub(event.error), warnings: event.warnings.length === 0 ? event.warnings : event.warnings.map(warning => scrubber.scrub(warning))};
}

function finishExchange(request: FastifyRequest, reply: FastifyReply, stopping: boolean): RequestFinished {
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
		path: pathOf(request.url),
		keyId: exchange.key?.id ?? exchange.refusedKey?.id ?? null,
		keyName: exchange.key?.name ?? exchange.refusedKey?.name ?? null,
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
		error: error ?? (complete ? null : stopping ? gatewayStopped : clientGone),
		// A copy: the attempt's context may still add warnings after the record is out.
		warnings: warnings.length === 0 ? noWarnings : [...warnings],
		eventType: eventTypeOf(fields),
		attempts,
		costUsd: cost.costUsd,
		unpriced: cost.unpriced,
		...(conversation ? {conversation} : {}),
	};
}

function pathOf(url: string): string {
	const query = url.indexOf('?');
	return query === -1 ? url : url.slice(0, query);
}
