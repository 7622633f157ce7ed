/**
 * How usage statistics are laid out in the store. Keyv has no atomic increment and no ordered
 * listing, so each gateway process (an *instance*) writes only entries it owns, and readers sum
 * over instances — several processes can share one store without losing updates:
 *
 * - `journals:<instance>` — one small entry per instance: which request chunks and which days it
 *   holds, and whether it shut down cleanly (the next process adopts a cleanly closed instance, so
 *   restarting the gateway does not pile up instances). The only usage namespace ever listed.
 * - `requests:<instance>:<seq>` — a chunk of request records, rewritten as records are appended
 *   until it is full.
 * - `usage:<instance>:<day>` — the instance's totals for one local day: one bucket per
 *   (hour, key, channel, model), each with a latency histogram, so percentiles can be summed.
 * - `usage-months:<instance>:<YYYY-MM>` — a month long over, summed once by the first reader that
 *   needs it (usage-summary.ts): each of its days merged over the hours, and the days the journal
 *   listed then, so a reader can tell it still holds what the journal lists.
 * - `usage-months-merged:<instance>:<YYYY-MM>` — the same month merged over its days as well, for
 *   the readers that do not tell its days apart (`keys list`, the TUI's first frame): made from the month's sum
 *   by the first such reader, with the days it was made from.
 */
import * as z from 'zod/mini';
import {formats, inboundFormats} from '../base/ir.js';
import type {Store} from './index.js';
import type {RequestRecord} from '../base/usage-types.js';
import {conversationStates, requestEventTypes, requestOutcomes} from '../base/events.js';

const count = z.int().check(z.nonnegative());
const format = z.enum(formats);
const inboundFormat = z.enum(inboundFormats);
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const day = z.string().check(z.regex(dayPattern));
const month = z.string().check(z.regex(/^\d{4}-\d{2}$/));

const usageSchema = z.object({
	inputTokens: count,
	outputTokens: count,
	cachedTokens: z.optional(count),
	cacheCreationTokens: z.optional(count),
	reasoningTokens: z.optional(count),
	estimated: z.optional(z.boolean()),
	estimatedOnly: z.optional(z.enum(['input', 'output'])),
});

/** A request record's fields, in the order the gateway writes them. */
const requestRecordShape = {
	id: z.string(),
	time: z.string(),
	method: z.string(),
	path: z.string(),
	keyId: z.nullable(z.string()),
	keyName: z.nullable(z.string()),
	model: z.nullable(z.string()),
	upstreamModel: z.nullable(z.string()),
	channelId: z.nullable(z.string()),
	channelName: z.nullable(z.string()),
	inboundFormat,
	outboundFormat: z.nullable(format),
	stream: z.boolean(),
	status: z.int(),
	outcome: z.enum(requestOutcomes),
	latencyMs: z.number().check(z.nonnegative()),
	ttfbMs: z.nullable(z.number().check(z.nonnegative())),
	usage: z.nullable(usageSchema),
	error: z.nullable(z.string()),
	warnings: z.array(z.string()),
	eventType: z.enum(requestEventTypes),
	attempts: z.array(z.string()),
	costUsd: z.number().check(z.nonnegative()),
	unpriced: z.boolean(),
	conversation: z.optional(z.object({id: z.string(), state: z.enum(conversationStates)})),
};

/** A request record checked field by field (and held to the type the gateway writes). */
const requestRecordObject: z.ZodMiniType<RequestRecord> = z.object(requestRecordShape);

/** Latency histogram: bin index (see usage-buckets.ts) → number of requests. */
export type Histogram = Record<string, number>;

const binName = /^\d+$/;

/** An object as `JSON.parse` makes one (no array, no other prototype). */
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** How many fields an object has (without the array `Object.keys` would make). */
function fieldsOf(value: Record<string, unknown>): number {
	let fields = 0;
	for (const _ in value) fields++;
	return fields;
}

/** What `count` accepts, checked without Zod: a safe integer ≥ 0. */
const isCount = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0;

/** A finite number ≥ 0: what `z.number().check(z.nonnegative())` accepts. */
const isAmount = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Checked in place, not by `z.record`, which builds a new object of every histogram it checks: a
 * year of usage is ~45,000 hourly buckets, each with a histogram of a few dozen bins, read whole by
 * `keys list`, `usage` and the TUI's first frame (the record parser and its garbage were a third of
 * that read).
 */
