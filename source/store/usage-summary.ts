/**
 * Reading usage, for the CLI and the TUI alike: totals grouped by key, model, channel, day or hour
 * (the buckets of every instance summed), per-key totals, and the request log — its newest records,
 * and the records that land after them. Only flushed data is seen (at most a second behind).
 */
import {setTimeout as sleep} from 'node:timers/promises';
import type {Store} from './index.js';
import {chunkId, chunks, dayId, dayTotals, journals, mergedMonths, monthId, monthTotals, type Bucket, type Chunk, type DayTotals, type Journal, type MergedMonth, type MonthTotals} from './usage.js';
import {addTotals, emptyTotals, hourLabel, hourStart, localDay, percentile, startOfToday, type Totals} from './usage-buckets.js';
import type {RequestRecord, UsageGroupBy, UsageQuery, UsageRow} from '../base/usage-types.js';
import {listKeys} from './keys.js';
import {listChannels} from './channels.js';
import {compareIso} from '../base/iso-time.js';

export type {RequestRecord, UsageGroupBy, UsageQuery, UsageRow} from '../base/usage-types.js';

export const usageDimensions: readonly UsageGroupBy[] = ['key', 'model', 'channel', 'day', 'hour'];

type Group = {readonly group: string; readonly id?: string; readonly totals: Totals; readonly instances: Set<string>};
type Names = {readonly keys: ReadonlyMap<string, string>; readonly channels: ReadonlyMap<string, string>};

/** Usage rows: by cost (then requests) for keys, models and channels; in time order for days and hours. */
export async function usageSummary(store: Store, query: UsageQuery): Promise<UsageRow[]> {
	return (await usageSummaries(store, [query]))[0]!;
}

/**
 * The rows of several queries from one read of the store: the journals, the day totals and the
 * names each read once (the TUI's Usage pane asks for four groupings at a time, a second after
 * requests finish; read one by one, that was four times the reads and the key records unsealed twice).
 */
export async function usageSummaries(store: Store, queries: readonly UsageQuery[], settled?: SettledDays): Promise<UsageRow[][]> {
	return (await usageReports(store, queries, settled)).map(report => report.rows.map(({instances: _instances, ...row}) => row));
}

/** A usage row and how many gateway instances (processes) wrote the totals summed in it. */
export type InstanceRow = UsageRow & {readonly instances: number};

export type UsageReport = {readonly rows: InstanceRow[]; readonly instances: number};

/** The rows of `usageSummary`, each with its instance count, and how many instances contributed at all. */
export async function usageReport(store: Store, query: UsageQuery): Promise<UsageReport> {
	return (await usageReports(store, [query]))[0]!;
}

/** `usageReport` for each query, from one read of the store; with `settled`, days long past are taken from it (see SettledDays). */
export async function usageReports(store: Store, queries: readonly UsageQuery[], settled?: SettledDays): Promise<UsageReport[]> {
	const froms = queries.map(fromHourOf);
	// The day totals from the earliest day any query needs (all of them if one has no start).
	const earliest = froms.some(from => from === undefined) ? undefined : new Date(Math.min(...froms.map(from => from!.getTime())));
	// A day may be taken without its hours when no query groups it by hour or starts inside it.
	const wholeDay = (day: string) =>
		queries.every((query, index) => {
			const from = froms[index];
			if (from && day < localDay(from)) return true; // before this query's start: not counted by it
			return query.by !== 'hour' && (!from || hourStart(day, 0) >= from);
		});
	// Days that may be read merged into one entry: each query counts none of them, or all of them without telling them apart.
	const mergeable = (days: readonly string[]) =>
		queries.every((query, index) => {
			const from = froms[index];
			const first = from ? localDay(from) : '';
			if (days.every(day => day < first)) return true;
			if (query.by === 'day' || query.by === 'hour') return false;
			return !from || days.every(day => day >= first && hourStart(day, 0) >= from);
		});
	const [names, docs] = await Promise.all([currentNames(store, new Set(queries.map(query => query.by))), journals(store).list().then(all => readDays(store, all, {from: earliest, wholeDay, mergeable}, settled))]);
	return queries.map((query, index) => groupDays(docs, query, froms[index], names));
}

