/** Time windows of limits and budgets: the clock minute, the local day, week (from Monday), month, or all time. */
import {assertNever} from './ir.js';
import type {BudgetPeriod} from './records.js';

export type LimitUse = {
	readonly rpm: number;
	readonly rpd: number;
	readonly tpm: number;
	readonly tpd: number;
	readonly spendUsd: number;
};

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

