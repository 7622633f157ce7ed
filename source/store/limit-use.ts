/**
 * The current use of limited keys, read back from the persisted usage: by `keys list` in another
 * process, and by a gateway restoring its counters after a restart.
 */
import type {Store} from './index.js';
import type {BudgetPeriod, KeyRecord} from '../base/records.js';
import {recentRequests, usageSummary} from './usage-summary.js';
import {countsTowardUsage} from '../base/usage-types.js';
import {periodBounds, type LimitUse} from '../base/periods.js';

/**
 * What the key used in its current windows, from the persisted usage (flushed about once a second):
 * as the limiter counts, only requests that got past it to a channel — not those it refused, nor
 * other refusals before routing, nor token counts.
 */
export async function persistedUse(store: Store, keys: readonly KeyRecord[], now = Date.now()): Promise<Map<string, LimitUse>> {
	const limited = keys.filter(key => key.limits);
	const out = new Map<string, LimitUse>();
	if (limited.length === 0) return out;
	const today = await byKey(store, periodBounds('daily', now).start);
	const minuteStart = periodBounds('minute', now).start.getTime();
	const lastMinute = (await recentRequests(store, 2000)).filter(record => record.channelId !== null && countsTowardUsage(record) && Date.parse(record.time) >= minuteStart);
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
	const rows = await usageSummary(store, {by: 'key', since, routedOnly: true});
	return new Map(rows.flatMap(row => (row.id ? [[row.id, {requests: row.requests, tokens: row.inputTokens + row.outputTokens, costUsd: row.costUsd}] as const] : [])));
}