/** The first hour a query counts, or undefined for all that is retained. */
function fromHourOf(query: UsageQuery): Date | undefined {
	const since = query.since ?? (query.by === 'hour' ? startOfToday() : undefined);
	return since ? new Date(since.getFullYear(), since.getMonth(), since.getDate(), since.getHours()) : undefined;
}

function groupDays(docs: readonly DayTotals[], query: UsageQuery, fromHour: Date | undefined, names: Names): UsageReport {
	const groups = new Map<string, Group>();
	const all = new Set<string>();
	// Days before the first are passed over whole; only the first day's hours are compared.
	const fromDay = fromHour ? localDay(fromHour) : '';
	for (const doc of docs) {
		if (doc.day < fromDay) continue;
		const partial = doc.day === fromDay && hourStart(doc.day, 0) < fromHour!;
		for (const bucket of doc.buckets) {
			if (partial && hourStart(doc.day, bucket.hour) < fromHour!) continue;
			if (query.routedOnly && bucket.channelId === null) continue;
			const [id, group, label] = dimension(query.by, doc.day, bucket, names);
			let entry = groups.get(group);
			if (!entry) groups.set(group, (entry = {group: label, ...(id ? {id} : {}), totals: emptyTotals(), instances: new Set()}));
			addTotals(entry.totals, bucket);
			entry.instances.add(doc.instance);
			all.add(doc.instance);
		}
	}
	const rows = [...groups.values()].map(entry => ({...toRow(entry), instances: entry.instances.size}));
	if (query.by === 'day' || query.by === 'hour') rows.sort((a, b) => compareIso(a.group, b.group));
	else rows.sort((a, b) => b.costUsd - a.costUsd || b.requests - a.requests || a.group.localeCompare(b.group));
	return {rows, instances: all.size};
}

/** Totals per key id, over everything retained. */
export async function keyTotals(store: Store): Promise<Map<string, UsageRow>> {
	const rows = await usageSummary(store, {by: 'key'});
	return new Map(rows.flatMap(row => (row.id ? [[row.id, row] as const] : [])));
}

/** The newest `count` request records, oldest first. */
export async function recentRequests(store: Store, count: number): Promise<RequestRecord[]> {
	return (await readTail(store, await journals(store).list(), count)).records;
}

export type WatchOptions = {
	/** Yield the newest records first (like `tail -n`). */
	readonly tail?: number;
	readonly pollMs?: number;
	/** Ends the watch. */
	readonly signal?: AbortSignal;
};

/** The request log read as it grows: what lands after it was opened. */
export type RequestLogReader = {
	/**
	 * The records that landed since it was opened or last polled (by any gateway sharing the store),
	 * oldest first. With `newest`, only that many of the newest: chunks that hold only older ones are
	 * marked read without being read (a log that shows the newest few need not parse the rest).
	 */
	poll(newest?: number): Promise<RequestRecord[]>;
	/** How many chunks it remembers reading: those the journals list (pruned ones are forgotten at the next poll). */
	readonly tracked: number;
};

export type OpenLogOptions = {
	/** How many of the newest records to read at once. */
	readonly tail?: number;
	/**
	 * Also every record since `since` (the TUI's charts: the last hour), up to `max` in all: newest
	 * chunks are read until neither `tail` nor the reach can take an older record.
	 */
	readonly reach?: {readonly since: Date; readonly max: number};
	/** An instance whose later records a poll leaves out: this process's own, already seen live. */
	readonly skip?: string;
};

/**
 * The request log as opened: its newest records (oldest first) apart from the reader of what lands
 * after them, so a reader kept to follow the log does not keep them too.
 */
