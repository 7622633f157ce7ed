/**
 * The live request log: the last `limit` finished requests, newest first, and the number seen since
 * start. Bounded, so a long session costs the same memory as a short one. It opens with the stored
 * history (`history`: the newest requests the store recorded before this session, read once, in the
 * background) behind whatever arrived live meanwhile.
 */
import {isFailure, type EventBus, type RequestFinished} from '../base/events.js';
import {ExternalStore} from './external-store.js';
import type {RedrawFrames} from './redraw-frames.js';

export type RequestLogSnapshot = {
	/** Newest first. */
	readonly entries: readonly RequestFinished[];
	/** Every request finished since the TUI started, also those that fell out of `entries`. */
	readonly total: number;
	readonly failed: number;
};

export const requestLogLimit = 500;

export type RequestLogOptions = {
	/** How many requests it keeps (`requestLogLimit`). */
	readonly limit?: number;
	/** The least time between two redraws of the log (250 ms: four a second, while a person can read each new line). */
	readonly intervalMs?: number;
	/** Under load the log redraws with the other views, once a frame (redraw-frames.ts: once a second). */
	readonly frames?: RedrawFrames;
	/**
	 * The requests recorded before (the store's newest, in any order); read when the log is first
	 * watched. A request already shown live is not shown twice; an unreadable history leaves the log
	 * to the live requests (the Usage pane reports an unreadable store with its totals).
	 */
	readonly history?: () => Promise<readonly RequestFinished[]>;
};

const newestFirst = (a: RequestFinished, b: RequestFinished) => b.time.localeCompare(a.time);

export function createRequestLog(events: EventBus, options: RequestLogOptions = {}): ExternalStore<RequestLogSnapshot> {
	const {limit = requestLogLimit} = options;
	let entries: readonly RequestFinished[] = [];
	let total = 0;
	let failed = 0;
	// Requests arrive one by one (a gateway on this thread) or in batches (the core's worker); either
	// way they are queued and folded into the log at most once per interval, never per request.
	let incoming: RequestFinished[] = [];
	let timer: NodeJS.Timeout | undefined;
	let history = options.history;
	/** Add the stored requests behind the live ones (newest first; a request both stored and seen live once). */
	const addHistory = (records: readonly RequestFinished[]) => {
		const shown = new Set([...entries, ...incoming].map(entry => entry.id));
		const older = records.filter(record => !shown.has(record.id));
		if (older.length === 0) return;
		entries = [...entries, ...older].sort(newestFirst).slice(0, limit);
		store.set({entries, total, failed});
	};
	const store: ExternalStore<RequestLogSnapshot> = new ExternalStore<RequestLogSnapshot>(
		{entries, total, failed},
		{
			intervalMs: options.intervalMs ?? 250,
			frames: options.frames,
			connect: () => {
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
				if (history) {
					const read = history;
					history = undefined;
					read().then(addHistory, () => {});
				}
				const offSingle = events.on('request:finished', event => queue([event], 1, isFailure(event) ? 1 : 0));
				const offBatch = events.on('requests:batch', batch => queue(batch.recent, batch.count, batch.failed));
				return () => {
					offSingle();
					offBatch();
					if (timer) clearTimeout(timer);
					timer = undefined;
				};
			},
		},
	);
	return store;
}

export {isFailure};
