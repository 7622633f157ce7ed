/**
 * The shapes of usage statistics, shared by the recorder (which writes them), the CLI (`usage`,
 * `logs`) and the TUI's Usage pane (which read them).
 */
import type {RequestFinished} from './events.js';

export type UsageGroupBy = 'key' | 'model' | 'channel' | 'day' | 'hour';

/**
 * One row of aggregated usage: a key (its name), a model, a channel (its name), a local day
 * (YYYY-MM-DD) or a local hour (YYYY-MM-DD HH:00). `requests` = succeeded + failed + aborted.
 */
export type UsageRow = {
	readonly group: string;
	/** The key's or channel's id, for rows grouped by key or channel (absent for requests without one). */
	readonly id?: string;
	readonly requests: number;
	readonly succeeded: number;
	readonly failed: number;
	/** Requests the client abandoned before the answer was complete. */
	readonly aborted?: number;
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly cachedTokens: number;
	readonly reasoningTokens: number;
	readonly costUsd: number;
	/** True when some requests in the row had no price configured (their cost counts as 0). */
	readonly unpriced: boolean;
	readonly latencyP50Ms: number | null;
	readonly latencyP95Ms: number | null;
};

export type UsageQuery = {
	readonly by: UsageGroupBy;
	/** Only requests at or after this time (to the hour). Grouped by hour, the default is the start of today. */
	readonly since?: Date;
	/** Only requests that reached a channel: what the key limits counted (not those refused before, a 429 of the limits included). */
	readonly routedOnly?: boolean;
};

/** A persisted request record is the finished event as it was emitted. */
export type RequestRecord = RequestFinished;

/**
 * Whether a request counts in the usage totals: it named a model and was not a token count
 * (Claude Code counts tokens often; those calls are in the request log, not in the totals).
 */
export function countsTowardUsage(record: Pick<RequestRecord, 'model' | 'path'>): boolean {
	return record.model !== null && !/count_?tokens$/i.test(record.path);
}