export type OpenedRequestLog = {readonly tail: readonly RequestRecord[]; readonly reader: RequestLogReader};

/**
 * Open the request log: its newest `tail` records (and, with `reach`, those since a time), and a
 * reader of what lands after them. A poll reads the journals (a small entry per gateway instance)
 * and only the chunks that grew since.
 */
export async function openRequestLog(store: Store, {tail = 0, reach, skip}: OpenLogOptions = {}): Promise<OpenedRequestLog> {
	const all = await journals(store).list();
	/** Chunk id → how many of its records were read (or passed over). */
	let seen = new Map(all.flatMap(journal => journal.chunks.map(entry => [chunkId(journal.instance, entry.seq), entry.count] as const)));
	const read = tail > 0 || reach ? await readTail(store, all, tail, reach) : {records: [], chunks: []};
	for (const chunk of read.chunks) seen.set(chunkId(chunk.instance, chunk.seq), Math.max(seen.get(chunkId(chunk.instance, chunk.seq)) ?? 0, chunk.records.length));
	const reader: RequestLogReader = {
		get tracked() {
			return seen.size;
		},
		async poll(newest = Number.POSITIVE_INFINITY) {
			// Only the chunks the journals list now are remembered: the map stays the size of the retained log.
			const listed = new Map<string, number>();
			const grown: Array<{readonly id: string; readonly known: number; readonly count: number; readonly last: string}> = [];
			for (const journal of await journals(store).list()) {
				if (journal.instance === skip) continue;
				for (const entry of journal.chunks) {
					const id = chunkId(journal.instance, entry.seq);
					const known = seen.get(id) ?? 0;
					listed.set(id, known);
					if (entry.count > known) grown.push({id, known, count: entry.count, last: entry.last});
				}
			}
			seen = listed;
			// Newest chunks first, until `newest` records are found that no older chunk can displace.
			grown.sort((a, b) => (a.last < b.last ? 1 : a.last > b.last ? -1 : 0));
			let fresh: RequestRecord[] = [];
			for (const entry of grown) {
				if (fresh.length >= newest && entry.last < fresh[fresh.length - newest]!.time) {
					seen.set(entry.id, entry.count);
					continue;
				}
				const chunk = await chunks(store).get(entry.id);
				if (!chunk || chunk.records.length <= entry.known) continue;
				fresh = [...fresh, ...chunk.records.slice(entry.known)].sort(byTime);
				seen.set(entry.id, chunk.records.length);
			}
			return fresh.length > newest ? fresh.slice(-newest) : fresh;
		},
	};
	return {tail: read.records, reader};
}

/** The newest records, then every record that lands in the store, as it lands, until `signal` aborts. */
export async function* watchRequests(store: Store, options: WatchOptions = {}): AsyncGenerator<RequestRecord> {
	const {tail, reader} = await openRequestLog(store, {tail: options.tail});
	yield* tail;
	while (!options.signal?.aborted) {
		try {
			await sleep(options.pollMs ?? 500, undefined, {signal: options.signal});
		} catch {
			return;
		}
		yield* await reader.poll();
	}
}

const byTime = (a: RequestRecord, b: RequestRecord) => compareIso(a.time, b.time);

/**
 * Read chunks newest first until `count` records are found that no older chunk can displace and,
 * with `reach`, until the chunks left end before `reach.since` or `reach.max` records are found that
 * no older chunk can displace: the newest `count`, and every record since `reach.since` up to `reach.max`.
 */
