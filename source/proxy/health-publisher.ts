/**
 * Channel health lives in the serving process; this publishes it to the store (on change, batched,
 * never on the request path) so `gateway-tui channels list` in another terminal can show it.
 */
import type {ChannelHealthView, EventBus} from '../base/events.js';
import type {Store} from '../store/index.js';
import {publishedHealth, publishedHealthKey} from '../store/published-health.js';


export class HealthPublisher {
	private readonly views = new Map<string, ChannelHealthView>();
	private timer: NodeJS.Timeout | undefined;
	private pending: Promise<void> = Promise.resolve();
	private readonly unsubscribe: () => void;

	constructor(
		private readonly store: Store,
		events: EventBus,
		private readonly delayMs = 200,
	) {
		this.unsubscribe = events.on('channel:health', view => {
			this.views.set(view.channelId, view);
			this.schedule();
		});
		// Publish at once, so other processes know a gateway runs and every channel is healthy so far.
		this.schedule();
	}

	private schedule(): void {
		this.timer ??= setTimeout(() => {
			this.timer = undefined;
			this.pending = this.pending.then(() => this.write()).catch(() => {});
		}, this.delayMs);
	}

	/** Stop listening (the gateway failed to start). */
	stop(): void {
		this.unsubscribe();
		if (this.timer) clearTimeout(this.timer);
	}

	/** Stop and remove the published health: nobody serves, so nothing is known. */
	async close(): Promise<void> {
		this.stop();
		await this.pending;
		await publishedHealth(this.store).delete(publishedHealthKey);
	}

	private async write(): Promise<void> {
		const channels = Object.fromEntries(this.views);
		await publishedHealth(this.store).set(publishedHealthKey, {v: 1, updatedAt: new Date().toISOString(), pid: process.pid, channels});
	}
}

