/**
 * Channel health as the running proxy sees it: the last `channel:health` event of each channel.
 * A channel without one has had no trouble yet, so it counts as healthy. A TUI that does not serve
 * shows what the gateways serving on its store publish instead.
 */
import type {EventBus} from '../base/events.js';
import type {ChannelRecord} from '../base/records.js';
import {ExternalStore} from './external-store.js';
import {channelHealthAcross, type PublishedHealth} from '../store/published-health.js';
import {type ChannelHealthView, type HealthState, type LackedModel} from '../base/events.js';

export type HealthInfo = {
	readonly state: HealthState;
	readonly reason?: string | null;
	readonly since?: string;
	/** While unavailable: when the next trial request may go through. */
	readonly retryAt?: string | null;
	/** Models its provider lately answered 404 for, and until when: other channels serving them go first (readers leave out those past their time). */
	readonly lacking?: readonly LackedModel[];
	/** Measured by the gateways serving on the store, not this process: how many, and how many of them do not see it healthy. */
	readonly elsewhere?: {readonly gateways: number; readonly affected: number};
};

export type HealthView = {
	readonly views: ExternalStore<ReadonlyMap<string, ChannelHealthView>>;
	/** Stop listening. */
	close(): void;
};

export function createHealthView(events: EventBus): HealthView {
	const views = new ExternalStore<ReadonlyMap<string, ChannelHealthView>>(new Map(), {intervalMs: 100});
	const close = events.on('channel:health', view => views.set(new Map(views.current).set(view.channelId, view)));
	return {views, close};
}

/** Health for every channel: its last reported state, else healthy. */
export function healthOf(channels: readonly ChannelRecord[], views: ReadonlyMap<string, ChannelHealthView>): ReadonlyMap<string, HealthInfo> {
	return new Map(channels.map(channel => [channel.id, views.get(channel.id) ?? {state: 'healthy' as const}]));
}

/**
 * Where this process does not serve (its port taken by another gateway): the health the gateways
 * serving on the store publish (store/published-health.ts), read every `pollMs` while shown.
 */
export function createPublishedHealth(read: () => Promise<readonly PublishedHealth[]>, pollMs = 2000): ExternalStore<readonly PublishedHealth[]> {
	const published: ExternalStore<readonly PublishedHealth[]> = new ExternalStore<readonly PublishedHealth[]>([], {
		intervalMs: 100,
		// The heartbeat rewrites a record every 30 s: only a change of what it says is drawn.
		equals: (a, b) => JSON.stringify(a.map(record => record.channels)) === JSON.stringify(b.map(record => record.channels)),
		connect: () => {
			let timer: NodeJS.Timeout | undefined;
			let stopped = false;
			const poll = () => {
				read()
					.then(
						records => published.set(records),
						() => {}, // an unreadable store: the other panes say so; the column keeps what it showed
					)
					.finally(() => {
						if (!stopped) timer = setTimeout(poll, pollMs);
					});
			};
			poll();
			return () => {
				stopped = true;
				clearTimeout(timer);
			};
		},
	});
	return published;
}

/** Health for every channel as the gateways serving on the store published it (the worst of their views); undefined when none serves. */
export function publishedHealthOf(channels: readonly ChannelRecord[], records: readonly PublishedHealth[]): ReadonlyMap<string, HealthInfo> | undefined {
	if (records.length === 0) return undefined;
	return new Map(
		channels.map(channel => {
			const {state, reason, since, retryAt, gateways, affected, lacking} = channelHealthAcross(records, channel.id)!;
			// A channel no gateway had trouble with has no "since" of its own (only the records' heartbeat; a view told only what it lacks has an empty one).
			const reported = records.some(record => Boolean(record.channels[channel.id]?.since));
			return [channel.id, {state, reason, since: reported ? since : undefined, retryAt, lacking, elsewhere: {gateways, affected}}];
		}),
	);
}