async function readTail(store: Store, all: readonly Journal[], count: number, reach?: OpenLogOptions['reach']): Promise<{records: RequestRecord[]; chunks: Chunk[]}> {
	const entries = all
		.flatMap(journal => journal.chunks.map(entry => ({...entry, id: chunkId(journal.instance, entry.seq)})))
		.sort((a, b) => compareIso(b.last, a.last));
	const since = reach?.since.toISOString();
	const most = Math.max(count, reach?.max ?? 0);
	const read: Chunk[] = [];
	let found: RequestRecord[] = [];
	/** Whether the newest `n` found are all newer than every record of the chunk at `index` and after. */
	const holds = (n: number, index: number) => n <= 0 || (found.length >= n && entries[index]!.last < found[found.length - n]!.time);
	/** Whether the chunk at `index`, and every older one, can add nothing asked for. */
	const done = (index: number) => holds(count, index) && (!reach || entries[index]!.last < since! || holds(reach.max, index));
	// Four chunks at a time, each checked against what was found before the batch: a batch never reads a chunk that was not wanted then.
	for (let index = 0; index < entries.length && most > 0; ) {
		const next: Array<(typeof entries)[number]> = [];
		while (next.length < 4 && index < entries.length && !done(index)) next.push(entries[index++]!);
		if (next.length === 0) break;
		const batch = await Promise.all(next.map(entry => chunks(store).get(entry.id)));
		for (const chunk of batch) if (chunk) read.push(chunk);
		found = [...found, ...batch.flatMap(chunk => chunk?.records ?? [])].sort(byTime);
	}
	const first = since === undefined ? -1 : found.findIndex(record => record.time >= since);
	const reached = first === -1 ? 0 : found.length - first;
	const keep = Math.min(most, Math.max(count, reached));
	return {records: keep > 0 ? found.slice(-keep) : [], chunks: read};
}

/**
 * The day totals of the days from `from` on (every retained day without it). The settled days of a
 * month, when all are wanted whole, come from the month's sum (see `monthDays`) — or, with
 * `settled`, once it took them so, from that cache; every other day is read (and, with `settled`,
 * kept once settled). Such a month whose days are `mergeable` (no query tells them apart, each
 * counts all or none) is read merged over its days instead (see `mergedMonth`), as one entry dated
 * its first day — with `settled`, kept merged there.
 */
async function readDays(
	store: Store,
	all: readonly Journal[],
	wanted: {readonly from: Date | undefined; readonly wholeDay: (day: string) => boolean; readonly mergeable: (days: readonly string[]) => boolean},
	settled?: SettledDays,
): Promise<DayTotals[]> {
	const {from, wholeDay} = wanted;
	const fromDay = from ? localDay(from) : '';
	const settledDay = settledDayOf(settled?.now() ?? Date.now());
	const months: MonthOfDays[] = [];
	const mergedWanted: MonthOfDays[] = [];
	/** Every month with settled days the journals list. */
	const listedMonths = new Set<string>();
	const single: Array<{readonly id: string; readonly day: string}> = [];
	for (const journal of all) {
		// The settled days of each month (all of a month long over; the first of this one), apart from the days still written.
		const byMonth = new Map<string, string[]>();
		for (const day of journal.days) {
			if (day >= settledDay) {
				if (day >= fromDay) single.push({id: dayId(journal.instance, day), day});
				continue;
			}
			const month = day.slice(0, 7);
			const days = byMonth.get(month);
			if (days) days.push(day);
			else byMonth.set(month, [day]);
		}
		for (const [month, days] of byMonth) {
			listedMonths.add(monthId(journal.instance, month));
			const whole = days.every(day => day >= fromDay && wholeDay(day));
			if (whole && wanted.mergeable(days)) mergedWanted.push({instance: journal.instance, month, days});
			// A cache that took this month from its sum once keeps its days from then on (and reads two a time again).
			else if (whole && !settled?.tookMonth(monthId(journal.instance, month))) months.push({instance: journal.instance, month, days});
			else for (const day of days) if (day >= fromDay) single.push({id: dayId(journal.instance, day), day});
		}
	}
	const [fromMerged, fromMonths] = await Promise.all([
		readMerged(store, mergedWanted, listedMonths, settled),
		Promise.all(months.map(({instance, month, days}) => monthDays(store, instance, month, days))).then(docs => docs.flat()),
	]);
	if (settled) {
		for (const {instance, month} of months) settled.takeMonth(monthId(instance, month));
		for (const doc of fromMonths) settled.keep(dayId(doc.instance, doc.day), doc);
	}
	if (!settled) {
		const docs = await Promise.all(single.map(({id}) => dayTotals(store).get(id)));
		return [...fromMerged, ...fromMonths, ...docs.flatMap(doc => (doc ? [doc] : []))];
	}
	settled.forgetUnlisted(new Set(all.flatMap(journal => journal.days.map(day => dayId(journal.instance, day)))));
	const recheck = settled.dueForRecheck(new Set(single.map(({id}) => id)));
	const docs = await Promise.all(
		single.map(async ({id, day}) => {
			const whole = wholeDay(day);
			const kept = whole && !recheck.has(id) ? settled.get(id) : undefined;
			if (kept) return kept;
			const before = recheck.has(id) ? settled.get(id) : undefined;
			const doc = await dayTotals(store).get(id);
			if (!doc) {
				settled.forget(id); // listed but gone (a journal written before its day, a store pruned by hand)
				return undefined;
			}
			const compact = settled.keep(id, doc);
			// A settled day found changed was written after all (a clock set back): the sums of its month
			// hold what it was, and are made again by the next reader that needs them.
			if (before && compact && requestsIn(before) !== requestsIn(compact)) await forgetSums(store, monthId(doc.instance, day.slice(0, 7)));
			return whole ? (compact ?? doc) : doc;
		}),
	);
	return [...fromMerged, ...fromMonths, ...docs.flatMap(doc => (doc ? [doc] : []))];
}

