/**
 * The usage recorder: turns `request:finished` events into request records and hourly totals in
 * memory (cheap, on the event), and writes them to the store in batches off the request path —
 * every `flushMs` (500 ms) and on close. A `kill -9` loses what finished since the last write began:
 * one interval plus the time a write takes, under a second (the README's promise; kill-under-load
 * test). At 1 s the loss was the interval *plus* the write — 1.1 s of traffic at 2,700 requests/s.
 *
 * Everything it writes belongs to its own instance (see store/usage.ts), and totals are written
 * whole rather than as increments, so a failed write is simply retried by the next flush.
 */
import type {EventBus, RequestFinished} from '../base/events.js';
import type {Store} from '../store/index.js';
import {chunkId, chunks, dayId, dayTotals, journals, type Bucket, type Journal} from '../store/usage.js';
import {addRecord, addTotals, bucketKey, emptyBucket, localDay} from '../store/usage-buckets.js';
import {countsTowardUsage} from '../base/usage-types.js';
import {claimInstance, newJournal, newOwnerToken} from '../store/usage-instance.js';

import {defaultRetention, pruneStore, withoutPruned, type PruneResult, type Retention} from '../store/usage-retention.js';
import type {RequestRecord} from '../base/usage-types.js';
import {systemClock, type Clock} from '../base/clock.js';

/** How often usage is written: a kill -9 loses this plus the time one write takes (README: "at most a second"). */
export const defaultFlushMs = 500;

export type RecorderOptions = {
	/** Where write failures are reported (as `warning` events). */
	readonly events?: EventBus;
	readonly retention?: Retention;
	readonly flushMs?: number;
	readonly pruneMs?: number;
	/** Records per chunk. */
	readonly chunkSize?: number;
	/** Adopt a cleanly closed instance (default true). */
	readonly adopt?: boolean;
	/** Drives the flush and prune timers and the journal's times (tests pass a FakeClock); the system clock by default. */
	readonly clock?: Clock;
};

/**
 * Model names a day's totals keep apart, per instance; the requests of any further name are counted
 * under `otherModels`. The model is the one free-text part of a bucket, named by the client: a key
 * holder sending a new name with each request (a typo loop, a fuzzer) would otherwise add a bucket a
 * request to the day kept in memory, rewritten whole at every flush and read by every reader. The
 * request log keeps the name as sent.
 */
export const maxModelsPerDay = 200;
/** The model of the requests past `maxModelsPerDay` names in a day. */
export const otherModels = '(other models)';

type DayState = {loaded: boolean; dirty: boolean; readonly buckets: Map<string, Bucket>; readonly models: Set<string>};
type ChunkBuffer = {readonly records: RequestRecord[]; dirty: boolean};

export class UsageRecorder {
	private journal: Journal;
	/** Whether the journal exists in the store (adopted or written once). */
	private persisted = false;
	private journalDirty = false;
	private readonly owner = newOwnerToken();
	private readonly pending: RequestRecord[] = [];
	private readonly buffers = new Map<number, ChunkBuffer>();
	private openSeq: number | null = null;
	private readonly days = new Map<string, DayState>();
	private queue: Promise<unknown> = Promise.resolve();
	private ready: Promise<void> = Promise.resolve();
	/** Stops the flush and prune timers. */
	private readonly stops: Array<() => void> = [];
	private closed = false;
	/** A flush is waiting in the queue: a tick while one waits adds nothing (a slow store never piles them up). */
	private flushWaiting = false;
	/** A prune asked for by a write (past retention by a quarter) is queued or running. */
	private pruneQueued = false;
	private readonly clock: Clock;
	/** The local day and hour of the last record's minute (`YYYY-MM-DDTHH:MM`): records come in order, most in the same minute. */
	private lastMinute: {readonly minute: string; readonly day: string; readonly hour: number} | null = null;

	constructor(
		private readonly store: Store,
		private readonly options: RecorderOptions = {},
	) {
		this.clock = options.clock ?? systemClock;
		this.journal = newJournal(this.owner, this.date());
	}

	/** The instance this process records as (final once `start` has settled). */
	get instance(): string {
		return this.journal.instance;
	}

	/** The instance this process records as, once claimed (adopted, or its own new one). */
	async claimedInstance(): Promise<string> {
		await this.ready;
		return this.instance;
	}

