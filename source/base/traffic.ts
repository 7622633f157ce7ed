/**
 * Traffic over time, counted from a gateway's finished requests (in the core's thread under the TUI): per minute for the last hour
 * (requests, errors, latencies), in all and per channel. Bounded: a bucket older than the hour is
 * dropped, and a minute keeps at most `latencyCap` latencies. (Tokens per hour of the last day are
 * the usage totals' hours: usage-view.ts, `tokensPerHour`.)
 *
 * The requests counted are those the usage totals count (`countsTowardUsage`: a model was named, not
 * a token count), so the charts and the Usage pane's "Today: N requests, M failed" agree; requests
 * refused before that (an unknown key, a body that is not JSON) are counted apart as `refused`.
 */
import {isFailure, type RequestFinished} from './events.js';
import {countsTowardUsage} from './usage-types.js';

export const minuteMs = 60_000;

/** The minute `ms` falls in: a snapshot's hour moves on by one when it changes. */
export const minuteOf = (ms: number): number => Math.floor(ms / minuteMs);
/** Latencies kept per minute: a uniform sample (reservoir), so a busy minute costs what a quiet one does to sort. */
const latencyCap = 256;

type Bucket = {requests: number; errors: number; refused: number; latencies: number[]};

/** Keep a uniform sample of a minute's latencies (Algorithm R). */
function sample(bucket: Bucket, latency: number): void {
	if (bucket.latencies.length < latencyCap) bucket.latencies.push(latency);
	else {
		const slot = Math.floor(Math.random() * bucket.requests);
		if (slot < latencyCap) bucket.latencies[slot] = latency;
	}
}

/** Oldest first; one entry per minute of the last hour. */
export type Series = {
	readonly requests: readonly number[];
	readonly errors: readonly number[];
	readonly p50: ReadonlyArray<number | null>;
	readonly p95: ReadonlyArray<number | null>;
	/** Over the whole window; `refused`: failed requests that named no model (not in `requests` or `errors`). */
	readonly total: {readonly requests: number; readonly errors: number; readonly refused: number; readonly p50: number | null; readonly p95: number | null};
};

export type TrafficSnapshot = {
	readonly lastHour: Series;
	/** Channel id → its last hour. */
	readonly channels: ReadonlyMap<string, Series>;
};

export function percentile(sorted: readonly number[], p: number): number | null {
	if (sorted.length === 0) return null;
	return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1) + 0.5))]!;
}

function add(buckets: Map<number, Bucket>, minute: number, event: RequestFinished): void {
	const bucket = buckets.get(minute) ?? {requests: 0, errors: 0, refused: 0, latencies: []};
	buckets.set(minute, bucket);
	if (!countsTowardUsage(event)) {
		if (isFailure(event)) bucket.refused++;
		return;
	}
	bucket.requests++;
	if (isFailure(event)) bucket.errors++;
	sample(bucket, event.latencyMs);
}

function series(buckets: ReadonlyMap<number, Bucket>, lastMinute: number): Series {
	const minutes = Array.from({length: 60}, (_, index) => buckets.get(lastMinute - 59 + index));
	const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b);
	const all = sorted(minutes.flatMap(bucket => bucket?.latencies ?? []));
	return {
		requests: minutes.map(bucket => bucket?.requests ?? 0),
		errors: minutes.map(bucket => bucket?.errors ?? 0),
		p50: minutes.map(bucket => percentile(sorted(bucket?.latencies ?? []), 0.5)),
		p95: minutes.map(bucket => percentile(sorted(bucket?.latencies ?? []), 0.95)),
		total: {
			requests: minutes.reduce((sum, bucket) => sum + (bucket?.requests ?? 0), 0),
			errors: minutes.reduce((sum, bucket) => sum + (bucket?.errors ?? 0), 0),
			refused: minutes.reduce((sum, bucket) => sum + (bucket?.refused ?? 0), 0),
			p50: percentile(all, 0.5),
			p95: percentile(all, 0.95),
		},
	};
}

export class TrafficCounter {
	private lastPrune = -1;
	private readonly minutes = new Map<number, Bucket>();
	private readonly byChannel = new Map<string, Map<number, Bucket>>();

	/** A request that finished now. */
	record(event: RequestFinished, now = Date.now()): void {
		this.count(event, now);
		this.prune(now);
	}

	/**
	 * A request read from the store's log a moment after another gateway recorded it: counted in the
	 * minute it finished (its arrival plus its latency), as that gateway counted it, not in the minute
	 * it was read. One that finished before the last hour's window, or with no readable time, is left out.
	 */
	recordStored(event: RequestFinished, now = Date.now()): void {
		const finished = Date.parse(event.time) + event.latencyMs;
		if (!(finished > now - 60 * minuteMs)) return;
		this.count(event, Math.min(finished, now), now);
		this.prune(now);
	}

	/** Counted at `at`, in its minute while that is in the last hour's window. */
	private count(event: RequestFinished, at: number, now = at): void {
		const minute = minuteOf(at);
		if (minute <= minuteOf(now) - 60) return;
		add(this.minutes, minute, event);
		if (event.channelId) {
			const buckets = this.byChannel.get(event.channelId) ?? new Map<number, Bucket>();
			add(buckets, minute, event);
			this.byChannel.set(event.channelId, buckets);
		}
	}

	/** Drops what left the windows; once a minute, not per request. */
	private prune(now: number): void {
		const minute = minuteOf(now);
		if (minute === this.lastPrune) return;
		this.lastPrune = minute;
		const oldestMinute = minute - 59;
		for (const buckets of [this.minutes, ...this.byChannel.values()]) for (const minute of buckets.keys()) if (minute < oldestMinute) buckets.delete(minute);
		for (const [id, buckets] of this.byChannel) if (buckets.size === 0) this.byChannel.delete(id);
	}

	snapshot(now = Date.now()): TrafficSnapshot {
		const lastMinute = minuteOf(now);
		return {
			lastHour: series(this.minutes, lastMinute),
			channels: new Map([...this.byChannel].map(([id, buckets]) => [id, series(buckets, lastMinute)])),
		};
	}
}

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((value, index) => value === b[index]);

function sameSeries(a: Series, b: Series): boolean {
	const [x, y] = [a.total, b.total];
	return x.requests === y.requests && x.errors === y.errors && x.refused === y.refused && x.p50 === y.p50 && x.p95 === y.p95 && sameList(a.requests, b.requests) && sameList(a.errors, b.errors) && sameList(a.p50, b.p50) && sameList(a.p95, b.p95);
}

/**
 * Whether two snapshots draw the same charts: what a quiet hour's next snapshot mostly does (the
 * minute moved on, and no minute that had a request left the window).
 */
export function sameTraffic(a: TrafficSnapshot, b: TrafficSnapshot): boolean {
	if (a.channels.size !== b.channels.size || !sameSeries(a.lastHour, b.lastHour)) return false;
	for (const [id, series] of a.channels) {
		const other = b.channels.get(id);
		if (!other || !sameSeries(series, other)) return false;
	}
	return true;
}

/** No traffic yet (built on demand: module state is immutable here). */
export function emptyTraffic(now = Date.now()): TrafficSnapshot {
	return new TrafficCounter().snapshot(now);
}