/** The settled days of one instance's month that a read takes together (from a sum, or merged). */
type MonthOfDays = {readonly instance: string; readonly month: string; readonly days: readonly string[]};

/**
 * Months read merged over their days: from the cache when it holds one made from the same days,
 * else from the store (`mergedMonth`), then kept. Before that, the cache reads again one day of each
 * of the `recheckPerRead` months checked longest ago (a day at a time, in turn) and compares its
 * requests with what the month was made from: a day written after all (a clock set back) has its
 * month's sums deleted and the month made again, here and in the store.
 */
async function readMerged(
	store: Store,
	wanted: readonly MonthOfDays[],
	listedMonths: ReadonlySet<string>,
	settled?: SettledDays,
): Promise<DayTotals[]> {
	if (settled) {
		settled.forgetMergedExcept(listedMonths);
		const due = settled.dueMerged(new Set(wanted.map(({instance, month}) => monthId(instance, month))));
		await Promise.all(
			due.map(async ({id, instance, day, requests}) => {
				const doc = await dayTotals(store).get(dayId(instance, day));
				if ((doc ? requestsIn(doc) : 0) === requests) return;
				settled.forgetMerged(id);
				await forgetSums(store, id);
			}),
		);
	}
	const docs = await Promise.all(
		wanted.map(async ({instance, month, days}) => {
			const id = monthId(instance, month);
			const kept = settled?.merged(id, days);
			if (kept) return kept.doc;
			const read = await mergedMonth(store, instance, month, days);
			settled?.keepMerged(id, instance, read);
			return read.doc;
		}),
	);
	return docs.flatMap(doc => (doc ? [doc] : []));
}

/**
 * The settled days of a month, from its sum (`usage-months:<instance>:<month>`): a year of usage
 * read as twelve entries of days merged over their hours, not 365 of hourly buckets (`keys list`,
 * `usage` and the TUI's first frame read every retained day: a year of 120 buckets a day was
 * 0.7–1.0 s of parsing on the slower host). Made by the first reader that needs it, from the day
 * totals, and made again when the settled days the journal lists for the month are no longer those
 * it was made from: once a day in the current month as another day settles, and when retention
 * removed some (retention also deletes the sums of the months it prunes). Writing it is best
 * effort: a store this reader may not write is read the long way.
 */
