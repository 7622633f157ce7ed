/**
 * The current use of limited keys, read back from the persisted usage: by `keys list` in another
 * process, and by a gateway restoring its counters after a restart.
 */
import type {EventBus} from '../events.js';
import {KeyLimiter, periodBounds, type LimitUse} from '../proxy/limits.js';
import type {Registry} from '../proxy/registry.js';
import {costOf, priceOf} from './prices.js';
import type {Store} from '../store/index.js';
import type {BudgetPeriod, KeyRecord} from '../store/records.js';
import {recentRequests, usageSummary} from './usage.js';

/** What the key used in its current windows, from the persisted usage (flushed about once a second). */
export async function persistedUse(store: Store, keys: readonly KeyRecord[], now = Date.now()): Promise<Map<string, LimitUse>> {
	const limited = keys.filter(key => key.limits);
	const out = new Map<string, LimitUse>();
	if (limited.length === 0) return out;
	const today = await byKey(store, periodBounds('daily', now).start);
	const minuteStart = periodBounds('minute', now).start.getTime();
	const lastMinute = (await recentRequests(store, 2000)).filter(record => Date.parse(record.time) >= minuteStart);
	const spendCache = new Map<BudgetPeriod, Map<string, {requests: number; tokens: number; costUsd: number}>>();
	for (const key of limited) {
		const period = key.limits?.budget?.period;
		if (period && !spendCache.has(period)) spendCache.set(period, await byKey(store, periodBounds(period, now).start));
		const minute = lastMinute.filter(record => record.keyId === key.id);
		out.set(key.id, {
			rpm: minute.length,
			tpm: minute.reduce((sum, record) => sum + (record.usage ? record.usage.inputTokens + record.usage.outputTokens : 0), 0),
			rpd: today.get(key.id)?.requests ?? 0,
			tpd: today.get(key.id)?.tokens ?? 0,
			spendUsd: period ? (spendCache.get(period)!.get(key.id)?.costUsd ?? 0) : 0,
		});
	}
	return out;
}

async function byKey(store: Store, since: Date): Promise<Map<string, {requests: number; tokens: number; costUsd: number}>> {
	const rows = await usageSummary(store, {by: 'key', since});
	return new Map(rows.flatMap(row => (row.id ? [[row.id, {requests: row.requests, tokens: row.inputTokens + row.outputTokens, costUsd: row.costUsd}] as const] : [])));
}

/** Seed a gateway's limiter from the persisted usage, so a restart keeps a day's and a month's spend. */
export async function restoreLimits(limiter: KeyLimiter, store: Store, keys: readonly KeyRecord[]): Promise<void> {
	for (const [id, use] of await persistedUse(store, keys)) {
		const key = keys.find(item => item.id === id);
		if (key) limiter.restore(key, use);
	}
}

/** Feed each finished request's tokens and cost to the limiter (token limits and budgets). */
export function countLimitedUse(limiter: KeyLimiter, registry: Registry, events: EventBus): () => void {
	return events.on('request:finished', event => {
		if (!event.keyId || !event.usage) return;
		const snapshot = registry.snapshot;
		const key = snapshot.keysById.get(event.keyId);
		if (!key?.limits) return;
		const channel = snapshot.channels.find(item => item.id === event.channelId);
		const {costUsd} = costOf(event.usage, priceOf(channel, event.model, event.upstreamModel));
		limiter.record(key, event.usage.inputTokens + event.usage.outputTokens, costUsd);
	});
}
