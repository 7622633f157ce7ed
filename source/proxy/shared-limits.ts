/**
 * Key limits counted in a store shared by several gateways (Redis, PostgreSQL), so that N gateways
 * together admit what one would: each admission of a limited key is one atomic round trip to the
 * store's counters (store/counters.ts), and each finished request adds its tokens and cost there.
 * Keys without limits never touch the store. The in-memory counters of the base class mirror what
 * the store last answered (`use` reads them, for the TUI) and take over while the store is away.
 *
 * When the store does not answer (refused, or no answer within the time-out), the gateway either
 * fails open — counts on its own, as a single gateway would, so with N gateways a key may get up to
 * N times its limit — or closed — refuses requests of limited keys with a 503. A `warning` event
 * says so when it starts and when the store answers again; in between, the store is tried again at
 * most once a second, so requests do not each wait for a time-out.
 */
import {GatewayError, UserError} from '../base/errors.js';
import type {EventBus} from '../base/events.js';
import {periodBounds} from '../base/periods.js';
import type {KeyRecord} from '../base/records.js';
import {systemClock, type Clock} from '../base/clock.js';
import type {CounterLimits, CounterWindows, SharedCounters} from '../store/counters.js';
import type {Store} from '../store/index.js';
import {KeyLimiter, refusal} from './limits.js';
import type {LimitUse} from '../base/periods.js';

export type LimitsFail = 'open' | 'closed';

export type SharedLimitOptions = {
	/** What to do while the shared store cannot count: `open` (count per gateway) or `closed` (refuse limited keys). */
	readonly fail: LimitsFail;
	/** The longest an admission waits for the store. */
	readonly timeoutMs: number;
	/** After a failure, how long to count alone before asking the store again. */
	readonly retryMs: number;
};

export const defaultSharedLimitOptions: SharedLimitOptions = {fail: 'open', timeoutMs: 1000, retryMs: 1000};

/** `GATEWAY_TUI_LIMITS_FAIL=open|closed`; anything else is refused with what to write instead. */
export function limitsFailFromEnv(env: NodeJS.ProcessEnv = process.env): LimitsFail {
	const value = env.GATEWAY_TUI_LIMITS_FAIL?.trim().toLowerCase();
	if (value === undefined || value === '') return defaultSharedLimitOptions.fail;
	if (value === 'open' || value === 'closed') return value;
	throw new UserError(`GATEWAY_TUI_LIMITS_FAIL="${env.GATEWAY_TUI_LIMITS_FAIL}" is not open or closed. Set it to open (count limits per gateway while the shared store is unreachable, the default) or closed (refuse requests of keys with limits meanwhile).`);
}

/** The limiter for a gateway on `store`: shared counters on Redis/PostgreSQL, in memory on sqlite. */
export function createLimiter(store: Store, events: EventBus, now: Clock['now'] = systemClock.now, options: Partial<SharedLimitOptions> = {}): KeyLimiter {
	const timeoutMs = options.timeoutMs ?? defaultSharedLimitOptions.timeoutMs;
	const counters = store.counters(timeoutMs);
	if (!counters) return new KeyLimiter(events, now);
	return new SharedLimiter(counters, {...defaultSharedLimitOptions, fail: options.fail ?? limitsFailFromEnv(), ...options, timeoutMs}, events, now);
}

export class SharedLimiter extends KeyLimiter {
	private retryAt = 0;
	private down = false;
	private readonly pending = new Set<Promise<void>>();

	constructor(
		private readonly counters: SharedCounters,
		private readonly options: SharedLimitOptions,
		events?: EventBus,
		now: Clock['now'] = systemClock.now,
	) {
		super(events, now);
	}

	override admit(key: KeyRecord): void | Promise<void> {
		if (!key.limits) return;
		return this.admitShared(key);
	}

	override record(key: KeyRecord, tokens: number, costUsd: number, at = this.now()): void {
		super.record(key, tokens, costUsd, at);
		if (!key.limits || at < this.retryAt) return;
		this.track(this.counters.add(key.id, windowsOf(key, at), tokens, costUsd).then(use => this.answered(key, use)));
	}

