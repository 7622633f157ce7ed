/**
 * The live request log: the last `limit` finished requests, newest first, and the number seen since
 * start. Bounded, so a long session costs the same memory as a short one.
 */
import {isFailure, type EventBus, type RequestFinished} from '../base/events.js';
import {ExternalStore} from './external-store.js';

export type RequestLogSnapshot = {
	/** Newest first. */
	readonly entries: readonly RequestFinished[];
	/** Every request finished since the TUI started, also those that fell out of `entries`. */
	readonly total: number;
	readonly failed: number;
};

export const requestLogLimit = 500;

export type RequestLogPace = {
	/** The least time between two redraws of the log while requests arrive slower than `busyPerSecond`. */
	readonly intervalMs: number;
	/** … and while they arrive faster: lines that scroll by quicker than this cannot be read anyway. */
	readonly busyIntervalMs: number;
	readonly busyPerSecond: number;
};

/**
 * Four redraws a second while a person could read each new line; one a second under load, where a
 * redraw of the whole screen (a few milliseconds of the UI thread) would be spent on a blur.
 */
export const defaultPace: RequestLogPace = {intervalMs: 250, busyIntervalMs: 1000, busyPerSecond: 20};

export function createRequestLog(events: EventBus, limit = requestLogLimit, pace: RequestLogPace = defaultPace, now: () => number = Date.now): ExternalStore<RequestLogSnapshot> {
	let entries: readonly RequestFinished[] = [];
	let total = 0;
	let failed = 0;
	// Requests arrive one by one (a gateway on this thread) or in batches (the core's worker); either
	// way they are queued and folded into the log at most once per interval, never per request.
	let incoming: RequestFinished[] = [];
	let timer: NodeJS.Timeout | undefined;
	// The arrival rate, over windows of at least a second: a request after a quiet spell closes a
	// long window with few requests in it, so the log is quick again at once.
	let windowStart = now();
	let windowCount = 0;
	let busy = false;
	const arrived = (count: number) => {
		windowCount += count;
		const elapsed = now() - windowStart;
		if (elapsed < 1000) return;
		busy = windowCount >= (pace.busyPerSecond * elapsed) / 1000;
		windowStart += elapsed;
		windowCount = 0;
	};
	const store: ExternalStore<RequestLogSnapshot> = new ExternalStore<RequestLogSnapshot>(
		{entries, total, failed},
		{
			intervalMs: () => (busy ? pace.busyIntervalMs : pace.intervalMs),
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
					arrived(count);
					timer ??= setTimeout(fold, 0);
				};
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
