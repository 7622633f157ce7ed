/**
 * The live request log: the last `limit` finished requests, newest first, and the number seen since
 * start. Bounded, so a long session costs the same memory as a short one.
 */
import type {EventBus, RequestFinished} from '../base/events.js';
import {ExternalStore} from './external-store.js';

export type RequestLogSnapshot = {
	/** Newest first. */
	readonly entries: readonly RequestFinished[];
	/** Every request finished since the TUI started, also those that fell out of `entries`. */
	readonly total: number;
	readonly failed: number;
};

export const requestLogLimit = 500;

export function createRequestLog(events: EventBus, limit = requestLogLimit, intervalMs = 100): ExternalStore<RequestLogSnapshot> {
	// A ring would save the copy, but 500 references copied at most ten times a second is nothing.
	let entries: RequestFinished[] = [];
	let total = 0;
	let failed = 0;
	const store: ExternalStore<RequestLogSnapshot> = new ExternalStore<RequestLogSnapshot>({entries, total, failed}, intervalMs, () =>
		events.on('request:finished', event => {
			entries = [event, ...entries.slice(0, limit - 1)];
			total++;
			if (isFailure(event)) failed++;
			store.set({entries, total, failed});
		}),
	);
	return store;
}

export function isFailure(event: Pick<RequestFinished, 'status' | 'outcome'>): boolean {
	return event.outcome !== 'ok' || event.status >= 400;
}