function isHistogram(value: unknown): value is Histogram {
	if (!isPlainObject(value)) return false;
	for (const bin in value) {
		const n = value[bin];
		if (!binName.test(bin) || !isCount(n)) return false;
	}
	return true;
}

export const histogramSchema = z.custom<Histogram>(isHistogram, {error: 'expected a latency histogram: bin numbers to counts of requests'});

/** A bucket's fields, checked field by field (and what its type is inferred from). */
const bucketObject = z.object({
	hour: z.int().check(z.gte(0), z.lte(23)),
	keyId: z.nullable(z.string()),
	keyName: z.nullable(z.string()),
	channelId: z.nullable(z.string()),
	channelName: z.nullable(z.string()),
	model: z.string(),
	requests: count,
	succeeded: count,
	failed: count,
	aborted: count,
	inputTokens: count,
	outputTokens: count,
	cachedTokens: count,
	reasoningTokens: count,
	costUsd: z.number().check(z.nonnegative()),
	/** Requests with tokens but no price (their cost counts as 0). */
	unpriced: count,
	latency: histogramSchema,
});
export type Bucket = z.infer<typeof bucketObject>;

const bucketFields = Object.keys(bucketObject.def.shape).length;
const isNullableString = (value: unknown): boolean => value === null || typeof value === 'string';

/**
 * A bucket exactly as the recorder writes it: its fields and no others, each valid. Checked in place,
 * as the histograms are: Zod's object parser copies every bucket it checks, and a day is a few hundred
 * buckets read again by every reader (`keys list`, `usage`, the TUI every few seconds) — in a one-shot
 * command, before the parser is compiled, ~30 ms for three days of 360 buckets against ~3 ms.
 */
function isExactBucket(value: unknown): value is Bucket {
	if (!isPlainObject(value)) return false;
	const {hour} = value;
	return (
		fieldsOf(value) === bucketFields &&
		isCount(hour) &&
		(hour as number) <= 23 &&
		isNullableString(value.keyId) &&
		isNullableString(value.keyName) &&
		isNullableString(value.channelId) &&
		isNullableString(value.channelName) &&
		typeof value.model === 'string' &&
		isCount(value.requests) &&
		isCount(value.succeeded) &&
		isCount(value.failed) &&
		isCount(value.aborted) &&
		isCount(value.inputTokens) &&
		isCount(value.outputTokens) &&
		isCount(value.cachedTokens) &&
		isCount(value.reasoningTokens) &&
		isAmount(value.costUsd) &&
		isCount(value.unpriced) &&
		isHistogram(value.latency)
	);
}

/**
 * A stored value exactly as the gateway writes it (`isExact`) is taken as it is; anything else (a
 * field missing or wrong, or fields a newer gateway added) goes through Zod's object parser, which
 * says what is wrong (the same path and message) or drops the unknown fields, as it did for every
 * value before.
 */
function exactOrParsed<T>(isExact: (value: unknown) => value is T, parser: z.ZodMiniType<T>) {
	return z.pipe(
		z.unknown(),
		z.transform((value: unknown, payload): T => {
			if (isExact(value)) return value;
			const parsed = parser.safeParse(value);
			if (parsed.success) return parsed.data;
			for (const issue of parsed.error.issues) payload.issues.push({code: 'custom', message: issue.message, path: issue.path, input: value});
			return value as T;
		}),
	);
}

/** A stored usage bucket (see `exactOrParsed`). */
export const bucketSchema = exactOrParsed(isExactBucket, bucketObject);

const isOneOf = (values: readonly string[], value: unknown): boolean => typeof value === 'string' && values.includes(value);
const isStrings = (value: unknown): boolean => Array.isArray(value) && value.every(item => typeof item === 'string');