async function monthDays(store: Store, instance: string, month: string, listed: readonly string[]): Promise<DayTotals[]> {
	const id = monthId(instance, month);
	const days = [...listed].sort();
	const asDays = (sum: MonthTotals) => sum.days.map(entry => ({v: 1 as const, instance, day: entry.day, buckets: entry.buckets}));
	const stored = await monthTotals(store)
		.get(id)
		.catch(() => undefined); // unreadable (written by a later version?): made again below
	if (stored && sameDays(stored.listed, days)) return asDays(stored);
	const docs = await Promise.all(days.map(day => dayTotals(store).get(dayId(instance, day))));
	const sum: MonthTotals = {v: 1, instance, month, listed: days, days: docs.flatMap(doc => (doc ? [{day: doc.day, buckets: mergeHours(doc).buckets}] : []))};
	await monthTotals(store)
		.set(id, sum)
		.catch(() => {});
	return asDays(sum);
}

/**
 * The settled days of a month merged over the days as well, from `usage-months-merged:<instance>:<month>`,
 * as one entry dated the month's first listed day: for the readers that do not tell its days apart
 * (`keys list`, `usage` by key, model or channel, the TUI's first frame). A month's sum holds a day's buckets for each day —
 * a year of a few keys and models was ~4,400 buckets to parse and add up, twice `keys list`'s own
 * time; merged, a dozen a month. Made from the month's sum (`monthDays`) by the first such reader
 * and made again, like it, when the days the journal lists for the month change; best effort too.
 */
async function mergedMonth(store: Store, instance: string, month: string, listed: readonly string[]): Promise<MergedRead> {
	const id = monthId(instance, month);
	const days = [...listed].sort();
	const stored = await mergedMonths(store)
		.get(id)
		.catch(() => undefined); // unreadable (written by a later version?): made again below
	const read = (sum: MergedMonth): MergedRead => ({doc: sum.buckets.length === 0 ? undefined : {v: 1, instance, day: days[0]!, buckets: sum.buckets}, listed: sum.listed, requests: sum.requests});
	if (stored && stored.listed.length === stored.requests.length && sameDays(stored.listed, days)) return read(stored);
	const docs = await monthDays(store, instance, month, days);
	const byDay = new Map(docs.map(doc => [doc.day, requestsIn(doc)]));
	const buckets = mergeHours({v: 1, instance, day: days[0]!, buckets: docs.flatMap(doc => doc.buckets)}).buckets;
	const sum: MergedMonth = {v: 1, instance, month, listed: days, requests: days.map(day => byDay.get(day) ?? 0), buckets};
	await mergedMonths(store)
		.set(id, sum)
		.catch(() => {});
	return read(sum);
}

/** A month merged over its days, as a reader uses it: one entry (none when it had no totals), and the requests of each day it was made from. */
type MergedRead = {readonly doc: DayTotals | undefined; readonly listed: readonly string[]; readonly requests: readonly number[]};

function requestsIn(doc: DayTotals): number {
	let requests = 0;
	for (const bucket of doc.buckets) requests += bucket.requests;
	return requests;
}

/** Delete a month's sums (best effort: a store this reader may not write keeps them until their days change). */
async function forgetSums(store: Store, id: string): Promise<void> {
	await Promise.all([monthTotals(store).delete(id), mergedMonths(store).delete(id)]).catch(() => {});
}

/** Whether a sum's days are `sorted` (sorted). */
function sameDays(listed: readonly string[], sorted: readonly string[]): boolean {
	return listed.length === sorted.length && [...listed].sort().every((day, index) => day === sorted[index]);
}

/** The newest day that is settled at `now`: three days before the reader's own. */
function settledDayOf(now: number): string {
	return localDay(new Date(now - settledAfterMs));
}

