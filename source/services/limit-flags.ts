/**
 * Key limits as users type them (`--rpm 60`, `--budget 20/month`, `--budget-warn 80%`) and as they
 * are shown (`rpm 12/60 · $4.20 of $20.00 this month`).
 */
import {UserError} from '../base/errors.js';
import type {BudgetPeriod, KeyLimits} from '../base/records.js';
import {periodWords, reachedLimitText, requestLimits, type LimitUse} from '../base/periods.js';
import {budgetDollars, groupDigits} from '../base/digits.js';

export type LimitFlags = {rpm?: string; rpd?: string; tpm?: string; tpd?: string; budget?: string; budgetWarn?: string};

const clears: ReadonlySet<string> = new Set(['none', 'off', 'unlimited']);

function limitNumber(text: string, flag: string): number | undefined {
	if (clears.has(text.trim().toLowerCase())) return undefined;
	if (!/^\d+$/.test(text.trim()) || Number(text) <= 0) throw new UserError(`Invalid ${flag} "${text}": give a whole number above 0, or "none" to remove the limit.`);
	return Number(text);
}

const periods: Record<string, BudgetPeriod> = {day: 'daily', daily: 'daily', week: 'weekly', weekly: 'weekly', month: 'monthly', monthly: 'monthly', total: 'total'};

export function parseBudget(text: string): KeyLimits['budget'] {
	if (clears.has(text.trim().toLowerCase())) return undefined;
	const match = /^\$?(\d+(?:\.\d+)?)\s*\/\s*([a-z]+)$/i.exec(text.trim());
	const period = match ? periods[match[2]!.toLowerCase()] : undefined;
	if (!match || !period || Number(match[1]) <= 0) throw new UserError(`Invalid --budget "${text}": use USD/PERIOD with a period of day, week, month or total, e.g. --budget 20/month, or "none".`);
	return {usd: Number(match[1]), period};
}

/** Apply the flags given to the current limits; an absent flag keeps the current value. */
export function parseLimits(flags: LimitFlags, current: KeyLimits = {}): KeyLimits | undefined {
	const next: KeyLimits = {...current};
	for (const name of ['rpm', 'rpd', 'tpm', 'tpd'] as const) {
		const text = flags[name];
		if (text !== undefined) next[name] = limitNumber(text, `--${name}`);
	}
	if (flags.budget !== undefined) next.budget = parseBudget(flags.budget);
	// The warning threshold belongs to the budget: removing the budget removes it too.
	if (flags.budget !== undefined && !next.budget && flags.budgetWarn === undefined) delete next.budgetWarnPercent;
	if (flags.budgetWarn !== undefined && clears.has(flags.budgetWarn.trim().toLowerCase())) delete next.budgetWarnPercent;
	else if (flags.budgetWarn !== undefined) {
		const match = /^(\d+)\s*%?$/.exec(flags.budgetWarn.trim());
		if (!match || Number(match[1]) < 1 || Number(match[1]) > 100) throw new UserError(`Invalid --budget-warn "${flags.budgetWarn}": give a percentage from 1 to 100, e.g. --budget-warn 80%.`);
		next.budgetWarnPercent = Number(match[1]);
	}
	if (next.budgetWarnPercent !== undefined && !next.budget) throw new UserError('--budget-warn needs a budget: add --budget USD/PERIOD, e.g. --budget 20/month.');
	const defined = Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)) as KeyLimits;
	return Object.keys(defined).length > 0 ? defined : undefined;
}


/** The same for a terminal without colours: with what refuses the key's next request, if anything (`… — over its budget`). */
export function limitsLine(limits: KeyLimits | undefined, use?: LimitUse): string {
	const reached = limits && use ? reachedLimitText(limits, use) : null;
	return `${limitsText(limits, use)}${reached ? ` — ${reached}` : ''}`;
}

/** `rpm 12/60 · tpd 3,000/100,000 · $4.20 of $20.00 this month`, or `none`. */
export function limitsText(limits: KeyLimits | undefined, use?: LimitUse): string {
	if (!limits) return 'none';
	const parts = requestLimits.flatMap(name => (limits[name] === undefined ? [] : [`${name} ${use ? `${groupDigits(use[name])}/` : ''}${groupDigits(limits[name])}`]));
	if (limits.budget) parts.push(`${use ? `${budgetDollars(use.spendUsd, limits.budget.usd)} of ` : ''}${budgetDollars(limits.budget.usd, limits.budget.usd)} ${periodWords[limits.budget.period]}`);
	return parts.join(' · ');
}
