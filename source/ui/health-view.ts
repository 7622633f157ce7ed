/**
 * Channel health as the running proxy sees it: the last `channel:health` event of each channel.
 * A channel without one has had no trouble yet, so it counts as healthy.
 */
import type {EventBus} from '../base/events.js';
import type {ChannelRecord} from '../base/records.js';
import {ExternalStore} from './external-store.js';
import {type ChannelHealthView, type HealthState} from '../base/events.js';

export type HealthInfo = {
	readonly state: HealthState;
	readonly reason?: string | null;
	readonly since?: string;
	/** While unavailable: when the next trial request may go through. */
	readonly retryAt?: string | null;
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
