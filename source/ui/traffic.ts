/** The Usage and Channels panes' charts: traffic over time, from the core or counted here. */
import type {EventBus} from '../base/events.js';
import {emptyTraffic, TrafficCounter, type TrafficSnapshot} from '../base/traffic.js';
import {ExternalStore} from './external-store.js';

export {emptyTraffic, percentile, TrafficCounter, type Series, type TrafficSnapshot} from '../base/traffic.js';

/**
 * The traffic for the charts: the core's snapshots (`traffic:snapshot`, sent by the gateway worker
 * about once a second), or — where requests finish on this thread (tests, no worker) — counted here
 * from `request:finished`. Republished at least every `tickMs` so the charts move on when idle.
 */
export function createTraffic(events: EventBus, intervalMs = 500, tickMs = 15_000): ExternalStore<TrafficSnapshot> {
	const counter = new TrafficCounter();
	const store: ExternalStore<TrafficSnapshot> = new ExternalStore<TrafficSnapshot>(emptyTraffic(), intervalMs, () => {
		let pending: NodeJS.Timeout | undefined;
		const offSingle = events.on('request:finished', event => {
			counter.record(event);
			// The snapshot sorts latencies: computed at most once per interval, not per request.
			pending ??= setTimeout(() => {
				pending = undefined;
				store.set(counter.snapshot());
			}, intervalMs);
		});
		const offCore = events.on('traffic:snapshot', snapshot => store.set(snapshot));
		const off = () => {
			offSingle();
			offCore();
			if (pending) clearTimeout(pending);
		};
		const timer = setInterval(() => store.set(counter.snapshot()), tickMs);
		timer.unref();
		return () => {
			off();
			clearInterval(timer);
		};
	});
	return store;
}