/** A settled day is this long before the reader's own day: no gateway writes it any more, whatever its time zone (±14 h) or a request still running across midnight. */
const settledAfterMs = 3 * 86_400_000;
/** Kept days read again on each read, oldest-checked first: a day written after all (a clock set back) is seen within a few minutes. */
const recheckPerRead = 2;

/**
 * The totals of settled days, kept between reads by a process that reads usage again and again (the
 * TUI: a few seconds after requests finish, and every 5 s for other gateways sharing the store). Each
 * read used to read and parse every retained day — a year of a few keys and models in the working
 * hours (120 hourly buckets a day) was 1.2–1.4 s of the UI thread and ~110 MB of garbage, every 5 s.
 * A day three days past is written by no gateway any more (its totals go to the day each request
 * arrived, in the writer's time zone), so it is kept after one read: merged over its hours (the
 * rows by key, model, channel and day need no hours; a query that groups by hour or starts inside the
 * day reads it whole), about a tenth of its buckets. Two kept days are read again on each read, so
 * one written after all is corrected within minutes (and its month's sums in the store deleted, to
 * be made again with it); days retention removed are forgotten. A month long over whose days no
 * query tells apart (the Usage view's never do) is kept merged over its days instead, and rechecked
 * a day at a time (see `readMerged`).
 */
export class SettledDays {
	/** Day id → the day's totals merged over its hours; oldest-checked first (a Map keeps insertion order). */
	private readonly days = new Map<string, DayTotals>();
	/** Months (`instance:YYYY-MM`) whose days were taken from their sum: never from it again. */
	private readonly months = new Set<string>();
	/** Months kept merged over their days, with the day of each to read again next; oldest-checked first. */
	private readonly mergedMonths = new Map<string, {readonly instance: string; readonly read: MergedRead; next: number}>();

	constructor(readonly now: () => number = Date.now) {}

	get size(): number {
		return this.days.size;
	}

	get(id: string): DayTotals | undefined {
		return this.days.get(id);
	}

	/** The ids to read again this time: of those `wanted`, the `recheckPerRead` checked longest ago. */
	dueForRecheck(wanted: ReadonlySet<string>): ReadonlySet<string> {
		const due = new Set<string>();
		for (const id of this.days.keys()) {
			if (due.size >= recheckPerRead) break;
			if (wanted.has(id)) due.add(id);
		}
		return due;
	}

	/** Keep a day just read if it is settled (returns its merged form; undefined for a day still written). */
	keep(id: string, doc: DayTotals): DayTotals | undefined {
		if (doc.day >= settledDayOf(this.now())) return undefined;
		const compact = doc.buckets.every(bucket => bucket.hour === 0) ? doc : mergeHours(doc);
		this.days.delete(id); // to the end of the order: checked just now
		this.days.set(id, compact);
		return compact;
	}

	tookMonth(id: string): boolean {
		return this.months.has(id);
	}

	takeMonth(id: string): void {
		this.months.add(id);
	}

	forget(id: string): void {
		this.days.delete(id);
	}

	forgetUnlisted(listed: ReadonlySet<string>): void {
		for (const id of this.days.keys()) if (!listed.has(id)) this.days.delete(id);
	}

	/** How many months are kept merged over their days. */
	get mergedSize(): number {
		return this.mergedMonths.size;
	}

	/** A month kept merged, if it was made from these days. */
	merged(id: string, days: readonly string[]): MergedRead | undefined {
		const kept = this.mergedMonths.get(id);
		return kept && sameDays(kept.read.listed, [...days].sort()) ? kept.read : undefined;
	}

	keepMerged(id: string, instance: string, read: MergedRead): void {
		this.mergedMonths.delete(id);
		this.mergedMonths.set(id, {instance, read, next: 0});
	}