	override async restore(key: KeyRecord, use: Partial<LimitUse>, warn = false): Promise<void> {
		await super.restore(key, use, warn);
		if (!key.limits) return;
		const full = {rpm: 0, rpd: 0, tpm: 0, tpd: 0, spendUsd: 0, ...use};
		// Seeding raises the shared counts to the persisted usage (several gateways may do it at once);
		// what the store then holds, other gateways' use included, is the mirror's starting point.
		await this.counters.seed(key.id, windowsOf(key, this.now()), full).then(
			shared => super.restore(key, shared, warn),
			(error: unknown) => this.failed(error),
		);
	}

	override async settle(): Promise<void> {
		await Promise.all([...this.pending]);
	}

	private async admitShared(key: KeyRecord): Promise<void> {
		const at = this.now();
		if (at < this.retryAt) return this.alone(key);
		let admission;
		try {
			admission = await this.counters.admit(key.id, windowsOf(key, at), limitsOf(key));
		} catch (error) {
			this.failed(error);
			return this.alone(key);
		}
		this.answered(key, admission.use);
		if (admission.admitted) return;
		throw (
			refusal(key, admission.use, at) ??
			// The store refused on counts that no longer show a reached limit (a window just rolled over).
			new GatewayError('rate_limit', 429, `The virtual key "${key.name}" is over one of its limits. Try again in a few seconds, or raise them with \`gateway-tui keys edit ${key.name}\`.`, {code: 'rate_limit_exceeded', retryAfter: '1'})
		);
	}

	/** Admission while the shared store is away: this gateway's own counts, or a refusal. */
	private alone(key: KeyRecord): void | Promise<void> {
		if (this.options.fail === 'open') return super.admit(key);
		throw new GatewayError(
			'overloaded',
			503,
			`The limits of the virtual key "${key.name}" cannot be checked: the gateway's shared store is unreachable, and this gateway refuses requests of keys with limits until it answers again. Try again shortly; the gateway's operator can check the store (see the gateway's warnings).`,
			{code: 'limits_unavailable', retryAfter: String(Math.max(1, Math.ceil(this.options.retryMs / 1000)))},
		);
	}

	private answered(key: KeyRecord, use: LimitUse): void {
		this.observe(key, use);
		if (!this.down) return;
		this.down = false;
		this.events?.emit('warning', {message: 'The shared store answers again: key limits are counted across all gateways on it again.'});
	}

	private failed(error: unknown): void {
		this.retryAt = this.now() + this.options.retryMs;
		if (this.down) return;
		this.down = true;
		const meanwhile =
			this.options.fail === 'open'
				? 'Until it answers, this gateway counts key limits on its own (GATEWAY_TUI_LIMITS_FAIL=open), so with several gateways a key may get up to that many times its limits.'
				: 'Until it answers, this gateway refuses requests of keys with limits with a 503 (GATEWAY_TUI_LIMITS_FAIL=closed); set GATEWAY_TUI_LIMITS_FAIL=open to count limits per gateway instead.';
		this.events?.emit('warning', {message: `Key limits cannot be counted in the shared store: ${(error as Error).message} ${meanwhile}`});
	}

	private track(work: Promise<void>): void {
		const done: Promise<void> = work.catch((error: unknown) => this.failed(error)).finally(() => this.pending.delete(done));
		this.pending.add(done);
	}
}

/** The key's windows at `at`, and how long its counters must be kept (a day past the longest window). */
export function windowsOf(key: KeyRecord, at: number): CounterWindows {
	const day = periodBounds('daily', at);
	const budget = key.limits?.budget;
	const spend = periodBounds(budget?.period ?? 'total', at);
	const lastEnd = budget ? spend.next : day.next;
	return {
		minuteStart: periodBounds('minute', at).start.getTime(),
		dayStart: day.start.getTime(),
		spendPeriod: budget?.period ?? 'total',
		spendStart: spend.start.getTime(),
		keepMs: lastEnd ? Math.max(lastEnd.getTime(), day.next!.getTime()) - at + 86_400_000 : 0,
	};
}

function limitsOf(key: KeyRecord): CounterLimits {
	const limits = key.limits ?? {};
	return {budgetUsd: limits.budget?.usd, rpm: limits.rpm, rpd: limits.rpd, tpm: limits.tpm, tpd: limits.tpd};
}
