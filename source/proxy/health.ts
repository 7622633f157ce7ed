/**
 * Channel health, per process, from the requests themselves (passive) and from probes (active).
 *
 * A circuit breaker per channel: consecutive connect errors, time-outs or 5xx answers open the
 * circuit (unavailable) for a cooldown; after it, exactly one request is let through as a trial
 * (half-open) and its success closes the circuit. A 429 marks the channel degraded (still used, but
 * after healthy channels of the same rank); any success makes it healthy again.
 */
import {channelWarning, type ChannelHealthView, type EventBus, type HealthState, type LackedModel} from '../base/events.js';
import type {ChannelRecord} from '../base/records.js';
import {systemClock, type Clock} from '../base/clock.js';

export type FailureKind = 'connect' | 'timeout' | 'server' | 'rate_limit';

export type HealthOptions = {
	/** Consecutive failures that open the circuit. */
	readonly threshold: number;
	readonly cooldownMs: number;
	/** Where cooldowns and `since` times are read from (tests pass a FakeClock); the system clock by default. */
	readonly clock?: Pick<Clock, 'now'>;
	/** Masks keys in a reason (a provider's error may quote one) before it is published anywhere. */
	readonly scrub?: (text: string) => string;
	/** How long a model a channel's provider answered 404 for is tried after the other channels serving it (default 10 minutes). */
	readonly missingModelMs?: number;
};

export const defaultHealthOptions: HealthOptions = {threshold: 3, cooldownMs: 30_000};
/** How long a model a channel lacked is remembered unless the options say otherwise. */
export const defaultMissingModelMs = 10 * 60_000;

type Entry = {view: ChannelHealthView; failures: number; openUntil: number; trialInFlight: boolean};

export class ChannelHealth {
	private readonly entries = new Map<string, Entry>();
	/** Channel id → upstream model → until when: models the channel's provider lately said it does not have. */
	private readonly missing = new Map<string, Map<string, number>>();
	private readonly clock: Pick<Clock, 'now'>;

	constructor(
		private readonly events?: EventBus,
		private readonly options: HealthOptions = defaultHealthOptions,
	) {
		this.clock = options.clock ?? systemClock;
	}

	/** May a request go to this channel now? In the half-open state only one trial at a time. */
	admit(channel: ChannelRecord): boolean {
		const entry = this.entries.get(channel.id);
		if (!entry || entry.view.state !== 'unavailable') return true;
		if (this.clock.now() < entry.openUntil || entry.trialInFlight) return false;
		entry.trialInFlight = true;
		return true;
	}

	succeeded(channel: ChannelRecord): void {
		const entry = this.entries.get(channel.id);
		if (!entry) return;
		entry.failures = 0;
		entry.trialInFlight = false;
		if (entry.view.state !== 'healthy') this.set(channel, entry, 'healthy', null);
	}

	failed(channel: ChannelRecord, kind: FailureKind, reason: string): void {
		const entry = this.entry(channel);
		entry.trialInFlight = false;
		if (kind === 'rate_limit') {
			if (entry.view.state === 'healthy') this.set(channel, entry, 'degraded', reason);
			return;
		}
		entry.failures++;
		if (entry.view.state === 'unavailable' || entry.failures >= this.options.threshold) {
			entry.openUntil = this.clock.now() + this.options.cooldownMs;
			this.set(channel, entry, 'unavailable', `${reason} (${entry.failures} failures in a row)`);
		}
	}

	/**
	 * The channel's connection was changed or it was enabled again (see `reconfigured`): what its old
	 * settings did is forgotten and the next request tries it at once — a fixed base URL or key must
	 * not wait out the cooldown its mistake started. Told as healthy where it was not.
	 */
	reset(channel: ChannelRecord): void {
		const lacked = this.missing.delete(channel.id);
		const entry = this.entries.get(channel.id);
		this.entries.delete(channel.id);
		if (lacked || (entry && entry.view.state !== 'healthy')) this.events?.emit('channel:health', {channelId: channel.id, channelName: channel.name, state: 'healthy', reason: null, since: new Date(this.clock.now()).toISOString(), retryAt: null});
	}

	/**
	 * The channel's provider answered that it has no `model` (retired or renamed): for a while, or
	 * until the channel is changed, requests for it try the other channels serving it first. Not a
	 * failure of the channel, whose other models still work. `onward`: the request went on to another
	 * channel (false: this was the last one serving the model, and the request failed).
	 */
	modelMissing(channel: ChannelRecord, model: string, onward = true): void {
		const ms = this.options.missingModelMs ?? defaultMissingModelMs;
		// Said once while it is remembered (the request log warns on each request that paid for it).
		if (!this.lacks(channel, model)) {
			const then = onward ? `Other channels serving it go first for ${Math.round(ms / 60_000)} min.` : 'It was the last channel serving it, so the request failed.';
			// The step before the rest: in the TUI's two status lines at 80 columns a long message is cut at its end.
			this.events?.emit('warning', channelWarning(`channel "${channel.name}" has no model "${model}" any more (HTTP 404); check it (`, channel.name, 'test', `). ${then}`));
		}
		let models = this.missing.get(channel.id);
		if (!models) this.missing.set(channel.id, (models = new Map()));
		// Told each time (rare: the channel goes last while remembered), so the view's time moves on too.
		models.set(model, this.clock.now() + ms);
		this.publishLacking(channel);
	}

