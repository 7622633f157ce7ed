/**
 * The limit fields of the key form and the `LimitFlags` they stand for — the strings of
 * `gateway-tui keys create/edit --rpm … --budget 20/month --budget-warn 80%`, which the service
 * parses and refuses (with a message the form shows). An empty field means no limit. Only the
 * flags that differ from the key's current limits are given, as a user would type them.
 */
import type {LimitFlags} from '../../services/limit-flags.js';
import type {BudgetPeriod, KeyLimits} from '../../base/records.js';
import {textValue, type Field, type FormValues} from '../components/form.js';

const periodNames: Readonly<Record<BudgetPeriod, string>> = {daily: 'day', weekly: 'week', monthly: 'month', total: 'total'};
const periods = Object.values(periodNames).map(name => ({label: name === 'total' ? 'in total' : `per ${name}`, value: name}));
const counts = ['rpm', 'rpd', 'tpm', 'tpd'] as const;

export function limitFields(values: FormValues): Field[] {
	const fields: Field[] = [
		{kind: 'choice', id: 'limits', label: 'Limits', options: [{label: 'none', value: 'none'}, {label: 'set limits…', value: 'set'}], hint: 'rate limits and a USD budget'},
	];
	if (textValue(values, 'limits') !== 'set') return fields;
	fields.push(
		{kind: 'text', id: 'rpm', label: 'Requests/min', placeholder: 'no limit', hint: 'per clock minute'},
		{kind: 'text', id: 'rpd', label: 'Requests/day', placeholder: 'no limit', hint: 'per local day'},
		{kind: 'text', id: 'tpm', label: 'Tokens/min', placeholder: 'no limit', hint: 'input + output tokens per clock minute'},
		{kind: 'text', id: 'tpd', label: 'Tokens/day', placeholder: 'no limit', hint: 'input + output tokens per local day'},
		{kind: 'text', id: 'budgetUsd', label: 'Budget USD', placeholder: 'no budget, e.g. 20', hint: "spend, from the channels' prices"},
	);
	if (textValue(values, 'budgetUsd').trim() === '') return fields;
	fields.push(
		{kind: 'choice', id: 'budgetPeriod', label: 'Budget', options: periods, hint: 'a week starts on Monday'},
		{kind: 'text', id: 'budgetWarn', label: 'Warn at %', placeholder: '80', hint: 'a warning in the status bar and the log, once per period'},
	);
	return fields;
}

/** A key's limits as the form shows them (no key: no limits, a monthly budget preselected). */
export function limitValues(limits: KeyLimits | undefined): FormValues {
	return {
		limits: limits ? 'set' : 'none',
		...Object.fromEntries(counts.map(name => [name, limits?.[name] === undefined ? '' : String(limits[name])])),
		budgetUsd: limits?.budget ? String(limits.budget.usd) : '',
		budgetPeriod: periodNames[limits?.budget?.period ?? 'monthly'],
		budgetWarn: limits?.budgetWarnPercent === undefined ? '' : String(limits.budgetWarnPercent),
	};
}

/** Each limit as a flag's text ('' for none), from the form's values. */
function flagTexts(values: FormValues): Required<LimitFlags> {
	const text = (id: string) => (textValue(values, 'limits') === 'set' ? textValue(values, id).trim() : '');
	const usd = text('budgetUsd');
	return {
		rpm: text('rpm'),
		rpd: text('rpd'),
		tpm: text('tpm'),
		tpd: text('tpd'),
		budget: usd ? `${usd}/${textValue(values, 'budgetPeriod')}` : '',
		budgetWarn: usd ? text('budgetWarn') : '',
	};
}

/** The flags that change `current` into what the form holds: a new value, or "none" to remove a limit. */
export function limitFlags(values: FormValues, current?: KeyLimits): LimitFlags {
	const wanted = flagTexts(values);
	const now = flagTexts(limitValues(current));
	const flags: LimitFlags = {};
	for (const name of Object.keys(wanted) as Array<keyof LimitFlags>) {
		if (wanted[name] !== now[name]) flags[name] = wanted[name] || 'none';
	}
	return flags;
}
