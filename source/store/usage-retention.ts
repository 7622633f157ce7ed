/**
 * Retention: the request log keeps the newest `maxRequests` records and nothing older than
 * `maxDays`; daily totals are kept for `usageDays`. Set with environment variables (read when the
 * gateway starts):
 *
 *   GATEWAY_TUI_KEEP_REQUESTS    default 100000
 *   GATEWAY_TUI_KEEP_DAYS        default 30
 *   GATEWAY_TUI_KEEP_USAGE_DAYS  default 400
 *
 * Records are pruned in whole chunks, so up to one chunk (200 records) more than `maxRequests`
 * may be kept. Every instance prunes the whole store; it rewrites the journals of instances that
 * closed or went quiet a day ago, and leaves live ones to prune their own.
 */
import {UserError} from '../base/errors.js';
import type {Store} from './index.js';
import {chunkId, chunks, dayId, dayTotals, journals, mergedMonths, monthTotals, type Journal} from './usage.js';
import {localDay} from './usage-buckets.js';

export type Retention = {readonly maxRequests: number; readonly maxDays: number; readonly usageDays: number};

export const defaultRetention: Retention = {maxRequests: 100_000, maxDays: 30, usageDays: 400};

const variables = {maxRequests: 'GATEWAY_TUI_KEEP_REQUESTS', maxDays: 'GATEWAY_TUI_KEEP_DAYS', usageDays: 'GATEWAY_TUI_KEEP_USAGE_DAYS'} as const;

export function retentionFromEnv(env: NodeJS.ProcessEnv = process.env): Retention {
	const read = (field: keyof Retention): number => {
		const text = env[variables[field]]?.trim();
		if (!text) return defaultRetention[field];
		if (!/^\d+$/.test(text) || Number(text) < 1) {
			throw new UserError(`${variables[field]}="${text}" is not a whole number above 0: set it to e.g. ${defaultRetention[field]}, or unset it for the default.`);
		}
		return Number(text);
	};
	return {maxRequests: read('maxRequests'), maxDays: read('maxDays'), usageDays: read('usageDays')};
}

export type PrunePlan = {
	/** Chunk ids (`instance:seq`) to delete. */
	readonly chunks: ReadonlySet<string>;
	/** Day ids (`instance:day`) to delete. */
	readonly days: ReadonlySet<string>;
};

/** What is past retention, across all instances: the newest chunks are kept until `maxRequests` is reached. */
export function planPrune(all: readonly Journal[], retention: Retention, now = Date.now()): PrunePlan {
	const oldest = now - retention.maxDays * 86_400_000;
	const entries = all
		.flatMap(journal => journal.chunks.map(entry => ({id: chunkId(journal.instance, entry.seq), count: entry.count, last: Date.parse(entry.last), seq: entry.seq})))
		.sort((a, b) => b.last - a.last || b.seq - a.seq);
	const doomed = new Set<string>();
	let kept = 0;
	for (const entry of entries) {
		if (kept >= retention.maxRequests || !(entry.last >= oldest)) doomed.add(entry.id);
		else kept += entry.count;
	}
	const firstDay = localDay(new Date(now - retention.usageDays * 86_400_000));
	const days = new Set(all.flatMap(journal => journal.days.filter(day => day < firstDay).map(day => dayId(journal.instance, day))));
	return {chunks: doomed, days};
}

/** The journal without what the plan deletes. */
export function withoutPruned(journal: Journal, plan: PrunePlan): Journal {
	return {
		...journal,
		chunks: journal.chunks.filter(entry => !plan.chunks.has(chunkId(journal.instance, entry.seq))),
		days: journal.days.filter(day => !plan.days.has(dayId(journal.instance, day))),
	};
}

export type PruneResult = {readonly chunks: number; readonly days: number; readonly journals: number};

/**
 * Delete what is past retention. `own` is the caller's journal as it is in memory (fresher than the
 * store); the caller keeps `withoutPruned(own, plan)` as its journal.
 */
export async function pruneStore(store: Store, own: Journal | null, retention: Retention, now = Date.now()): Promise<{plan: PrunePlan; result: PruneResult}> {
	const stored = await journals(store).list();
	const all = own ? [...stored.filter(journal => journal.instance !== own.instance), own] : stored;
	const plan = planPrune(all, retention, now);
	// In batches, each one statement (see Collection.deleteMany): one by one, each was a transaction.
	await deleteInBatches([...plan.chunks], ids => chunks(store).deleteMany(ids, 'request log chunks past retention'));
	await deleteInBatches([...plan.days], ids => dayTotals(store).deleteMany(ids, 'usage totals past retention'));
	// The sums of the months those days were in (usage-summary.ts): the next reader sums what is left.
	const months = new Set([...plan.days].map(id => id.slice(0, -3))); // `instance:YYYY-MM-DD` without `-DD`
	await deleteInBatches([...months], ids => monthTotals(store).deleteMany(ids, 'usage totals of months past retention'));
	await deleteInBatches([...months], ids => mergedMonths(store).deleteMany(ids, 'usage totals of months past retention'));
	let removedJournals = 0;
	const quiet = now - 86_400_000;
	for (const journal of stored) {
		if (journal.instance === own?.instance) continue;
		if (journal.closedAt === null && Date.parse(journal.updatedAt) > quiet) continue;
		const pruned = withoutPruned(journal, plan);
		if (pruned.chunks.length === 0 && pruned.days.length === 0) {
			await journals(store).delete(journal.instance);
			removedJournals += 1;
		} else if (pruned.chunks.length !== journal.chunks.length || pruned.days.length !== journal.days.length) {
			await journals(store).set(journal.instance, pruned);
		}
	}
	return {plan, result: {chunks: plan.chunks.size, days: plan.days.size, journals: removedJournals}};
}

/** Ids per delete statement when pruning: a few hundred chunks (tens of MB) in one transaction at most. */
const pruneBatch = 200;

async function deleteInBatches(ids: readonly string[], remove: (ids: readonly string[]) => Promise<boolean>): Promise<void> {
	for (let start = 0; start < ids.length; start += pruneBatch) await remove(ids.slice(start, start + pruneBatch));
}
