/**
 * Atomic counters for key limits in a shared store (Redis, PostgreSQL), so that several gateways on
 * one store together admit what one would. Keyv has no atomic increment, so each backend implements
 * these with its own primitive (counters-redis.ts: one Lua script; counters-postgres.ts: one
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING`), one round trip per call. sqlite has none: one
 * machine, and the in-memory limiter counts exactly there.
 *
 * One record per key holds its current windows: the clock minute, the local day and the budget's
 * period. A gateway whose clock lags a little counts into the newest window any gateway opened, so
 * a window never goes back to an older one.
 */
import type {LimitUse} from '../base/periods.js';

export type CounterWindows = {
	/** Start (ms since the epoch) of the clock minute, of the local day, of the budget's period. */
	readonly minuteStart: number;
	readonly dayStart: number;
	/** The budget's period (`total` without a budget): a changed period starts its spend from 0. */
	readonly spendPeriod: string;
	readonly spendStart: number;
	/** How long the record must outlive this change (ms); 0: for ever (a total budget never resets). */
	readonly keepMs: number;
};

/** The key's limits; an absent one is no limit. */
export type CounterLimits = {
	readonly budgetUsd?: number;
	readonly rpm?: number;
	readonly rpd?: number;
	readonly tpm?: number;
	readonly tpd?: number;
};

export type Admission = {
	readonly admitted: boolean;
	/** The counts after the call: with this request when admitted, the ones that refused it otherwise. */
	readonly use: LimitUse;
};

export type SharedCounters = {
	/** Checks every limit against the current counts and, only if none is reached, counts the request — atomically. */
	admit(keyId: string, windows: CounterWindows, limits: CounterLimits): Promise<Admission>;
	/** Adds a finished request's tokens and cost. */
	add(keyId: string, windows: CounterWindows, tokens: number, costUsd: number): Promise<LimitUse>;
	/** Raises each count to at least `use` (seeding from persisted usage; several gateways may seed at once). */
	seed(keyId: string, windows: CounterWindows, use: LimitUse): Promise<LimitUse>;
	close(): Promise<void>;
};

/**
 * The counters as the store hands them out: every call answers within `timeoutMs` (a server that
 * stopped answering must not hold requests), and every failure is the store's own error, naming it
 * with its password masked.
 */
export function guardCounters(counters: SharedCounters, timeoutMs: number, failure: (action: string, error: unknown) => Error): SharedCounters {
	const bounded = async <T>(action: string, run: () => Promise<T>): Promise<T> => {
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
		});
		try {
			return await Promise.race([run(), late]);
		} catch (error) {
			throw failure(action, error);
		} finally {
			clearTimeout(timer);
		}
	};
	return {
		admit: (keyId, windows, limits) => bounded('counting a request against key limits', () => counters.admit(keyId, windows, limits)),
		add: (keyId, windows, tokens, costUsd) => bounded("adding a request's tokens and cost to key limits", () => counters.add(keyId, windows, tokens, costUsd)),
		seed: (keyId, windows, use) => bounded('seeding key limits from the usage totals', () => counters.seed(keyId, windows, use)),
		// The backend owns the counters and closes them with the store.
		close: async () => {},
	};
}

/** True when a fresh record (all counts 0) admits a request: every limit is above 0. */
export function admitsFromZero(limits: CounterLimits): boolean {
	return [limits.budgetUsd, limits.rpm, limits.rpd, limits.tpm, limits.tpd].every(limit => limit === undefined || limit > 0);
}
