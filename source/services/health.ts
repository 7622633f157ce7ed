/**
 * Channel health lives in the serving process; this publishes it to the store (on change, batched,
 * never on the request path) so `gateway-tui channels list` in another terminal can show it.
 */
import {z} from 'zod';
import type {EventBus} from '../events.js';
import type {ChannelHealthView} from '../proxy/health.js';
import type {Store} from '../store/index.js';

const healthSchema = z.object({
	v: z.literal(1),
	updatedAt: z.string(),
	pid: z.number(),
	channels: z.record(
		z.string(),
		z.object({
			channelId: z.string(),
			channelName: z.string(),
			state: z.enum(['healthy', 'degraded', 'unavailable']),
			reason: z.string().nullable(),
			since: z.string(),
			retryAt: z.string().nullable(),
		}),
	),
});
export type PublishedHealth = z.infer<typeof healthSchema>;

const key = 'health';

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
		await this.store.collection('meta', healthSchema, 'channel health').delete(key);
	}

	private async write(): Promise<void> {
		const channels = Object.fromEntries(this.views);
		await this.store.collection('meta', healthSchema, 'channel health').set(key, {v: 1, updatedAt: new Date().toISOString(), pid: process.pid, channels});
	}
}

/** The health a running gateway published, or undefined when none runs (or it never saw a change). */
export async function readPublishedHealth(store: Store): Promise<PublishedHealth | undefined> {
	return store.collection('meta', healthSchema, 'channel health').get(key);
}
