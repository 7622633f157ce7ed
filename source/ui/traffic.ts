/** The Usage and Channels panes' charts: traffic over time, from the core or counted here. */
import type {EventBus, RequestFinished} from '../base/events.js';
import {emptyTraffic, sameTraffic, TrafficCounter, type TrafficSnapshot} from '../base/traffic.js';
import {ExternalStore} from './external-store.js';
import type {RedrawFrames} from './redraw-frames.js';

export {emptyTraffic, percentile, TrafficCounter, type Series, type TrafficSnapshot} from '../base/traffic.js';

/**
 * The traffic for the charts: the core's snapshots (`traffic:snapshot`, sent by the gateway worker
 * about once a second), or — where requests finish on this thread (tests, no worker) — counted here
 * from `request:finished`. What is counted here is republished every `tickMs` so the charts move on
 * when idle (the core sends its own as each minute begins); never over the core's, which it would
 * blank. A snapshot that draws what is on screen already (a quiet hour's, mostly) is dropped: each
 * one published redraws the whole screen.
 *
 * The requests other gateways record in the shared store (`requests:stored`, read by the live log
 * as it follows the store) count too, in the minute each finished, and so do those the log opened
 * with (`requests:history`: what the store recorded in the hour before this TUI started, up to
 * request-log.ts's `chartHistoryLimit`, so a restart does not blank the charts beside a full log): handed to the core (`countStored`) where one serves
 * here, so its snapshots hold them; counted here otherwise.
 */
export type TrafficOptions = {
	/** The least time between two redraws of the charts. */
	readonly intervalMs?: number;
	/** How often what is counted here is republished while idle. */
	readonly tickMs?: number;
	/** Under load the charts redraw with the other views (redraw-frames.ts). */
	readonly frames?: RedrawFrames;
	/**
	 * The core that serves here counts other gateways' requests into its snapshots (worker-host.ts);
	 * a promise while the core is starting (records that arrive meanwhile wait for it).
	 */
	readonly countStored?: CountStored | Promise<CountStored | undefined>;
};

type CountStored = (records: readonly RequestFinished[]) => void;

export function createTraffic(events: EventBus, {intervalMs = 500, tickMs = 15_000, frames, countStored}: TrafficOptions = {}): ExternalStore<TrafficSnapshot> {
	const counter = new TrafficCounter();
	// Who counts the stored requests: known at once, or once the core has started (undefined: here).
	let handOver: {readonly count: CountStored | undefined} | undefined = typeof countStored === 'object' ? undefined : {count: countStored};
	const known = typeof countStored === 'object' ? countStored.then(count => (handOver = {count}), () => (handOver = {count: undefined})) : undefined;
	const store: ExternalStore<TrafficSnapshot> = new ExternalStore<TrafficSnapshot>(emptyTraffic(), {intervalMs, equals: sameTraffic, connect: () => connect(), frames});
	return store;

	function connect(): () => void {
		let pending: NodeJS.Timeout | undefined;
		let connected = true;
		// The snapshot sorts latencies: computed at most once per interval, not per request.
		const publish = () =>
			(pending ??= setTimeout(() => {
				pending = undefined;
				store.set(counter.snapshot());
			}, intervalMs));
		const offSingle = events.on('request:finished', event => {
			counter.record(event);
			publish();
		});
		const fromStore = (records: readonly RequestFinished[]): void => {
			if (!handOver) {
				void known?.then(() => connected && fromStore(records));
				return;
			}
			if (handOver.count) return handOver.count(records);
			for (const record of records) counter.recordStored(record);
			publish();
		};
		const offStored = events.on('requests:stored', batch => fromStore(batch.recent));
		const offHistory = events.on('requests:history', fromStore);
		// Once the core sends its snapshots, they are the only source: the counter here saw nothing.
		let fromCore = false;
		const offCore = events.on('traffic:snapshot', snapshot => {
			fromCore = true;
			store.set(snapshot);
		});
		const off = () => {
			connected = false;
			offSingle();
			offStored();
			offHistory();
			offCore();
			if (pending) clearTimeout(pending);
		};
		const timer = setInterval(() => {
			if (!fromCore) store.set(counter.snapshot());
		}, tickMs);
		timer.unref();
		return () => {
			off();
			clearInterval(timer);
		};
	}
}