	/** Claim an instance (in the background), then flush twice a second and prune every few minutes. */
	start(): void {
		const claim = this.options.adopt === false ? Promise.resolve(null) : claimInstance(this.store, this.owner);
		this.ready = claim.then(
			adopted => {
				if (!adopted) return;
				this.journal = {...adopted, chunks: [...adopted.chunks], days: [...adopted.days]};
				this.persisted = true;
			},
			(error: unknown) => this.warn('could not read the usage journals', error),
		);
		const flushMs = this.options.flushMs ?? defaultFlushMs;
		// The task's promise is handed back (never rejecting) so a fake clock can wait for the write.
		const every = (ms: number, run: () => Promise<unknown>) => {
			this.stops.push(this.clock.every(ms, () => run().then(() => {}, () => {})));
		};
		every(flushMs, () => (this.flushWaiting ? Promise.resolve() : this.flush().catch(error => this.warn('could not save usage', error))));
		every(this.options.pruneMs ?? 300_000, () => this.prune().catch(error => this.warn('could not prune the request log', error)));
		void this.ready.then(() => this.prune()).catch(error => this.warn('could not prune the request log', error));
	}

	/** Take one finished request (priced when it ended): count it. Synchronous and store-free (it runs on the event). */
	record(event: RequestFinished): RequestRecord {
		const record: RequestRecord = event;
		this.pending.push(record);
		if (countsTowardUsage(record)) {
			const {day, hour} = this.localHour(record.time);
			let state = this.days.get(day);
			if (!state) this.days.set(day, (state = {loaded: false, dirty: false, buckets: new Map(), models: new Set()}));
			const counted = this.countedModel(state, record);
			const key = bucketKey(hour, counted);
			let bucket = state.buckets.get(key);
			if (!bucket) state.buckets.set(key, (bucket = emptyBucket(hour, counted)));
			addRecord(bucket, record);
			state.dirty = true;
		}
		return record;
	}

	/** The record as its day's totals count it: under `otherModels` once the day has `maxModelsPerDay` other names. */
	private countedModel(state: DayState, record: RequestRecord): RequestRecord {
		const model = record.model ?? '';
		if (state.models.has(model)) return record;
		if (state.models.size < maxModelsPerDay) {
			state.models.add(model);
			return record;
		}
		return {...record, model: otherModels};
	}

	/**
	 * The local day and hour of an ISO time. Every time zone's offset is a whole number of minutes,
	 * so one minute of UTC is one local day and hour: parsed again only when the minute changes.
	 */
	private localHour(iso: string): {readonly day: string; readonly hour: number} {
		const last = this.lastMinute;
		if (last && iso.length === 24 && iso.startsWith(last.minute)) return last;
		const time = new Date(iso);
		const found = {minute: iso.slice(0, 16), day: localDay(time), hour: time.getHours()};
		if (iso.length === 24) this.lastMinute = found;
		return found;
	}

	/** Subscribe to `request:finished` on a bus; returns the unsubscribe function. */
	listen(events: EventBus): () => void {
		return events.on('request:finished', event => {
			if (!this.closed) this.record(event);
		});
	}

	/** Write what is pending now. Rejects if the store refused (the data stays queued for the next flush). */
	flush(): Promise<void> {
		this.flushWaiting = true;
		return this.serial(() => {
			this.flushWaiting = false;
			return this.write();
		});
	}

	/** Delete what is past retention (across all instances). */
	prune(now = this.clock.now()): Promise<PruneResult> {
		return this.serial(async () => {
			await this.ready;
			const {plan, result} = await pruneStore(this.store, this.journal, this.options.retention ?? defaultRetention, now);
			const pruned = withoutPruned(this.journal, plan);
			if (pruned.chunks.length !== this.journal.chunks.length || pruned.days.length !== this.journal.days.length) {
				this.journal = pruned;
				if (this.persisted) this.journalDirty = true;
				for (const seq of this.buffers.keys()) if (plan.chunks.has(chunkId(this.instance, seq))) this.buffers.delete(seq);
				if (this.openSeq !== null && !this.buffers.has(this.openSeq)) this.openSeq = null;
				for (const day of this.days.keys()) if (plan.days.has(dayId(this.instance, day))) this.days.delete(day);
			}
			return result;
		});
	}

