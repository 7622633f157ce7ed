/**
 * The shapes persisted in the store, versioned (`v`) and validated on every read.
 */
import * as z from 'zod/mini';
import {formats} from './ir.js';

const isoDate = z.string().check(z.refine(value => !Number.isNaN(Date.parse(value)), 'not an ISO-8601 date'));

export const keyRecordSchema = z.object({
	v: z.literal(1),
	id: z.string().check(z.minLength(1)),
	name: z.string().check(z.minLength(1)),
	description: z.string(),
	/** The plaintext: the Endpoints pane and `env` put it into snippets, so it is kept (the file is 0600). */
	secret: z.string().check(z.minLength(1)),
	/** SHA-256 (hex) of the secret: the proxy's lookup key. */
	hash: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
	models: z.array(z.string()),
	/** Channel ids. */
	channels: z.array(z.string()),
	expiresAt: z.nullable(isoDate),
	revokedAt: z.nullable(isoDate),
	createdAt: isoDate,
	/** Rate limits and a spending budget; absent on keys made before limits existed (= no limits). */
	limits: z.optional(z.lazy(() => keyLimitsSchema)),
});
export type KeyRecord = z.infer<typeof keyRecordSchema>;

export const budgetPeriodSchema = z.enum(['daily', 'weekly', 'monthly', 'total']);
export type BudgetPeriod = z.infer<typeof budgetPeriodSchema>;

const positiveInt = z.int().check(z.positive());

/** Every limit is optional; an absent one does not apply. Windows are the clock minute and the local day. */
export const keyLimitsSchema = z.object({
	rpm: z.optional(positiveInt),
	rpd: z.optional(positiveInt),
	/** Tokens (input + output) per minute / per day. */
	tpm: z.optional(positiveInt),
	tpd: z.optional(positiveInt),
	budget: z.optional(z.object({usd: z.number().check(z.positive()), period: budgetPeriodSchema})),
	/** Percent of the budget at which a warning is raised once per period (default 80). */
	budgetWarnPercent: z.optional(z.int().check(z.gte(1), z.lte(100))),
});
export type KeyLimits = z.infer<typeof keyLimitsSchema>;

/** Per-key activity, written in batches off the request path so key edits and usage never race. */
export const activityRecordSchema = z.object({v: z.literal(1), lastUsedAt: isoDate});
export type ActivityRecord = z.infer<typeof activityRecordSchema>;

export const channelFormatSchema = z.enum(formats);

export const channelModelSchema = z.object({
	/** The name clients use. */
	name: z.string().check(z.minLength(1)),
	/** The name the provider knows (same as `name` unless aliased with `alias=upstream`). */
	upstream: z.string().check(z.minLength(1)),
});
export type ChannelModel = z.infer<typeof channelModelSchema>;

/** USD per 1M tokens. Without `cached`, cache reads are billed at the `input` price. */
export const modelPriceSchema = z.object({
	input: z.number().check(z.nonnegative()),
	output: z.number().check(z.nonnegative()),
	cached: z.optional(z.number().check(z.nonnegative())),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

export const channelRecordSchema = z.object({
	v: z.literal(1),
	id: z.string().check(z.minLength(1)),
	name: z.string().check(z.minLength(1)),
	format: channelFormatSchema,
	baseUrl: z.url(),
	apiKey: z.nullable(z.string()),
	models: z.array(channelModelSchema).check(z.minLength(1)),
	enabled: z.boolean(),
	priority: z.int(),
	/** Prices by model name (client-facing or upstream); absent in records written before prices existed. */
	prices: z.optional(z.record(z.string(), modelPriceSchema)),
	/**
	 * OpenAI channels: Responses API requests (Codex) pass through to `{baseUrl}/responses` unchanged,
	 * instead of being translated to chat completions. Absent: on for api.openai.com, off elsewhere.
	 */
	responsesApi: z.optional(z.boolean()),
	/** Streams: longest wait for the first byte of the answer before failing over (absent: the gateway's default, 60 s). */
	firstByteTimeoutMs: z.optional(z.int().check(z.positive())),
	/** Streams: longest silence between two chunks once the answer has begun (absent: the gateway's default, 120 s). */
	streamIdleTimeoutMs: z.optional(z.int().check(z.positive())),
	createdAt: isoDate,
	updatedAt: isoDate,
});
export type ChannelRecord = z.infer<typeof channelRecordSchema>;

/** A key's allow-list of models (client-facing names; empty: every model). */
export function keyAllowsModel(key: Pick<KeyRecord, 'models'>, model: string): boolean {
	return key.models.length === 0 || key.models.includes(model);
}

/** A key's allow-list of channels (ids; empty: every channel). */
export function keyAllowsChannel(key: Pick<KeyRecord, 'channels'>, channel: Pick<ChannelRecord, 'id'>): boolean {
	return key.channels.length === 0 || key.channels.includes(channel.id);
}
