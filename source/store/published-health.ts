/** The channel health a running gateway publishes, so `channels list` in another process can show it. */
import * as z from 'zod/mini';
import type {Store} from './index.js';

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
			reason: z.nullable(z.string()),
			since: z.string(),
			retryAt: z.nullable(z.string()),
		}),
	),
});
export type PublishedHealth = z.infer<typeof healthSchema>;

const key = 'health';

export const publishedHealth = (store: Store) => store.collection('meta', healthSchema, 'channel health');
export const publishedHealthKey = key;

/** The health a running gateway published, or undefined when none runs (or it never saw a change). */
export async function readPublishedHealth(store: Store): Promise<PublishedHealth | undefined> {
	return store.collection('meta', healthSchema, 'channel health').get(key);
}
