/**
 * Usage totals of this session, counted in memory from `request:finished` events and answered in
 * the same shape (`UsageRow`) as the persisted summary, so the Usage pane does not care which one
 * it reads. Counts are bucketed by (hour, key, model, channel): memory grows with the variety of
 * traffic, not its volume.
 */
import type {EventBus, RequestFinished} from '../base/events.js';
import type {UsageGroupBy, UsageQuery, UsageRow} from '../base/usage-types.js';
import {hourLabel, localDay} from '../store/usage-buckets.js';

/**
 * Anything that answers usage queries, several at a time (the rows of each, in order): this
 * session's counts, or the persisted summary (which reads the store once for all of them).
 */
export type UsageSource = (queries: readonly UsageQuery[]) => Promise<UsageRow[][]>;

type Bucket = {
	hour: number;
	keyId: string;
	key: string;
	model: string;
	channel: string;
	requests: number;
	failed: number;
	aborted: number;
	inputTokens: number;
	outputTokens: number;
	cachedTokens: number;
	reasoningTokens: number;
};

const hourMs = 3_600_000;
const floorHour = (time: number) => time - (time % hourMs);

export class SessionUsage {
	private readonly buckets = new Map<string, Bucket>();

	/** Count every finished request from now on; returns the function that stops counting. */
	attach(events: EventBus): () => void {
		return events.on('request:finished', event => this.record(event));
	}

	record(event: RequestFinished): void {
		const hour = floorHour(Date.parse(event.time) || Date.now());
		const keyId = event.keyId ?? '';
		const key = event.keyName ?? '(no key)';
		const model = event.model ?? '-';
		const channel = event.channelName ?? '-';
		const id = [hour, keyId, model, channel].join('\u0000');
		const bucket = this.buckets.get(id) ?? {hour, keyId, key, model, channel, requests: 0, failed: 0, aborted: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0};
		bucket.requests++;
		// As the stored summary counts them (store/usage-buckets.ts): an abandoned request is not a failure.
		if (event.outcome === 'aborted') bucket.aborted++;
		else if (event.outcome !== 'ok') bucket.failed++;
		bucket.inputTokens += event.usage?.inputTokens ?? 0;
		bucket.outputTokens += event.usage?.outputTokens ?? 0;
		bucket.cachedTokens += event.usage?.cachedTokens ?? 0;
		bucket.reasoningTokens += event.usage?.reasoningTokens ?? 0;
		this.buckets.set(id, bucket);
	}

	readonly summaries: UsageSource = async queries => queries.map(query => this.summary(query));

	summary(query: UsageQuery): UsageRow[] {
		const since = query.since ? floorHour(query.since.getTime()) : -Infinity;
		const rows = new Map<string, UsageRow>();
		for (const bucket of this.buckets.values()) {
			if (bucket.hour < since) continue;
			const group = groupOf(bucket, query.by);
			const id = query.by === 'key' ? bucket.keyId : group;
			rows.set(id, add(rows.get(id) ?? {...emptyRow(group), ...(query.by === 'key' && bucket.keyId ? {id: bucket.keyId} : {})}, bucket));
		}
		return [...rows.values()].sort((a, b) => b.requests - a.requests || a.group.localeCompare(b.group));
	};
}

function groupOf(bucket: Bucket, by: UsageGroupBy): string {
	const date = new Date(bucket.hour);
	switch (by) {
		case 'key':
			return bucket.key;
		case 'model':
			return bucket.model;
		case 'channel':
			return bucket.channel;
		case 'day':
			return localDay(date);
		case 'hour':
			return hourLabel(localDay(date), date.getHours());
	}
}

export function emptyRow(group: string): UsageRow {
	return {group, requests: 0, succeeded: 0, failed: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, costUsd: 0, unpriced: false, latencyP50Ms: null, latencyP95Ms: null};
}

function add(row: UsageRow, bucket: Bucket): UsageRow {
	return {
		...row,
		requests: row.requests + bucket.requests,
		succeeded: row.succeeded + bucket.requests - bucket.failed - bucket.aborted,
		failed: row.failed + bucket.failed,
		aborted: (row.aborted ?? 0) + bucket.aborted,
		inputTokens: row.inputTokens + bucket.inputTokens,
		outputTokens: row.outputTokens + bucket.outputTokens,
		cachedTokens: row.cachedTokens + bucket.cachedTokens,
		reasoningTokens: row.reasoningTokens + bucket.reasoningTokens,
		// Prices are the persisted summary's business; this session's counts carry none.
		unpriced: true,
	};
}

/** One row that sums `rows` (for the "all keys" totals line). */
export function sumRows(group: string, rows: readonly UsageRow[]): UsageRow {
	return rows.reduce<UsageRow>(
		(sum, row) => ({
			...sum,
			requests: sum.requests + row.requests,
			succeeded: sum.succeeded + row.succeeded,
			failed: sum.failed + row.failed,
			aborted: (sum.aborted ?? 0) + (row.aborted ?? 0),
			inputTokens: sum.inputTokens + row.inputTokens,
			outputTokens: sum.outputTokens + row.outputTokens,
			cachedTokens: sum.cachedTokens + row.cachedTokens,
			reasoningTokens: sum.reasoningTokens + row.reasoningTokens,
			costUsd: sum.costUsd + row.costUsd,
			unpriced: sum.unpriced || row.unpriced,
		}),
		emptyRow(group),
	);
}
