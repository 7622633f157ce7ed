/**
 * The typed in-process event bus. The proxy emits; the serve logger, the TUI and the usage
 * recorder listen. Listeners run synchronously, so they must be cheap (queue, don't do I/O).
 */
import {EventEmitter} from 'node:events';
import type {Format, InboundFormat, IRUsage} from './ir.js';
import type {BudgetPeriod} from './records.js';
import type {TrafficSnapshot} from './traffic.js';

export type HealthState = 'healthy' | 'degraded' | 'unavailable';

export type ChannelHealthView = {
	readonly channelId: string;
	readonly channelName: string;
	readonly state: HealthState;
	readonly reason: string | null;
	/** ISO time the state began. */
	readonly since: string;
	/** While unavailable: when the next trial request may go through. */
	readonly retryAt: string | null;
	/**
	 * Models (upstream names) its provider lately answered 404 for, each with the ISO time it is
	 * remembered until: till then the channel is tried after the other channels serving it. Readers
	 * leave out those past their time (the gateway forgets them on its next lookup).
	 */
	readonly lacking?: readonly LackedModel[];
};

/** A model a channel's provider lately said it does not have, and until when (ISO time) that is remembered. */
export type LackedModel = {readonly model: string; readonly until: string};

/** The models of `lacking` still remembered at `now` (epoch ms). */
export function lackingAt(lacking: readonly LackedModel[] | undefined, now: number): readonly LackedModel[] {
	return lacking ? lacking.filter(lacked => Date.parse(lacked.until) > now) : [];
}

export type BudgetWarning = {
	readonly keyId: string;
	readonly keyName: string;
	readonly spentUsd: number;
	readonly budgetUsd: number;
	readonly period: BudgetPeriod;
	readonly percent: number;
};

export const requestOutcomes = ['ok', 'error', 'aborted'] as const;
export type RequestOutcome = (typeof requestOutcomes)[number];

/**
 * What happened to a request, as the request log shows it: answered by its first channel, answered
 * after failing over, failed upstream, no channel serves the model, or refused by the gateway itself.
 */
export const requestEventTypes = ['routed', 'failover', 'failed', 'no-channel', 'rejected'] as const;
export type RequestEventType = (typeof requestEventTypes)[number];

/** Whether a turn of a conversation started it, stayed on the channel of the last turn, or moved (that channel failing). */
export const conversationStates = ['new', 'pinned', 'moved'] as const;
export type ConversationState = (typeof conversationStates)[number];

export type RequestFinished = {
	readonly id: string;
	/** ISO time the request arrived. */
	readonly time: string;
	readonly method: string;
	readonly path: string;
	readonly keyId: string | null;
	readonly keyName: string | null;
	/** The model the client asked for, and the name sent upstream. */
	readonly model: string | null;
	readonly upstreamModel: string | null;
	readonly channelId: string | null;
	readonly channelName: string | null;
	/** What the client spoke; `responses` for the OpenAI Responses API. */
	readonly inboundFormat: InboundFormat;
	readonly outboundFormat: Format | null;
	readonly stream: boolean;
	readonly status: number;
	readonly outcome: RequestOutcome;
	readonly latencyMs: number;
	/** Time to the first byte sent to the client. */
	readonly ttfbMs: number | null;
	readonly usage: IRUsage | null;
	readonly error: string | null;
	/** Losses during translation (e.g. a reasoning signature that could not reach this provider). */
	readonly warnings: readonly string[];
	readonly eventType: RequestEventType;
	/** Names of the channels tried, in order (one for a routed request, none when no channel was chosen). */
	readonly attempts: readonly string[];
	/** Priced once, when the request ends, with its channel's prices of that moment. */
	readonly costUsd: number;
	/** True when the request used tokens but its model has no price on its channel (cost 0). */
	readonly unpriced: boolean;
	/** Its conversation (a short hash) and whether this turn stayed on the channel of the last one. */
	readonly conversation?: {readonly id: string; readonly state: ConversationState};
};

/** What a finished request's fields imply: the one place the event type is derived. */
export function eventTypeOf(event: Pick<RequestFinished, 'channelId' | 'outcome' | 'attempts' | 'status' | 'model'>): RequestEventType {
	if (event.channelId) {
		if (event.attempts.length > 1) return 'failover';
		return event.outcome === 'error' ? 'failed' : 'routed';
	}
	if (event.status < 400) return 'routed';
	if (event.model && (event.status === 404 || event.status === 503)) return 'no-channel';
	return 'rejected';
}