	/** Of the months `wanted`, the `recheckPerRead` checked longest ago: the day of each to read again now (each month's days in turn). */
	dueMerged(wanted: ReadonlySet<string>): Array<{readonly id: string; readonly instance: string; readonly day: string; readonly requests: number}> {
		const due: Array<{id: string; instance: string; day: string; requests: number}> = [];
		for (const [id, kept] of this.mergedMonths) {
			if (due.length >= recheckPerRead) break;
			if (!wanted.has(id) || kept.read.listed.length === 0) continue;
			const index = kept.next % kept.read.listed.length;
			due.push({id, instance: kept.instance, day: kept.read.listed[index]!, requests: kept.read.requests[index] ?? 0});
		}
		for (const {id} of due) {
			const kept = this.mergedMonths.get(id)!;
			kept.next += 1;
			this.mergedMonths.delete(id); // to the end of the order: checked just now
			this.mergedMonths.set(id, kept);
		}
		return due;
	}

	forgetMerged(id: string): void {
		this.mergedMonths.delete(id);
	}

	/** Forget the merged months the journals no longer list settled days of (retention removed them). */
	forgetMergedExcept(listed: ReadonlySet<string>): void {
		for (const id of this.mergedMonths.keys()) if (!listed.has(id)) this.mergedMonths.delete(id);
	}
}

/** A day's buckets merged over the hours (each one's hour reads 0): the same totals by key, channel, model and day. */
function mergeHours(doc: DayTotals): DayTotals {
	const merged = new Map<string, Bucket>();
	for (const bucket of doc.buckets) {
		const id = `${bucket.keyId ?? '\u0001'}\u0000${bucket.keyName ?? '\u0001'}\u0000${bucket.channelId ?? '\u0001'}\u0000${bucket.channelName ?? '\u0001'}\u0000${bucket.model}`;
		const into = merged.get(id);
		if (into) addTotals(into, bucket);
		else merged.set(id, {...bucket, hour: 0, latency: {...bucket.latency}});
	}
	return {...doc, buckets: [...merged.values()]};
}

async function currentNames(store: Store, by: ReadonlySet<UsageGroupBy>): Promise<Names> {
	const [keys, channels] = await Promise.all([by.has('key') ? listKeys(store) : [], by.has('channel') ? listChannels(store) : []]);
	return {keys: new Map(keys.map(key => [key.id, key.name])), channels: new Map(channels.map(channel => [channel.id, channel.name]))};
}

/** [id, grouping key, label]: keys and channels group by id and show their current name. */
function dimension(by: UsageGroupBy, day: string, bucket: Bucket, names: Names): [string | undefined, string, string] {
	switch (by) {
		case 'key':
			return bucket.keyId ? [bucket.keyId, bucket.keyId, names.keys.get(bucket.keyId) ?? bucket.keyName ?? bucket.keyId] : [undefined, '', '(no key)'];
		case 'channel':
			return bucket.channelId ? [bucket.channelId, bucket.channelId, names.channels.get(bucket.channelId) ?? bucket.channelName ?? bucket.channelId] : [undefined, '', '(no channel)'];
		case 'model':
			return [undefined, bucket.model, bucket.model];
		case 'day':
			return [undefined, day, day];
		case 'hour': {
			const label = hourLabel(day, bucket.hour);
			return [undefined, label, label];
		}
		default: {
			const never: never = by;
			throw new Error(`unknown dimension ${String(never)}`);
		}
	}
}

function toRow({group, id, totals}: Group): UsageRow {
	return {
		group,
		...(id ? {id} : {}),
		requests: totals.requests,
		succeeded: totals.succeeded,
		failed: totals.failed,
		aborted: totals.aborted,
		inputTokens: totals.inputTokens,
		outputTokens: totals.outputTokens,
		cachedTokens: totals.cachedTokens,
		reasoningTokens: totals.reasoningTokens,
		costUsd: Math.round(totals.costUsd * 1e10) / 1e10,
		unpriced: totals.unpriced > 0,
		latencyP50Ms: percentile(totals.latency, 0.5),
		latencyP95Ms: percentile(totals.latency, 0.95),
	};
}