	/** The models the channel lately lacked and until when, for its view (none: no field). */
	private lackingOf(channel: ChannelRecord): {lacking?: readonly LackedModel[]} {
		const models = this.missing.get(channel.id);
		return models && models.size > 0 ? {lacking: [...models].map(([model, until]) => ({model, until: new Date(until).toISOString()}))} : {};
	}

	/** Tell the UI the channel's view with what it lacks now (its state unchanged). */
	private publishLacking(channel: ChannelRecord): void {
		const entry = this.entries.get(channel.id);
		// A channel with no trouble yet has no "since" to tell (empty: not shown).
		const {lacking: _old, ...view} = entry?.view ?? {channelId: channel.id, channelName: channel.name, state: 'healthy' as const, reason: null, since: '', retryAt: null};
		const next: ChannelHealthView = {...view, ...this.lackingOf(channel)};
		if (entry) entry.view = next;
		this.events?.emit('channel:health', next);
	}

	/** Whether any channel lately lacked a model (so that ordering routes costs nothing otherwise). */
	get lacksAny(): boolean {
		return this.missing.size > 0;
	}

	/** Whether the channel's provider said lately that it has no `model`. */
	lacks(channel: ChannelRecord, model: string): boolean {
		const models = this.missing.get(channel.id);
		const until = models?.get(model);
		if (until === undefined) return false;
		if (this.clock.now() < until) return true;
		models!.delete(model);
		if (models!.size === 0) this.missing.delete(channel.id);
		this.publishLacking(channel);
		return false;
	}

	/** The client went away during a trial: let the next request try again. */
	released(channel: ChannelRecord): void {
		const entry = this.entries.get(channel.id);
		if (entry) entry.trialInFlight = false;
	}

	/** How long until one of `channels` lets a trial request through (0: one may go now; a trial under way: a second). */
	nextTrialInMs(channels: readonly ChannelRecord[]): number {
		const now = this.clock.now();
		let soonest = Infinity;
		for (const channel of channels) {
			const entry = this.entries.get(channel.id);
			if (!entry || entry.view.state !== 'unavailable') return 0;
			soonest = Math.min(soonest, entry.openUntil > now ? entry.openUntil - now : entry.trialInFlight ? 1000 : 0);
		}
		return soonest === Infinity ? 0 : soonest;
	}

	stateOf(channel: ChannelRecord): HealthState {
		return this.entries.get(channel.id)?.view.state ?? 'healthy';
	}

	view(channel: ChannelRecord): ChannelHealthView {
		return this.entries.get(channel.id)?.view ?? {channelId: channel.id, channelName: channel.name, state: 'healthy', reason: null, since: new Date(0).toISOString(), retryAt: null};
	}

	private entry(channel: ChannelRecord): Entry {
		let entry = this.entries.get(channel.id);
		if (!entry) {
			entry = {view: this.view(channel), failures: 0, openUntil: 0, trialInFlight: false};
			this.entries.set(channel.id, entry);
		}
		return entry;
	}

	private set(channel: ChannelRecord, entry: Entry, state: HealthState, reason: string | null): void {
		const changed = entry.view.state !== state;
		entry.view = {
			channelId: channel.id,
			channelName: channel.name,
			state,
			reason: reason === null || !this.options.scrub ? reason : this.options.scrub(reason),
			since: changed ? new Date(this.clock.now()).toISOString() : entry.view.since,
			retryAt: state === 'unavailable' ? new Date(entry.openUntil).toISOString() : null,
			...this.lackingOf(channel),
		};
		if (changed) this.events?.emit('channel:health', entry.view);
	}
}

/** What a channel connects with: a change of any of it is a new connection, whose health starts afresh. */
const connectionOf = (channel: ChannelRecord) => JSON.stringify([channel.format, channel.baseUrl, channel.apiKey, channel.models, channel.responsesApi, channel.firstByteTimeoutMs, channel.streamIdleTimeoutMs]);

/** The channels of `next` whose connection differs from `previous`'s, or that were enabled again (not new ones: they have no health yet). */
export function reconfigured(next: readonly ChannelRecord[], previous: readonly ChannelRecord[]): ChannelRecord[] {
	const before = new Map(previous.map(channel => [channel.id, channel]));
	return next.filter(channel => {
		const old = before.get(channel.id);
		return old !== undefined && ((channel.enabled && !old.enabled) || connectionOf(channel) !== connectionOf(old));
	});
}
