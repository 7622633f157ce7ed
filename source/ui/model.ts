/**
 * Everything the TUI reads and changes, wired once per process (and once per test): the store
 * view, the live request log, the usage totals, the keys' use of their limits, and the actions.
 * Panes never see this object; the App hands them plain props read through hooks.
 */
import type {EventBus} from '../base/events.js';
import type {Store} from '../store/index.js';
import {createActions, type Actions} from './actions.js';
import {createHealthView, createPublishedHealth, type HealthView} from './health-view.js';
import {readPublishedHealth, type PublishedHealth} from '../store/published-health.js';
import {persistedUse} from '../store/limit-use.js';
import {createLimitView, type LimitUseMap, type LimitUseSource} from './limit-view.js';
import {ExternalStore} from './external-store.js';
import {createRequestLog, type RequestLogOptions, type RequestLogSnapshot} from './request-log.js';
import {SessionUsage, type UsageSource} from './session-usage.js';
import {createStoreView, type StoreView, type StoreViewOptions} from './store-view.js';
import {createUsageView, type UsageSnapshot} from './usage-view.js';
import {createTraffic, type TrafficOptions, type TrafficSnapshot} from './traffic.js';
import {RedrawFrames} from './redraw-frames.js';

export type TuiModel = {
	readonly events: EventBus;
	readonly data: StoreView;
	readonly log: ExternalStore<RequestLogSnapshot>;
	readonly usage: ExternalStore<UsageSnapshot>;
	readonly usageSource: 'session' | 'stored';
	/** Key id → what it used of its limits in their current windows. */
	readonly limits: ExternalStore<LimitUseMap>;
	/** Requests this process's core has received and not finished yet (the status bar's "in flight"). */
	readonly inFlight: ExternalStore<number>;
	/** Requests, errors, latency and tokens over time (the charts of the Usage and Channels panes). */
	readonly traffic: ExternalStore<TrafficSnapshot>;
	/** Whether this process serves requests: null while its core is starting (the first frame does not wait for it). */
	readonly serving: ExternalStore<boolean | null>;
	/** Channel health, while this process serves (null when it could not listen: nothing is measured). */
	readonly health: HealthView | null;
	/** Where this process does not serve (or may not: its core starting): the health the gateways serving on the store publish. */
	readonly publishedHealth: ExternalStore<readonly PublishedHealth[]> | null;
	readonly actions: Actions;
	/** The frames the live views share under load (one redraw a second for all of them). */
	readonly frames: RedrawFrames;
	dispose(): void;
};

export type ModelOptions = StoreViewOptions & {
	/** Runs after every change the TUI makes (the running proxy reloads its registry). */
	readonly afterChange?: () => Promise<void> | void;
	/** The persisted usage summary; without it, totals are counted from this session's events. */
	readonly storedUsage?: UsageSource;
	/** The stored totals already read (`storedUsage`'s, before the screen was taken): the first frame's counts. */
	readonly initialUsage?: UsageSnapshot;
	/** The store's request log: the live log opens with its newest requests (and follows it, given `followMs`). */
	readonly storedLog?: RequestLogOptions['stored'];
	/** The core serving here, which counts the requests the log follows into the charts' traffic (else they are counted on this thread). */
	readonly countStored?: TrafficOptions['countStored'];
	readonly usageDelayMs?: number;
	/** Whether this process serves requests (and so measures channel health); a promise while its core starts. */
	readonly serving?: boolean | Promise<boolean>;
	/** Where the keys' limit use comes from: the gateway's limiter when it runs here (see liveLimitUse); by default the persisted usage. */
	readonly limitUse?: LimitUseSource;
	/** What the keys used of their limits, already read from `limitUse` (the first frame's figures). */
	readonly initialLimits?: LimitUseMap;
	readonly limitPollMs?: number | Promise<number>;
};

export function createModel(store: Store, events: EventBus, options: ModelOptions = {}): TuiModel {
	const frames = new RedrawFrames();
	const stopFrames = frames.listen(events);
	const data = createStoreView(store, events, {...options, frames});
	const session = new SessionUsage();
	const detach = options.storedUsage ? () => {} : session.attach(events);
	const serving = options.serving ?? true;
	const servingNow = new ExternalStore<boolean | null>(typeof serving === 'boolean' ? serving : null, {intervalMs: 0});
	if (typeof serving !== 'boolean') serving.then(value => servingNow.setNow(value), () => servingNow.setNow(false));
	const health = serving === false ? null : createHealthView(events);
	// Followed from the start, not from the first frame: the core may have a request in flight by then, and it only says so again when the count changes.
	const inFlight = new ExternalStore<number>(0, {frames, equals: (a, b) => a === b});
	const offInFlight = events.on('requests:in-flight', count => inFlight.set(count));
	const actions = createActions(store, async () => {
		await options.afterChange?.();
		await data.reload();
	});
	return {
		events,
		data,
		log: createRequestLog(events, {frames, stored: options.storedLog}),
		inFlight,
		traffic: createTraffic(events, {frames, countStored: options.countStored}),
		usage: options.storedUsage
			? createUsageView(events, options.storedUsage, {delayMs: options.usageDelayMs ?? 1200, pollMs: 5000, frames, initial: options.initialUsage})
			: createUsageView(events, session.summaries, {delayMs: options.usageDelayMs ?? 200, frames}),
		usageSource: options.storedUsage ? 'stored' : 'session',
		limits: createLimitView(events, () => data.snapshot.current.keys, options.limitUse ?? (keys => persistedUse(store, keys)), {pollMs: options.limitPollMs ?? (options.limitUse ? 2000 : 5000), frames, initial: options.initialLimits}),
		serving: servingNow,
		health,
		publishedHealth: serving === true ? null : createPublishedHealth(() => readPublishedHealth(store)),
		actions,
		frames,
		dispose() {
			detach();
			offInFlight();
			stopFrames();
			health?.close();
		},
	};
}
