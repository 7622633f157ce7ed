/**
 * The shapes persisted in the store, versioned (`v`) and validated on every read.
 */
import {z} from 'zod';

const isoDate = z.string().refine(value => !Number.isNaN(Date.parse(value)), 'not an ISO-8601 date');

export const keyRecordSchema = z.object({
	v: z.literal(1),
	id: z.string().min(1),
	name: z.string().min(1),
	description: z.string(),
	/** The plaintext: the Endpoints pane and `env` put it into snippets, so it is kept (the file is 0600). */
	secret: z.string().min(1),
	/** SHA-256 (hex) of the secret: the proxy's lookup key. */
	hash: z.string().regex(/^[0-9a-f]{64}$/),
	models: z.array(z.string()),
	/** Channel ids. */
	channels: z.array(z.string()),
	expiresAt: isoDate.nullable(),
	revokedAt: isoDate.nullable(),
	createdAt: isoDate,
});
export type KeyRecord = z.infer<typeof keyRecordSchema>;

/** Per-key activity, written in batches off the request path so key edits and usage never race. */
export const activityRecordSchema = z.object({v: z.literal(1), lastUsedAt: isoDate});
export type ActivityRecord = z.infer<typeof activityRecordSchema>;

export const channelFormatSchema = z.enum(['openai', 'anthropic', 'gemini']);

export const channelModelSchema = z.object({
	/** The name clients use. */
	name: z.string().min(1),
	/** The name the provider knows (same as `name` unless aliased with `alias=upstream`). */
	upstream: z.string().min(1),
});
export type ChannelModel = z.infer<typeof channelModelSchema>;

export const channelRecordSchema = z.object({
	v: z.literal(1),
	id: z.string().min(1),
	name: z.string().min(1),
	format: channelFormatSchema,
	baseUrl: z.string().url(),
	apiKey: z.string().nullable(),
	models: z.array(channelModelSchema).min(1),
	enabled: z.boolean(),
	priority: z.number().int(),
	createdAt: isoDate,
	updatedAt: isoDate,
});
export type ChannelRecord = z.infer<typeof channelRecordSchema>;