/** A record's token counts as the gateway writes them: the two counts, any of the optional fields, nothing else. */
function isExactUsage(value: unknown): boolean {
	if (!isPlainObject(value)) return false;
	for (const field in value) {
		switch (field) {
			case 'inputTokens':
			case 'outputTokens':
			case 'cachedTokens':
			case 'cacheCreationTokens':
			case 'reasoningTokens':
				if (!isCount(value[field])) return false;
				break;
			case 'estimated':
				if (typeof value[field] !== 'boolean') return false;
				break;
			case 'estimatedOnly':
				if (value[field] !== 'input' && value[field] !== 'output') return false;
				break;
			default:
				return false;
		}
	}
	return isCount(value.inputTokens) && isCount(value.outputTokens);
}

function isExactConversation(value: unknown): boolean {
	return isPlainObject(value) && fieldsOf(value) === 2 && typeof value.id === 'string' && isOneOf(conversationStates, value.state);
}

const recordFields = Object.keys(requestRecordShape).length;

/**
 * A request record exactly as the gateway writes it, checked in place as a bucket is: Zod's object
 * parser copied every record it checked (cold, ~13 µs a record), and the TUI reads up to 5,000 at
 * its start and then, every second, the chunks of 200 its store's other gateways grow (`logs` reads
 * the newest chunk, `logs --follow` the growing ones every half second).
 */
function isExactRecord(value: unknown): value is RequestRecord {
	if (!isPlainObject(value)) return false;
	const {conversation, outboundFormat, ttfbMs, usage} = value;
	return (
		fieldsOf(value) === (conversation === undefined ? recordFields - 1 : recordFields) &&
		typeof value.id === 'string' &&
		typeof value.time === 'string' &&
		typeof value.method === 'string' &&
		typeof value.path === 'string' &&
		isNullableString(value.keyId) &&
		isNullableString(value.keyName) &&
		isNullableString(value.model) &&
		isNullableString(value.upstreamModel) &&
		isNullableString(value.channelId) &&
		isNullableString(value.channelName) &&
		isOneOf(inboundFormats, value.inboundFormat) &&
		(outboundFormat === null || isOneOf(formats, outboundFormat)) &&
		typeof value.stream === 'boolean' &&
		Number.isSafeInteger(value.status) &&
		isOneOf(requestOutcomes, value.outcome) &&
		isAmount(value.latencyMs) &&
		(ttfbMs === null || isAmount(ttfbMs)) &&
		(usage === null || isExactUsage(usage)) &&
		isNullableString(value.error) &&
		isStrings(value.warnings) &&
		isOneOf(requestEventTypes, value.eventType) &&
		isStrings(value.attempts) &&
		isAmount(value.costUsd) &&
		typeof value.unpriced === 'boolean' &&
		(conversation === undefined || isExactConversation(conversation))
	);
}

/** A stored request record (see `exactOrParsed`). */
export const requestRecordSchema = exactOrParsed(isExactRecord, requestRecordObject);

const dayTotalsObject = z.object({v: z.literal(1), instance: z.string(), day, buckets: z.array(bucketSchema)});
export type DayTotals = z.infer<typeof dayTotalsObject>;

/** A day as `day` accepts it (YYYY-MM-DD), checked without Zod. */
const isDay = (value: unknown): boolean => typeof value === 'string' && dayPattern.test(value);

/** A day's totals as the recorder writes them, every bucket checked in place (one check, not Zod's pipe per bucket). */
function isExactDay(value: unknown): value is DayTotals {
	if (!isPlainObject(value)) return false;
	const {day: date, buckets} = value;
	return fieldsOf(value) === 4 && value.v === 1 && typeof value.instance === 'string' && isDay(date) && Array.isArray(buckets) && buckets.every(isExactBucket);
}

/** A stored day of usage totals (see `exactOrParsed`: anything else is checked bucket by bucket). */
export const dayTotalsSchema = exactOrParsed(isExactDay, dayTotalsObject);

/** What both sums of a month say about where they come from. */
const monthSumFields = {
	v: z.literal(1),
	instance: z.string(),
	month,
	/** The days of the month the instance's journal listed when this was summed (some may have had no totals). */
	listed: z.array(day),
};

export const monthTotalsSchema = z.object({
	...monthSumFields,
	/** The totals of each day found, merged over its hours (each bucket's hour reads 0). */
	days: z.array(z.object({day, buckets: z.array(bucketSchema)})),
});
export type MonthTotals = z.infer<typeof monthTotalsSchema>;

