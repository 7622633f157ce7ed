/** Time windows of limits and budgets: the clock minute, the local day, week (from Monday), month, or all time. */
import {assertNever} from './ir.js';
import type {BudgetPeriod, KeyLimits} from './records.js';

export type LimitUse = {
	readonly rpm: number;
	readonly rpd: number;
	readonly tpm: number;
	readonly tpd: number;
	readonly spendUsd: number;
};

/** The request limits in the order they are checked (after the budget). */
export const requestLimits = ['rpm', 'rpd', 'tpm', 'tpd'] as const;

/** The budget's share that warns when `--budget-warn` is not given. */
export const defaultBudgetWarnPercent = 80;

/** The first limit `use` has reached — the budget first — so the key's next request is refused; or null. */
export function reachedLimit(limits: KeyLimits | undefined, use: LimitUse): 'budget' | (typeof requestLimits)[number] | null {
	if (!limits) return null;
	if (limits.budget && use.spendUsd >= limits.budget.usd) return 'budget';
	return requestLimits.find(name => limits[name] !== undefined && use[name] >= limits[name]) ?? null;
}

const reachedWords = {budget: 'over its budget', rpm: 'at its requests-per-minute limit', rpd: 'at its requests-per-day limit', tpm: 'at its tokens-per-minute limit', tpd: 'at its tokens-per-day limit'} as const;

/** `over its budget`, `at its requests-per-minute limit`: why the key's next request is refused, or null. */
export function reachedLimitText(limits: KeyLimits | undefined, use: LimitUse): string | null {
	const reached = reachedLimit(limits, use);
	return reached ? reachedWords[reached] : null;
}

/** The spend at which the budget warns (`--budget-warn`, 80% by default); Infinity without a budget. */
export function budgetWarnAt(limits: KeyLimits | undefined): number {
	return limits?.budget ? (limits.budget.usd * (limits.budgetWarnPercent ?? defaultBudgetWarnPercent)) / 100 : Infinity;
}

const pad = (value: number) => String(value).padStart(2, '0');
export const localDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The start of the period containing `now`, and the start of the next one (null: never resets). */
export function periodBounds(period: BudgetPeriod | 'minute', now: number): {start: Date; next: Date | null} {
	const date = new Date(now);
	switch (period) {
		case 'minute': {
			const start = Math.floor(now / 60_000) * 60_000;
			return {start: new Date(start), next: new Date(start + 60_000)};
		}
		case 'daily':
			return {start: new Date(date.getFullYear(), date.getMonth(), date.getDate()), next: new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1)};
		case 'weekly': {
			const back = (date.getDay() + 6) % 7;
			return {start: new Date(date.getFullYear(), date.getMonth(), date.getDate() - back), next: new Date(date.getFullYear(), date.getMonth(), date.getDate() - back + 7)};
		}
		case 'monthly':
			return {start: new Date(date.getFullYear(), date.getMonth(), 1), next: new Date(date.getFullYear(), date.getMonth() + 1, 1)};
		case 'total':
			return {start: new Date(0), next: null};
		default:
			return assertNever(period, 'period');
	}
}

export const periodWords: Readonly<Record<BudgetPeriod, string>> = {daily: 'today', weekly: 'this week', monthly: 'this month', total: 'in total'};