	/** Final flush; marks the instance cleanly closed so the next process may adopt it. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		for (const stop of this.stops) stop();
		try {
			await this.flush();
			if (this.persisted) {
				await this.serial(() => journals(this.store).set(this.instance, {...this.journal, closedAt: this.date().toISOString(), updatedAt: this.date().toISOString()}));
			}
		} catch (error) {
			this.warn('could not save usage on shutdown', error);
		}
	}

	private serial<T>(task: () => Promise<T>): Promise<T> {
		const run = this.queue.then(task);
		this.queue = run.catch(() => {});
		return run;
	}

	private async write(): Promise<void> {
		await this.ready;
		for (const record of this.pending.splice(0)) this.append(record);
		const days = [...this.days].filter(([, state]) => state.dirty);
		for (const [day] of days) {
			if (!this.journal.days.includes(day)) {
				this.journal.days.push(day);
				this.journalDirty = true;
			}
		}
		if (!this.journalDirty && days.length === 0 && ![...this.buffers.values()].some(buffer => buffer.dirty)) return;
		// The journal goes first: a crash before the rest leaves a journal promising more than the
		// store holds (readers skip what is missing), never a chunk no journal knows of.
		if (this.journalDirty) {
			this.journalDirty = false;
			this.journal.updatedAt = this.date().toISOString();
			await restoring(() => journals(this.store).set(this.instance, {...this.journal}), () => (this.journalDirty = true));
			this.persisted = true;
		}
		for (const [day, state] of days) if (!state.loaded) await this.load(day, state);
		// The chunks and the day totals go in one write (one statement on sqlite and PostgreSQL, a
		// MULTI on Redis): separate statements were a transaction each, about forty a flush under load.
		const written = [...this.buffers].filter(([, buffer]) => buffer.dirty);
		const restore = () => {
			for (const [, buffer] of written) buffer.dirty = true;
			for (const [, state] of days) state.dirty = true;
		};
		for (const [, buffer] of written) buffer.dirty = false;
		for (const [, state] of days) state.dirty = false;
		await restoring(
			() =>
				Promise.all([
					chunks(this.store).setMany(
						written.map(([seq, buffer]) => [chunkId(this.instance, seq), {v: 1, instance: this.instance, seq, records: [...buffer.records]}] as const),
						'the request log',
					),
					dayTotals(this.store).setMany(
						days.map(([day, state]) => [dayId(this.instance, day), {v: 1, instance: this.instance, day, buckets: [...state.buckets.values()]}] as const),
						'the usage totals',
					),
				]),
			restore,
		);
		for (const [seq] of written) if (seq !== this.openSeq) this.buffers.delete(seq);
		this.forgetOldDays();
		// Only after a write that succeeded: a store that is down gets one warning a flush, not two.
		this.pruneWhenOver();
	}

	/**
	 * Queue a prune (after this flush) once this instance's own log holds a quarter more than
	 * retention keeps. The timer's five minutes are a long time at thousands of requests a second:
	 * the store would hold millions of records past the limit (a sqlite file never shrinks back),
	 * and the journal, which lists every chunk and is rewritten with each flush, would grow with them.
	 */
	private pruneWhenOver(): void {
		const chunkSize = this.options.chunkSize ?? 200;
		const limit = Math.ceil(((this.options.retention ?? defaultRetention).maxRequests * 1.25) / chunkSize) + 1;
		if (this.pruneQueued || this.closed || this.journal.chunks.length <= limit) return;
		this.pruneQueued = true;
		void this.prune()
			.catch(error => this.warn('could not prune the request log', error))
			.finally(() => (this.pruneQueued = false));
	}

	/** Add what this instance saved for the day before (an adopted instance, or a day seen again). */
	private async load(day: string, state: DayState): Promise<void> {
		const stored = await dayTotals(this.store).get(dayId(this.instance, day));
		for (const bucket of stored?.buckets ?? []) {
			state.models.add(bucket.model);
			const key = bucketKey(bucket.hour, bucket);
			const mine = state.buckets.get(key);
			if (mine) addTotals(mine, bucket);
			else state.buckets.set(key, {...bucket, latency: {...bucket.latency}});
		}
		state.loaded = true;
	}

	private append(record: RequestRecord): void {
		const chunkSize = this.options.chunkSize ?? 200;
		let buffer = this.openSeq === null ? undefined : this.buffers.get(this.openSeq);
		if (!buffer || buffer.records.length >= chunkSize) {
			this.openSeq = this.journal.nextSeq++;
			this.buffers.set(this.openSeq, (buffer = {records: [], dirty: true}));
			this.journal.chunks.push({seq: this.openSeq, count: 0, first: record.time, last: record.time});
		}
		buffer.records.push(record);
		buffer.dirty = true;
		// The open chunk is the journal's newest entry: look from the end (the journal lists every chunk kept).
		const index = this.journal.chunks.findLastIndex(item => item.seq === this.openSeq);
		const entry = this.journal.chunks[index] ?? {seq: this.openSeq!, count: 0, first: record.time, last: record.time};
		const updated = {
			seq: entry.seq,
			count: buffer.records.length,
			first: record.time < entry.first ? record.time : entry.first,
			last: record.time > entry.last ? record.time : entry.last,
		};
		if (index === -1) this.journal.chunks.push(updated);
		else this.journal.chunks[index] = updated;
		this.journalDirty = true;
	}

	/** Keep only today and yesterday in memory (a day seen again is loaded back before it is written). */
	private forgetOldDays(): void {
		const yesterday = localDay(new Date(this.clock.now() - 86_400_000));
		for (const [day, state] of this.days) if (day < yesterday && !state.dirty) this.days.delete(day);
	}

	private date(): Date {
		return new Date(this.clock.now());
	}

	private warn(what: string, error: unknown): void {
		this.options.events?.emit('warning', {message: `${what}: ${(error as Error).message}`});
	}
}

async function restoring(run: () => Promise<unknown>, restore: () => void): Promise<void> {
	try {
		await run();
	} catch (error) {
		restore();
		throw error;
	}
}
