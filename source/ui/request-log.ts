/**
 * The live request log: the last `limit` finished requests, newest first, and the number seen since
 * start. Bounded, so a long session costs the same memory as a short one. It opens with the stored
 * history (`stored`: the newest requests the store recorded before this session, read once, in the
 * background) behind whatever arrived live meanwhile, and can follow other gateways' requests.
 */
import {isFailure, type EventBus, type RequestFinished} from '../base/events.js';
import {ExternalStore} from './external-store.js';
import type {RedrawFrames} from './redraw-frames.js';
import type {OpenedRequestLog, OpenLogOptions, RequestLogReader} from '../store/usage-summary.js';

export type RequestLogSnapshot = {
	/** Newest first. */
	readonly entries: readonly RequestFinished[];
	/** Every request finished since the TUI started, also those that fell out of `entries`. */
	readonly total: number;
	readonly failed: number;
};

export const requestLogLimit = 500;

/**
 * How many of the last hour's stored requests the log reads when it opens, for the charts (which
 * count them per minute): beyond its own `limit`, so a restart after a busy hour does not show the
 * charts from the newest 500 on. Read once, in the background; not kept (the log keeps its `limit`).
 */
export const chartHistoryLimit = 5000;

export type RequestLogOptions = {
	/** How many requests it keeps (`requestLogLimit`). */
	readonly limit?: number;
	/** The least time between two redraws of the log (250 ms: four a second, while a person can read each new line). */
	readonly intervalMs?: number;
	/** Under load the log redraws with the other views, once a frame (redraw-frames.ts: once a second). */
	readonly frames?: RedrawFrames;
	/**
	 * The store's request log (store/usage-summary.ts, `openRequestLog`), opened when the log is first
	 * watched, asked for the number of records the log keeps (`tail`) and the last hour's up to
	 * `historyLimit` (`reach`): the newest are shown behind whatever arrived live meanwhile (a request
	 * both stored and seen live shows once), and all of them are announced for the charts
	 * (`requests:history`). With `followMs`, it is polled that often for the requests other gateways
	 * sharing the store record (the reader leaves out this process's own, which arrive
	 * live). An unreadable log leaves the live requests (the Usage pane reports an unreadable store
	 * with its totals) and is tried again every `followMs` (5 s without) while the log is watched.
	 */
	readonly stored?: {readonly open: (want: Required<Pick<OpenLogOptions, 'tail' | 'reach'>>) => Promise<OpenedRequestLog>; readonly followMs?: number};
	/** How many of the last hour's stored requests it reads when it opens, for the charts (`chartHistoryLimit`). */
	readonly historyLimit?: number;
};

const hourMs = 3_600_000;

/** How soon an unreadable store log is tried again, for a log that does not follow the store. */
const retryOpenMs = 5000;

const newestFirst = (a: RequestFinished, b: RequestFinished) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0);

export function createRequestLog(events: EventBus, options: RequestLogOptions = {}): ExternalStore<RequestLogSnapshot> {
	const {limit = requestLogLimit, historyLimit = chartHistoryLimit, stored} = options;
	let entries: readonly RequestFinished[] = [];
	let total = 0;
	let failed = 0;
	// Requests arrive one by one (a gateway on this thread) or in batches (the core's worker); either
	// way they are queued and folded into the log at most once per interval, never per request.
	let incoming: RequestFinished[] = [];
	let timer: NodeJS.Timeout | undefined;
	/** The store's log: not opened yet (or unreadable at the last try), being opened, or open. */
	let reader: RequestLogReader | 'closed' | 'opening' = 'closed';
	let retry: NodeJS.Timeout | undefined;
	let connected = false;
	let follow: NodeJS.Timeout | undefined;
	let polling = false;

	const fold = () => {
		timer = undefined;
		entries = [...incoming.reverse(), ...entries].slice(0, limit);
		incoming = [];
		store.set({entries, total, failed});
	};
	const queue = (recent: readonly RequestFinished[], count: number, failures: number) => {
		incoming.push(...recent.slice(-limit));
		if (incoming.length > limit) incoming = incoming.slice(-limit);
		total += count;
		failed += failures;
		timer ??= setTimeout(fold, 0);
	};
	/** Add the stored requests behind the live ones (newest first; a request both stored and seen live once). */
	const addHistory = (records: readonly RequestFinished[]) => {
		const shown = new Set([...entries, ...incoming].map(entry => entry.id));
		const older = records.filter(record => !shown.has(record.id));
		if (older.length === 0) return;
		entries = [...entries, ...older.slice(-limit)].sort(newestFirst).slice(0, limit);
		store.set({entries, total, failed});
		events.emit('requests:history', older);
	};
	/** Poll the store's log for what other gateways recorded (one poll at a time; a failed one is tried again at the next). */
	const startFollowing = (opened: RequestLogReader) => {
		if (!stored?.followMs || follow) return;
		follow = setInterval(() => {
			if (polling) return;
			polling = true;
			opened
				.poll(limit)
				.then(
					// Announced on the bus, for the other views too (the totals are read again after requests).
					records => {
						if (records.length > 0) events.emit('requests:stored', {recent: records, count: records.length, failed: records.filter(isFailure).length});
					},
					() => {},
				)
				.finally(() => (polling = false));
		}, stored.followMs);
	};
	const openStored = () => {
		if (!stored || reader !== 'closed') return;
		reader = 'opening';
		stored.open({tail: limit, reach: {since: new Date(Date.now() - hourMs), max: historyLimit}}).then(
			opened => {
				reader = opened.reader;
				addHistory(opened.tail);
				if (connected) startFollowing(opened.reader);
			},
			// Unreadable now (a store restarting, an outage): tried again while the log is watched, so
			// the history and other gateways' requests show once it answers; live requests show meanwhile.
			() => {
				reader = 'closed';
				if (connected) retry = setTimeout(openStored, stored.followMs ?? retryOpenMs);
			},
		);
	};

	const store: ExternalStore<RequestLogSnapshot> = new ExternalStore<RequestLogSnapshot>(
		{entries, total, failed},
		{
			intervalMs: options.intervalMs ?? 250,
			frames: options.frames,
			connect: () => {
				connected = true;
				if (typeof reader === 'object') startFollowing(reader);
				else openStored();
				const offSingle = events.on('request:finished', event => queue([event], 1, isFailure(event) ? 1 : 0));
				const offBatch = events.on('requests:batch', batch => queue(batch.recent, batch.count, batch.failed));
				const offStored = events.on('requests:stored', batch => queue(batch.recent, batch.count, batch.failed));
				return () => {
					connected = false;
					clearTimeout(retry);
					if (follow) clearInterval(follow);
					follow = undefined;
					offSingle();
					offBatch();
					offStored();
					if (timer) clearTimeout(timer);
					timer = undefined;
				};
			},
		},
	);
	return store;
}

export {isFailure};
