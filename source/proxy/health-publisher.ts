/**
 * Channel health lives in the serving process; this publishes it to the store (on change, batched,
 * never on the request path) so `gateway-tui channels list` in another terminal, and a TUI that does
 * not serve, can show it. Each gateway has a record of its own (store/published-health.ts), written
 * once it listens, rewritten every `heartbeatMs` so readers can tell a running gateway from one that
 * was killed, and withdrawn when it stops: a gateway that could not start, or that stops, never
 * touches another's.
 */
import type {ChannelHealthView, EventBus} from '../base/events.js';
import {randomHex} from '../base/random-ids.js';
import type {Store} from '../store/index.js';
import {heartbeatMs as defaultHeartbeatMs, publishedHealth, publishedHealthKey, staleHealthKeys} from '../store/published-health.js';

export type HealthPublisherOptions = {
	/** The least time between a change and its write (changes in between go in the same write). */
	readonly delayMs?: number;
	/** How often the record is rewritten without a change, so readers know this gateway still runs. */
	readonly heartbeatMs?: number;
};

export class HealthPublisher {
	private readonly views = new Map<string, ChannelHealthView>();
	private readonly key = publishedHealthKey(randomHex(12));
	private timer: NodeJS.Timeout | undefined;
	private heartbeat: NodeJS.Timeout | undefined;
	private pending: Promise<void> = Promise.resolve();
	private started = false;
	private readonly unsubscribe: () => void;
	private readonly delayMs: number;
	private readonly heartbeatMs: number;

	constructor(
		private readonly store: Store,
		events: EventBus,
		options: HealthPublisherOptions = {},
	) {
		this.delayMs = options.delayMs ?? 200;
		this.heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
		this.unsubscribe = events.on('channel:health', view => {
			this.views.set(view.channelId, view);
			if (this.started) this.schedule();
		});
	}

	/**
	 * Publish now that the gateway listens (other processes learn that it runs and what it saw), and
	 * from then on at every change and heartbeat. The records of gateways gone without withdrawing
	 * theirs are removed first.
	 */
	start(): void {
		if (this.started) return;
		this.started = true;
		this.pending = this.pending.then(() => this.removeStale()).catch(() => {});
		this.schedule();
		this.heartbeat = setInterval(() => this.schedule(), this.heartbeatMs);
		this.heartbeat.unref();
	}

	private schedule(): void {
		this.timer ??= setTimeout(() => {
			this.timer = undefined;
			this.pending = this.pending.then(() => this.write()).catch(() => {});
		}, this.delayMs);
	}

	/** Stop and withdraw this gateway's record: it serves no more, so what it knew is no longer known. */
	async close(): Promise<void> {
		this.unsubscribe();
		if (this.timer) clearTimeout(this.timer);
		if (this.heartbeat) clearInterval(this.heartbeat);
		this.timer = this.heartbeat = undefined;
		await this.pending;
		if (this.started) await publishedHealth(this.store).delete(this.key);
	}

	private async write(): Promise<void> {
		const channels = Object.fromEntries(this.views);
		await publishedHealth(this.store).set(this.key, {v: 1, updatedAt: new Date().toISOString(), pid: process.pid, channels});
	}

	private async removeStale(): Promise<void> {
		const stale = await staleHealthKeys(this.store);
		if (stale.length > 0) await publishedHealth(this.store).deleteMany(stale, 'the channel health of gateways no longer running');
	}
}
