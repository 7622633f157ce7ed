/**
 * The channel health the running gateways publish, so `channels list` in another process (and a
 * TUI that does not serve) can show it. Each gateway writes a record of its own in the meta
 * namespace, `health:<gateway id>` — several gateways on one store never overwrite or withdraw each
 * other's — rewrites it on every change and every `heartbeatMs`, and deletes it when it stops. A
 * record not rewritten for `staleAfterMs` belongs to a gateway that ended without withdrawing it
 * (killed, crashed, its machine gone): it is left out, and removed by the next gateway that starts.
 */
import * as z from 'zod/mini';
import type {Store} from './index.js';
import {lackingAt, type LackedModel} from '../base/events.js';

const healthSchema = z.object({
	v: z.literal(1),
	updatedAt: z.string(),
	pid: z.number(),
	channels: z.record(
		z.string(),
		z.object({
			channelId: z.string(),
			channelName: z.string(),
			state: z.enum(['healthy', 'degraded', 'unavailable']),
			reason: z.nullable(z.string()),
			since: z.string(),
			retryAt: z.nullable(z.string()),
			// Optional: records written before gateways published it have none.
			lacking: z.optional(z.readonly(z.array(z.object({model: z.string(), until: z.string()})))),
		}),
	),
});
export type PublishedHealth = z.infer<typeof healthSchema>;

const prefix = 'health:';
/** The one record of versions before per-gateway records: read by none, removed by a gateway that starts. */
export const legacyHealthKey = 'health';
export const heartbeatMs = 30_000;
/** Three heartbeats missed (and a margin for a slow store): that gateway is gone. */
export const staleAfterMs = 3 * heartbeatMs + 5_000;

export const publishedHealth = (store: Store) => store.collection('meta', healthSchema, 'channel health');
/** The record of one gateway (its id: random, per process). */
export const publishedHealthKey = (gatewayId: string) => `${prefix}${gatewayId}`;
/** Whether a meta entry is published health, a gateway's or the old shared record (`store migrate` leaves them behind). */
export const isPublishedHealthKey = (id: string) => id === legacyHealthKey || id.startsWith(prefix);

/**
 * Every gateway's record, with its key, stale ones included (for the clean-up at start). One that
 * cannot be read (another version's) is left out: it must not make `channels list` fail.
 */
export async function allPublishedHealth(store: Store): Promise<Array<[string, PublishedHealth]>> {
	return publishedHealth(store).entries(prefix, {skipInvalid: true});
}

const isFresh = (record: PublishedHealth, now: number) => now - Date.parse(record.updatedAt) <= staleAfterMs;

/** The records of the gateways running now (an empty list: none runs). */
export async function readPublishedHealth(store: Store, now = Date.now()): Promise<PublishedHealth[]> {
	return (await allPublishedHealth(store)).map(([, record]) => record).filter(record => isFresh(record, now));
}

/** Ids of the records of gateways gone without withdrawing them, and the record older versions wrote. */
export async function staleHealthKeys(store: Store, now = Date.now()): Promise<string[]> {
	const stale = (await allPublishedHealth(store)).filter(([, record]) => !isFresh(record, now)).map(([id]) => id);
	return (await publishedHealth(store).get(legacyHealthKey).catch(() => undefined)) === undefined ? stale : [...stale, legacyHealthKey];
}

/** A channel's health across the running gateways: the worst of their views, and on how many of them it is not healthy. */
export type ChannelHealthAcross = {
	readonly state: 'healthy' | 'degraded' | 'unavailable';
	readonly reason: string | null;
	readonly since: string;
	readonly retryAt: string | null;
	/** How many gateways run (published a fresh record). */
	readonly gateways: number;
	/** How many of them do not see it healthy. */
	readonly affected: number;
	/** Models the channel's provider lately answered 404 for on any of them, each until the latest time one remembers it (none past it). */
	readonly lacking: readonly LackedModel[];
};

const severity = {healthy: 0, degraded: 1, unavailable: 2} as const;

/** null when no gateway runs: health is only known while serving. A gateway that never saw trouble on the channel counts it healthy. */
export function channelHealthAcross(records: readonly PublishedHealth[], channelId: string, now = Date.now()): ChannelHealthAcross | null {
	if (records.length === 0) return null;
	const views = records.map(record => record.channels[channelId] ?? {state: 'healthy' as const, reason: null, since: record.updatedAt, retryAt: null});
	const worst = views.reduce((a, b) => (severity[b.state] > severity[a.state] ? b : a));
	return {state: worst.state, reason: worst.reason, since: worst.since, retryAt: worst.retryAt, gateways: records.length, affected: views.filter(view => view.state !== 'healthy').length, lacking: lackingAcross(views, now)};
}

/** What the gateways' views say a channel lacks now: each model once, until the latest of their times, soonest to end first. */
function lackingAcross(views: ReadonlyArray<{readonly lacking?: readonly LackedModel[]}>, now: number): LackedModel[] {
	const until = new Map<string, string>();
	for (const view of views) {
		for (const {model, until: time} of lackingAt(view.lacking, now)) {
			const known = until.get(model);
			if (known === undefined || Date.parse(time) > Date.parse(known)) until.set(model, time);
		}
	}
	return [...until].map(([model, time]) => ({model, until: time})).sort((a, b) => Date.parse(a.until) - Date.parse(b.until));
}
