/**
 * Per-key rate limits and budgets, enforced in memory before a request goes upstream.
 *
 * Fixed windows: the clock minute (rpm, tpm) and the local day (rpd, tpd); budgets per local day,
 * week (from Monday), month, or in total. `admit` checks and counts a request in one synchronous
 * step, so concurrent requests can never overshoot a request limit. Token limits and budgets count
 * what finished requests used: a request in flight is never cut off, the next one is refused.
 * After a restart the day/period counters are restored from the persisted usage (restoreLimits), and
 * so are a key's when its limits change while the gateway runs (reseedChangedLimits).
 *
 * This class counts for one process (the sqlite store: one machine). On a store shared by several
 * gateways, SharedLimiter (shared-limits.ts) counts in the store instead, and its `admit` and
 * `restore` return promises — which is why callers await them.
 */
import type {EventBus} from '../base/events.js';
import {budgetWarnAt, localDay, periodBounds, periodWords, reachedLimit, type LimitUse} from '../base/periods.js';
import {budgetDollars} from '../base/digits.js';
import {GatewayError} from '../base/errors.js';
import type {KeyRecord} from '../base/records.js';
import {systemClock, type Clock} from '../base/clock.js';

type Window = {id: string; requests: number; tokens: number};
type KeyState = {minute: Window; day: Window; spend: {id: string; usd: number}; warned: string | null};

export class KeyLimiter {
	private readonly states = new Map<string, KeyState>();

	constructor(
		protected readonly events?: EventBus,
		/** A clock's `now` alone: the limiter only reads the time, it never schedules (tests pass a FakeClock's). */
		protected readonly now: Clock['now'] = systemClock.now,
	) {}

	/** Admit one request for `key` or throw a 429 GatewayError naming the limit and when it resets. */
	admit(key: KeyRecord): void | Promise<void> {
		if (!key.limits) return;
		const now = this.now();
		const state = this.state(key, now);
		const refused = refusal(key, useOf(state), now);
		if (refused) throw refused;
		state.minute.requests++;
		state.day.requests++;
	}

	/** Count what a finished request used. */
	record(key: KeyRecord, tokens: number, costUsd: number, at = this.now()): void {
		const state = this.state(key, at);
		state.minute.tokens += tokens;
		state.day.tokens += tokens;
		state.spend.usd += costUsd;
		this.maybeWarn(key, state);
	}

	/**
	 * Seed the counters of the current windows from persisted usage. After a restart a budget past
	 * its threshold was warned of already and stays quiet; with `warn` (limits just set or changed)
	 * it warns now, once, as a request crossing it would.
	 */
	restore(key: KeyRecord, use: Partial<LimitUse>, warn = false): void | Promise<void> {
		const state = this.raise(key, use);
		if (warn) this.maybeWarn(key, state);
		else if (key.limits?.budget && state.spend.usd >= this.warnAt(key)) state.warned = state.spend.id;
	}

	/** Raise the counters to what the shared store counted (all gateways), warning once when the budget threshold is crossed. */
	observe(key: KeyRecord, use: LimitUse): void {
		this.maybeWarn(key, this.raise(key, use));
	}

	use(key: KeyRecord): LimitUse {
		return useOf(this.state(key, this.now()));
	}

	/** Key id → what each limited key used in its current windows (the Keys pane's figures). */
	useOfKeys(keys: readonly KeyRecord[]): Map<string, LimitUse> {
		return new Map(keys.filter(key => key.limits).map(key => [key.id, this.use(key)]));
	}

	/** Waits for counting still under way (none here: see SharedLimiter). */
	async settle(): Promise<void> {}

	private raise(key: KeyRecord, use: Partial<LimitUse>): KeyState {
		const state = this.state(key, this.now());
		state.minute.requests = Math.max(state.minute.requests, use.rpm ?? 0);
		state.minute.tokens = Math.max(state.minute.tokens, use.tpm ?? 0);
		state.day.requests = Math.max(state.day.requests, use.rpd ?? 0);
		state.day.tokens = Math.max(state.day.tokens, use.tpd ?? 0);
		state.spend.usd = Math.max(state.spend.usd, use.spendUsd ?? 0);
		return state;
	}

	private warnAt(key: KeyRecord): number {
		return budgetWarnAt(key.limits);
	}