/**
 * A request failed, as the stored totals count `failed`: an error status, or an error in its answer.
 * A client that hung up (`aborted`: Esc in Claude Code, a script's time-out) is not a failure of the
 * gateway or of its channel: the charts' errors and the totals' FAIL agree.
 */
export function isFailure(event: Pick<RequestFinished, 'status' | 'outcome'>): boolean {
	return event.outcome === 'error' || (event.outcome === 'ok' && event.status >= 400);
}

/**
 * Finished requests as the gateway worker hands them to the UI, once per batch: the newest few (the
 * live log cannot show more) and how many finished in all, so the UI's cost does not grow with traffic.
 */
export type RequestBatch = {
	/** Oldest first. */
	readonly recent: readonly RequestFinished[];
	readonly count: number;
	readonly failed: number;
};

/**
 * One body of a request or its answer as the request log keeps it (opt-in: `--capture-bodies`):
 * at most the capture's byte cap of it, every known key and Authorization-like value masked.
 */
export type CapturedBody = {
	readonly text: string;
	/** How many bytes the body had in all. */
	readonly bytes: number;
	/** Bytes not kept: past the cap (and the partial word cut there). */
	readonly omittedBytes: number;
	readonly contentType: string | null;
};

/** What a request sent and got back, for its details in the log. */
export type RequestBodies = {
	readonly id: string;
	/** The client's request headers, credentials masked. */
	readonly requestHeaders: ReadonlyArray<readonly [name: string, value: string]>;
	/** Null when the request was refused before its body was read, or had none. */
	readonly request: CapturedBody | null;
	/** The bytes sent to the client (for a stream: the first of them, as sent). */
	readonly response: CapturedBody | null;
};

/** The answer to "the bodies of request X": whether capture is on, its bounds, and the bodies if still kept. */
export type BodiesLookup = {
	readonly capturing: boolean;
	readonly maxBytes: number;
	readonly keep: number;
	readonly bodies: RequestBodies | null;
};

/**
 * A warning whose next step is a command on one channel (`channels test NAME`, `channels edit NAME`):
 * `message` names the command (what `serve` prints and the log file keeps); `step` lets a front end
 * say it in its own words (the TUI: its pane and key), as `lead`, the step, then `tail`.
 */
export type ChannelStep = {readonly channel: string; readonly action: 'test' | 'edit'; readonly lead: string; readonly tail: string};
export type GatewayWarning = {readonly message: string; readonly step?: ChannelStep};

export function channelWarning(lead: string, channel: string, action: ChannelStep['action'], tail = ''): GatewayWarning {
	return {message: `${lead}\`gateway-tui channels ${action} ${channel}\`${tail}`, step: {channel, action, lead, tail}};
}

export type GatewayEvents = {
	'channel:health': [ChannelHealthView];
	'key:budget': [BudgetWarning];
	'request:finished': [RequestFinished];
	'requests:batch': [RequestBatch];
	/** Requests other gateways sharing the store recorded, read from the stored log (the TUI's log follows it). */
	'requests:stored': [RequestBatch];
	/** The requests the store recorded before the TUI started, read as its log opens (those it had not seen live): the charts count them too. */
	'requests:history': [readonly RequestFinished[]];
	'traffic:snapshot': [TrafficSnapshot];
	/** How many requests the TUI's core has received and not yet finished (a stream counts until its record is out), sent as it changes, at most once a batch. */
	'requests:in-flight': [number];
	/** The store has news for readers: a new revision, or (same revision) the gateway's own unchanged probe round. */
	'store:changed': [{readonly revision: string}];
	'warning': [GatewayWarning];
};

export class EventBus {
	private readonly emitter = new EventEmitter();

	constructor() {
		this.emitter.setMaxListeners(50);
	}

	on<E extends keyof GatewayEvents>(event: E, listener: (...args: GatewayEvents[E]) => void): () => void {
		this.emitter.on(event, listener as (...args: unknown[]) => void);
		return () => this.emitter.off(event, listener as (...args: unknown[]) => void);
	}

	emit<E extends keyof GatewayEvents>(event: E, ...args: GatewayEvents[E]): void {
		this.emitter.emit(event, ...args);
	}
}
