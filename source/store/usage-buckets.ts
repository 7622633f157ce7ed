/**
 * Bucket arithmetic: adding a request to its (hour, key, channel, model) bucket, summing buckets,
 * and the latency histogram that makes p50 / p95 summable across buckets and instances.
 *
 * The histogram has fixed log-scale bins, eight per doubling (bin 0 is under 1 ms, bin i ≥ 1 is
 * [2^((i-1)/8), 2^(i/8)) ms), so a percentile read back is within about 5 % of the true value.
 */
import type {Bucket, Histogram} from './usage.js';
import type {RequestRecord} from '../base/usage-types.js';

const binsPerDoubling = 8;
const lastBin = binsPerDoubling * 24 + 1; // ~4.6 hours

export function latencyBin(ms: number): number {
	if (!(ms >= 1)) return 0;
	return Math.min(lastBin, Math.floor(binsPerDoubling * Math.log2(ms)) + 1);
}

/** The middle (geometric) of a bin, in whole milliseconds. */
export function binValue(bin: number): number {
	return bin === 0 ? 0 : Math.round(2 ** ((bin - 0.5) / binsPerDoubling));
}

export function mergeHistogram(into: Histogram, from: Readonly<Histogram>): void {
	// for…in, not Object.entries: no array of pairs a bucket (a year of usage merges ~100,000 of them a read).
	for (const bin in from) into[bin] = (into[bin] ?? 0) + from[bin]!;
}

/** The `q` quantile (0 < q ≤ 1) of a histogram, or null when it is empty. */
export function percentile(histogram: Readonly<Histogram>, q: number): number | null {
	const bins = Object.entries(histogram)
		.map(([bin, n]) => [Number(bin), n] as const)
		.sort((a, b) => a[0] - b[0]);
	const total = bins.reduce((sum, [, n]) => sum + n, 0);
	if (total === 0) return null;
	const rank = Math.max(1, Math.ceil(q * total));
	let seen = 0;
	for (const [bin, n] of bins) {
		seen += n;
		if (seen >= rank) return binValue(bin);
	}
	return binValue(bins.at(-1)![0]);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local day of a time, `YYYY-MM-DD` (the limits' day too): days and hours are in the gateway's time zone. */
export {localDay} from '../base/periods.js';

export function hourStart(day: string, hour: number): Date {
	const [y, m, d] = day.split('-').map(Number) as [number, number, number];
	return new Date(y, m - 1, d, hour);
}

/** How a usage row grouped by hour is labelled: `YYYY-MM-DD HH:00`, local. */
export function hourLabel(day: string, hour: number): string {
	return `${day} ${pad(hour)}:00`;
}

/** The start of the hour an `hourLabel` names, or undefined for a label that is not one. */
export function hourOfLabel(label: string): Date | undefined {
	const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}):00$/.exec(label);
	return match ? hourStart(match[1]!, Number(match[2])) : undefined;
}

export function startOfToday(now = new Date()): Date {
	return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/**
 * The identity of a bucket as one string, for a Map. Key and channel ids are the gateway's own
 * (letters, digits, `_`), so NUL cannot be in them and U+0001 cannot be one; the model, the only
 * free text, comes last. A template, not JSON.stringify of an array: every request counted makes
 * one (170 → 30 ns).
 */
export function bucketKey(hour: number, record: Pick<RequestRecord, 'keyId' | 'channelId' | 'model'>): string {
	return `${hour}\u0000${record.keyId ?? '\u0001'}\u0000${record.channelId ?? '\u0001'}\u0000${record.model ?? '\u0001'}`;
}

export function emptyBucket(hour: number, record: Pick<RequestRecord, 'keyId' | 'keyName' | 'channelId' | 'channelName' | 'model'>): Bucket {
	return {
		hour,
		keyId: record.keyId,
		keyName: record.keyName,
		channelId: record.channelId,
		channelName: record.channelName,
		model: record.model ?? '',
		requests: 0,
		succeeded: 0,
		failed: 0,
		aborted: 0,
		inputTokens: 0,
		outputTokens: 0,
		cachedTokens: 0,
		reasoningTokens: 0,
		costUsd: 0,
		unpriced: 0,
		latency: {},
	};
}

export function addRecord(bucket: Bucket, record: RequestRecord): void {
	bucket.requests += 1;
	if (record.outcome === 'ok') bucket.succeeded += 1;
	else if (record.outcome === 'aborted') bucket.aborted += 1;
	else bucket.failed += 1;
	const usage = record.usage;
	if (usage) {
		bucket.inputTokens += usage.inputTokens;
		bucket.outputTokens += usage.outputTokens;
		bucket.cachedTokens += usage.cachedTokens ?? 0;
		bucket.reasoningTokens += usage.reasoningTokens ?? 0;
	}
	bucket.costUsd += record.costUsd;
	if (record.unpriced) bucket.unpriced += 1;
	const bin = String(latencyBin(record.latencyMs));
	bucket.latency[bin] = (bucket.latency[bin] ?? 0) + 1;
	if (record.keyName) bucket.keyName = record.keyName;
	if (record.channelName) bucket.channelName = record.channelName;
}

/** The counters of a bucket, without its identity: what rows are summed from. */
export type Totals = Omit<Bucket, 'hour' | 'keyId' | 'keyName' | 'channelId' | 'channelName' | 'model'>;

export function emptyTotals(): Totals {
	const {hour: _h, keyId: _k, keyName: _kn, channelId: _c, channelName: _cn, model: _m, ...totals} = emptyBucket(0, {keyId: null, keyName: null, channelId: null, channelName: null, model: null});
	return totals;
}

export function addTotals(into: Totals, from: Readonly<Totals>): void {
	into.requests += from.requests;
	into.succeeded += from.succeeded;
	into.failed += from.failed;
	into.aborted += from.aborted;
	into.inputTokens += from.inputTokens;
	into.outputTokens += from.outputTokens;
	into.cachedTokens += from.cachedTokens;
	into.reasoningTokens += from.reasoningTokens;
	into.costUsd += from.costUsd;
	into.unpriced += from.unpriced;
	mergeHistogram(into.latency, from.latency);
}
