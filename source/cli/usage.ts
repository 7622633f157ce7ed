/**
 * `gateway-tui usage` — totals by key, model, channel, day or hour, as a table, JSON or CSV. Each
 * gateway process writes its own totals (an instance) and these are their sums; the table says how
 * many instances contributed, and each JSON row how many wrote to it.
 */
import type {Command} from 'commander';
import {UserError} from '../base/errors.js';
import {parseDuration} from '../services/parse.js';
import {usageDimensions, usageReport, type UsageGroupBy, type UsageRow} from '../store/usage-summary.js';
import {withStore} from './context.js';
import {print, printJson, table} from './output.js';

const priceHint = 'Set prices with `gateway-tui channels edit CHANNEL --price MODEL=IN/OUT[/CACHED]` (USD per 1M tokens).';

export function parseGroupBy(text: string): UsageGroupBy {
	const found = usageDimensions.find(dimension => dimension === text.trim());
	if (!found) throw new UserError(`Unknown --by "${text}": use key, model, channel, day or hour.`);
	return found;
}

/** `7d`, `12h` (that long ago), `2025-01-31` (local midnight) or an ISO-8601 time. */
export function parseSince(text: string, now = Date.now()): Date {
	const trimmed = text.trim();
	if (/^\d+\s*[smhdw]$/.test(trimmed)) return new Date(now - parseDuration(trimmed, '--since'));
	const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
	const time = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime() : Date.parse(trimmed);
	if (Number.isNaN(time)) throw new UserError(`Invalid --since "${text}": use a duration such as 7d or 12h, or a date such as 2025-01-31.`);
	return new Date(time);
}

export function formatCost(row: Pick<UsageRow, 'costUsd' | 'unpriced'>): string {
	if (row.unpriced && row.costUsd === 0) return 'no price';
	return `$${row.costUsd.toFixed(4)}${row.unpriced ? ' *' : ''}`;
}

/** A row as scripts see it: the group named by its dimension (`key`, `model`, `channel`, `day`, `hour`). */
export function rowJson(by: UsageGroupBy, row: UsageRow): Record<string, string | number | boolean | null> {
	const {group, id, ...rest} = row;
	return {[by]: group, ...(id ? {id} : {}), ...rest, aborted: row.aborted ?? 0};
}

const csvColumns = ['requests', 'succeeded', 'failed', 'aborted', 'inputTokens', 'outputTokens', 'cachedTokens', 'reasoningTokens', 'costUsd', 'unpriced', 'latencyP50Ms', 'latencyP95Ms'] as const;

function csvCell(value: string | number | boolean | null | undefined): string {
	const text = value === null || value === undefined ? '' : String(value);
	return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(by: UsageGroupBy, rows: readonly UsageRow[]): string {
	const lines = [[by, ...csvColumns].join(',')];
	for (const row of rows) {
		const json = rowJson(by, row);
		lines.push([row.group, ...csvColumns.map(column => json[column])].map(csvCell).join(','));
	}
	return `${lines.join('\n')}\n`;
}

function sum(rows: readonly UsageRow[]): UsageRow {
	const add = (field: 'requests' | 'succeeded' | 'failed' | 'inputTokens' | 'outputTokens' | 'cachedTokens' | 'reasoningTokens' | 'costUsd') => rows.reduce((total, row) => total + row[field], 0);
	return {
		group: 'TOTAL',
		requests: add('requests'),
		succeeded: add('succeeded'),
		failed: add('failed'),
		aborted: rows.reduce((total, row) => total + (row.aborted ?? 0), 0),
		inputTokens: add('inputTokens'),
		outputTokens: add('outputTokens'),
		cachedTokens: add('cachedTokens'),
		reasoningTokens: add('reasoningTokens'),
		costUsd: add('costUsd'),
		unpriced: rows.some(row => row.unpriced),
		latencyP50Ms: null,
		latencyP95Ms: null,
	};
}

export function usageTable(by: UsageGroupBy, rows: readonly UsageRow[]): string {
	const ms = (value: number | null) => (value === null ? '-' : `${value}ms`);
	const cells = [...rows, ...(rows.length > 1 ? [sum(rows)] : [])].map(row => ({
		[by]: row.group,
		requests: String(row.requests),
		ok: String(row.succeeded),
		failed: String(row.failed),
		aborted: String(row.aborted ?? 0),
		input: String(row.inputTokens),
		output: String(row.outputTokens),
		cached: String(row.cachedTokens),
		cost: formatCost(row),
		p50: ms(row.latencyP50Ms),
		p95: ms(row.latencyP95Ms),
	}));
	const text = table(cells, [by, 'requests', 'ok', 'failed', 'aborted', 'input', 'output', 'cached', 'cost', 'p50', 'p95']);
	const notes = rows.some(row => row.unpriced) ? `\nno price / *: some requests used a model with no price on its channel and count as $0. ${priceHint}` : '';
	return text + notes;
}

/** How many gateway instances the totals come from: several gateways on one store each write their own. */
export function instancesLine(instances: number): string {
	return instances === 1 ? 'From 1 gateway instance.' : `Summed over ${instances} gateway instances (each gateway process writes its own totals to the store).`;
}

export function registerUsage(program: Command): void {
	program
		.command('usage')
		.description('usage totals (requests, tokens, cost, latency) by key, model, channel, day or hour')
		.option('--by <dimension>', 'key, model, channel, day or hour (hours of today unless --since)', 'key')
		.option('--since <when>', 'only requests since: a duration (7d, 12h) or a date (2025-01-31)')
		.option('--json', 'print JSON: an array of rows')
		.option('--csv', 'print CSV with a header line')
		.action(async (options: {by: string; since?: string; json?: boolean; csv?: boolean}, command: Command) => {
			if (options.json && options.csv) throw new UserError('Give either --json or --csv, not both.');
			const by = parseGroupBy(options.by);
			const since = options.since === undefined ? undefined : parseSince(options.since);
			await withStore(command, async store => {
				const {rows, instances} = await usageReport(store, {by, ...(since ? {since} : {})});
				if (options.json) return printJson(rows.map(row => rowJson(by, row)));
				if (options.csv) return void process.stdout.write(toCsv(by, rows));
				if (rows.length === 0) return print('No usage recorded yet. Requests through the gateway show up here about a second after they finish.');
				print(`${usageTable(by, rows)}\n${instancesLine(instances)}`);
			});
		});
}