	private maybeWarn(key: KeyRecord, state: KeyState): void {
		const budget = key.limits?.budget;
		if (!budget || state.warned === state.spend.id || state.spend.usd < this.warnAt(key)) return;
		state.warned = state.spend.id;
		this.events?.emit('key:budget', {keyId: key.id, keyName: key.name, spentUsd: state.spend.usd, budgetUsd: budget.usd, period: budget.period, percent: Math.round((state.spend.usd / budget.usd) * 100)});
	}

	/** The key's counters, rolled over to the windows containing `at`. */
	private state(key: KeyRecord, at: number): KeyState {
		const minute = String(Math.floor(at / 60_000));
		const day = localDay(new Date(at));
		const period = key.limits?.budget?.period ?? 'total';
		const spendId = `${period}:${periodBounds(period, at).start.getTime()}`;
		let state = this.states.get(key.id);
		if (!state) {
			state = {minute: {id: minute, requests: 0, tokens: 0}, day: {id: day, requests: 0, tokens: 0}, spend: {id: spendId, usd: 0}, warned: null};
			this.states.set(key.id, state);
		}
		if (state.minute.id !== minute) state.minute = {id: minute, requests: 0, tokens: 0};
		if (state.day.id !== day) state.day = {id: day, requests: 0, tokens: 0};
		if (state.spend.id !== spendId) state.spend = {id: spendId, usd: 0};
		return state;
	}
}

const useOf = (state: KeyState): LimitUse => ({rpm: state.minute.requests, rpd: state.day.requests, tpm: state.minute.tokens, tpd: state.day.tokens, spendUsd: state.spend.usd});

/** The 429 for the first limit `use` has reached (the budget first), or null when none is. */
export function refusal(key: KeyRecord, use: LimitUse, now: number): GatewayError | null {
	const limits = key.limits;
	const reached = reachedLimit(limits, use);
	switch (reached) {
		case null:
			return null;
		case 'budget':
			return overBudget(key, use.spendUsd, now);
		case 'rpm':
		case 'tpm':
			return overLimit(key, `${limits![reached]} ${limitWords[reached]}`, use[reached], 'minute', now);
		case 'rpd':
		case 'tpd':
			return overLimit(key, `${limits![reached]} ${limitWords[reached]}`, use[reached], 'daily', now);
	}
}

const limitWords = {rpm: 'requests per minute', rpd: 'requests per day', tpm: 'tokens per minute', tpd: 'tokens per day'} as const;

function resetText(next: Date, now: number): {retryAfter: string; words: string} {
	const seconds = Math.max(1, Math.ceil((next.getTime() - now) / 1000));
	const when = seconds < 120 ? `${seconds} s` : seconds < 7200 ? `${Math.round(seconds / 60)} min` : seconds < 172_800 ? `${Math.round(seconds / 3600)} h` : `${Math.round(seconds / 86_400)} d`;
	return {retryAfter: String(seconds), words: `in ${when} (${next.toISOString()})`};
}

function overLimit(key: KeyRecord, limit: string, used: number, window: 'minute' | 'daily', now: number): GatewayError {
	const reset = resetText(periodBounds(window, now).next!, now);
	return new GatewayError('rate_limit', 429, `The virtual key "${key.name}" is over its limit of ${limit} (used ${used}). It resets ${reset.words}; wait until then or raise the limit with \`gateway-tui keys edit ${key.name}\`.`, {code: 'rate_limit_exceeded', retryAfter: reset.retryAfter});
}

function overBudget(key: KeyRecord, spent: number, now: number): GatewayError {
	const budget = key.limits!.budget!;
	const next = periodBounds(budget.period, now).next;
	const reset = next ? resetText(next, now) : undefined;
	const tail = reset ? `It resets ${reset.words}; or raise it` : 'This budget never resets: raise it';
	return new GatewayError('insufficient_quota', 429, `The virtual key "${key.name}" has spent ${budgetDollars(spent, budget.usd)} of its ${budgetDollars(budget.usd, budget.usd)} budget ${periodWords[budget.period]}. ${tail} with \`gateway-tui keys edit ${key.name} --budget …\`.`, {code: 'insufficient_quota', retryAfter: reset?.retryAfter});
}