export const mergedMonthSchema = z.object({
	...monthSumFields,
	/** The requests of each of those days (0 for one without totals): a reader that reads a day again can tell it changed. */
	requests: z.array(count),
	/** The month's totals merged over its days and hours (each bucket's hour reads 0). */
	buckets: z.array(bucketSchema),
});
export type MergedMonth = z.infer<typeof mergedMonthSchema>;

const chunkObject = z.object({v: z.literal(1), instance: z.string(), seq: count, records: z.array(requestRecordSchema)});
export type Chunk = z.infer<typeof chunkObject>;

/**
 * A chunk as the gateway writes it, every record in it checked in place: one check of the chunk
 * instead of one pass of Zod's pipe per record, which cost ~4 µs a record in a one-shot command.
 */
function isExactChunk(value: unknown): value is Chunk {
	if (!isPlainObject(value)) return false;
	const {records} = value;
	return fieldsOf(value) === 4 && value.v === 1 && typeof value.instance === 'string' && isCount(value.seq) && Array.isArray(records) && records.every(isExactRecord);
}

/** A stored chunk of request records (see `exactOrParsed`: anything else is checked record by record). */
export const chunkSchema = exactOrParsed(isExactChunk, chunkObject);

const chunkEntrySchema = z.object({seq: count, count, first: z.string(), last: z.string()});
export type ChunkEntry = z.infer<typeof chunkEntrySchema>;

const journalObject = z.object({
	v: z.literal(1),
	instance: z.string().check(z.minLength(1)),
	/** A random token of the process that owns the instance now (see claimInstance). */
	owner: z.string(),
	startedAt: z.string(),
	updatedAt: z.string(),
	/** Set by a clean shutdown: the instance may then be adopted by the next process. */
	closedAt: z.nullable(z.string()),
	nextSeq: count,
	chunks: z.array(chunkEntrySchema),
	days: z.array(day),
});
export type Journal = z.infer<typeof journalObject>;

/** A chunk's entry in its journal as the recorder writes it. */
function isExactChunkEntry(value: unknown): boolean {
	return isPlainObject(value) && fieldsOf(value) === 4 && isCount(value.seq) && isCount(value.count) && typeof value.first === 'string' && typeof value.last === 'string';
}

/**
 * A journal as the recorder writes it, its chunk entries checked in place: every reader of the
 * request log lists the journals — the TUI's log follows the store once a second — and Zod's parser
 * built a new object of each of a journal's entries (500 for 100,000 requests), ~700 KB a second of
 * garbage on an idle TUI's thread, enough to keep V8 from giving its young generation back.
 */
function isExactJournal(value: unknown): value is Journal {
	if (!isPlainObject(value)) return false;
	const {instance, closedAt, chunks: entries, days} = value;
	return (
		fieldsOf(value) === 9 &&
		value.v === 1 &&
		typeof instance === 'string' &&
		instance.length > 0 &&
		typeof value.owner === 'string' &&
		typeof value.startedAt === 'string' &&
		typeof value.updatedAt === 'string' &&
		(closedAt === null || typeof closedAt === 'string') &&
		isCount(value.nextSeq) &&
		Array.isArray(entries) &&
		entries.every(isExactChunkEntry) &&
		Array.isArray(days) &&
		days.every(isDay)
	);
}

/** A stored usage journal (see `exactOrParsed`: anything else goes through Zod's parser, entry by entry). */
export const journalSchema = exactOrParsed(isExactJournal, journalObject);

export const journals = (store: Store) => store.collection('journals', journalSchema, 'usage journal');
export const chunks = (store: Store) => store.collection('requests', chunkSchema, 'request log chunk');
export const dayTotals = (store: Store) => store.collection('usage', dayTotalsSchema, 'usage totals');
export const monthTotals = (store: Store) => store.collection('usage-months', monthTotalsSchema, 'usage totals of a month');
export const mergedMonths = (store: Store) => store.collection('usage-months-merged', mergedMonthSchema, 'usage totals of a month merged over its days');

export const chunkId = (instance: string, seq: number): string => `${instance}:${seq}`;
export const dayId = (instance: string, date: string): string => `${instance}:${date}`;
export const monthId = (instance: string, month: string): string => `${instance}:${month}`;
