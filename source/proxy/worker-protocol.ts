/**
 * The one message channel between the TUI (main thread) and the gateway core (its worker thread).
 * Events go out in batches — ten thousand requests a second cost the UI about ten messages — and a
 * few commands come in. Everything here survives structured cloning: plain objects, no classes.
 */
import type {BodiesLookup, GatewayEvents, RequestBatch, RequestFinished} from '../base/events.js';
import type {TrafficSnapshot} from '../base/traffic.js';
import type {LimitUse} from '../base/periods.js';
import type {KeyRecord} from '../base/records.js';

/** One event of the gateway's bus, as data. */
export type EventMessage = {[E in keyof GatewayEvents]: {readonly name: E; readonly args: GatewayEvents[E]}}[keyof GatewayEvents];

/** What the worker is started with. */
export type WorkerOptions = {
	readonly home: string;
	readonly storeUrl?: string;
	readonly host: string;
	readonly port: number;
	/** `--probe-every`: each enabled channel's model list this often (off when absent). */
	readonly probeEveryMs?: number;
	/** How often queued events are sent to the UI. */
	readonly batchMs: number;
	/** Where the core appends a line per finished request (the TUI's log file), in one write per batch. */
	readonly logFile?: string;
};

export type CoreCommand =
	| {readonly type: 'reload'; readonly id: number}
	| {readonly type: 'limit-use'; readonly id: number; readonly keys: readonly KeyRecord[]}
	/** The bodies of one request, asked for when its details are opened (never pushed with the events). */
	| {readonly type: 'bodies'; readonly id: number; readonly requestId: string}
	/** Switch body capture on or off, from the next request on. */
	| {readonly type: 'capture-bodies'; readonly id: number; readonly on: boolean}
	/** The usage instance the core records its requests as (store/usage.ts), once claimed. */
	| {readonly type: 'usage-instance'; readonly id: number}
	/** Requests other gateways on the store recorded (the TUI follows the store's log): counted in the charts' traffic; no answer. */
	| {readonly type: 'traffic-stored'; readonly records: readonly RequestFinished[]}
	| {readonly type: 'shutdown'};

export type CoreMessage =
	| {readonly type: 'listening'; readonly url: string}
	| {readonly type: 'not-listening'; readonly error: string}
	/** `error`: the error's message; `stack`: how the core's thread reports it (its stack, else the message). */
	| {readonly type: 'crashed'; readonly error: string; readonly stack: string}
	| {readonly type: 'events'; readonly batch: readonly EventMessage[]}
	| {readonly type: 'requests'; readonly batch: RequestBatch}
	| {readonly type: 'traffic'; readonly snapshot: TrafficSnapshot}
	/** Requests received and not finished, when that changed since the last batch. */
	| {readonly type: 'in-flight'; readonly count: number}
	| {readonly type: 'reloaded'; readonly id: number}
	| {readonly type: 'limit-use'; readonly id: number; readonly use: ReadonlyArray<readonly [string, LimitUse]>}
	| {readonly type: 'bodies'; readonly id: number; readonly lookup: BodiesLookup}
	| {readonly type: 'usage-instance'; readonly id: number; readonly instance: string}
	| {readonly type: 'closed'};
