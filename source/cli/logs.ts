/** `gateway-tui logs` — the request log: the newest records, then (with --follow) new ones as they land. */
import type {Command} from 'commander';
import {UserError} from '../base/errors.js';
import {setTimeout as sleep} from 'node:timers/promises';
import {openRequestLog, recentRequests, watchRequests, type RequestRecord} from '../store/usage-summary.js';
import {formats, inboundFormats, isEstimated} from '../base/ir.js';
import {localDateTime} from '../base/iso-time.js';
import {formatsText, requestFilter} from '../base/request-filter.js';
import {withStore} from './context.js';
import type {Store} from '../store/index.js';
import {print, printJson} from './output.js';

/** The longest FORMAT cell there can be ("responses→anthropic stream"): --follow lines keep that column aligned. */
const formatWidth = Math.max(...inboundFormats.flatMap(inbound => formats.map(outbound => `${inbound}→${outbound} stream`.length)));

/** Each column's width while following (lines print as they land); a listing sizes each to its widest cell. */
const columns = [
	['time', 19],
	['status', 6],
	['type', 10],
	['key', 12],
	['model', 22],
	['channel', 12],
	['format', formatWidth],
	['latency', 8],
	['ttfb', 7],
	['in', 7],
	['out', 7],
	['cached', 7],
	['cost', 10],
] as const;

function cells(record: RequestRecord): string[] {
	const model = !record.model ? '-' : record.upstreamModel && record.upstreamModel !== record.model ? `${record.model}→${record.upstreamModel}` : record.model;
	const channel = record.attempts.length > 1 ? record.attempts.join('→') : (record.channelName ?? '-');
	const format = formatsText(record);
	const usage = record.usage;
	const cost = record.unpriced ? 'no price' : record.costUsd > 0 ? `$${record.costUsd.toFixed(6)}` : '-';
	return [
		localDateTime(record.time),
		String(record.status),
		record.eventType,
		record.keyName ?? '-',
		model,
		channel,
		`${format}${record.stream ? ' stream' : ''}`,
		`${record.latencyMs}ms`,
		record.ttfbMs === null ? '-' : `${record.ttfbMs}ms`,
		// "~": the gateway's estimate (a stream that ended before its usage came; --json has `usage.estimated` and `estimatedOnly`).
		usage ? `${isEstimated(usage, 'input') ? '~' : ''}${usage.inputTokens}` : '-',
		usage ? `${isEstimated(usage, 'output') ? '~' : ''}${usage.outputTokens}` : '-',
		usage ? String(usage.cachedTokens ?? 0) : '-',
		cost,
	];
}

type Widths = readonly number[];

const followWidths: Widths = columns.map(([, width]) => width);
const headerCells = columns.map(([name]) => name.toUpperCase());

function line(values: readonly string[], widths: Widths, tail = ''): string {
	return (values.map((value, index) => value.padEnd(widths[index]!)).join(' ') + tail).trimEnd();
}

function extraOf(record: RequestRecord): string {
	const extra = [record.outcome === 'aborted' ? 'ABORTED' : '', record.error ? `error="${record.error}"` : ''].filter(Boolean).join(' ');
	return extra ? ` ${extra}` : '';
}

export const logHeader = (): string => line(headerCells, followWidths);

/** One record as a fixed-width line (so --follow output lines up; a longer key, model or channel shifts only its own line): ABORTED and the error come last. */
export function formatLogLine(record: RequestRecord): string {
	return line(cells(record), followWidths, extraOf(record));
}

/** Records under a header, each column as wide as its widest cell (a long model name or a channel chain never shifts a line). */
export function formatLogTable(records: readonly RequestRecord[]): string {
	const rows = records.map(record => ({cells: cells(record), extra: extraOf(record)}));
	const widths = headerCells.map((header, index) => Math.max(header.length, ...rows.map(row => row.cells[index]!.length)));
	return [line(headerCells, widths), ...rows.map(row => line(row.cells, widths, row.extra))].join('\n');
}

export function parseTail(text: string): number {
	if (!/^\d+$/.test(text.trim()) || Number(text) > 1_000_000) throw new UserError(`Invalid --tail "${text}": give a number of records from 0 to 1000000, e.g. --tail 50.`);
	return Number(text);
}

export function registerLogs(program: Command): void {
	program
		.command('logs')
		.description('the request log: the newest requests; --follow prints new ones as they land (Ctrl+C ends)')
		.option('-n, --tail <n>', 'how many of the newest requests to print', '20')
		.option('-f, --follow', 'keep printing requests as gateways record them')
		.option('--json', 'print JSON (an array; with --follow one object per line)')
		.option('--filter <words>', 'only requests matching every word: key, model, channel, formats, status or outcome (429, 5xx, aborted, stream, failover, "gpt-4o laptop"), as the TUI\'s / filter')
		.action(async (options: {tail: string; follow?: boolean; json?: boolean; filter?: string}, command: Command) => {
			const tail = parseTail(options.tail);
			const filter = options.filter?.trim() ?? '';
			await withStore(command, async store => {
				if (!options.follow) {
					const records = filter ? await newestMatching(store, tail, requestFilter(filter)) : await recentRequests(store, tail);
					if (options.json) return printJson(records);
					if (records.length === 0) return print(filter ? `No recorded request matches "${filter}". Every word must match the key, model, channel, formats, status or outcome.` : 'No requests recorded yet. Requests through the gateway show up here about a second after they finish.');
					return print(formatLogTable(records));
				}
				await follow(store, tail, options.json === true, filter);
			});
		});
}

/**
 * The newest `tail` records that `keep` keeps: read in growing batches from the newest (four
 * times the last each round), so a filter that matches often reads little, one that matches rarely
 * reads back as far as the log goes.
 */
async function newestMatching(store: Store, tail: number, keep: (record: RequestRecord) => boolean): Promise<RequestRecord[]> {
	if (tail === 0) return [];
	for (let count = Math.max(1000, tail * 4); ; count *= 4) {
		const records = await recentRequests(store, count);
		const kept = records.filter(keep);
		if (kept.length >= tail || records.length < count) return kept.slice(-tail);
	}
}

async function follow(store: Store, tail: number, json: boolean, filter: string): Promise<void> {
	const controller = new AbortController();
	const stop = () => controller.abort();
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	process.stdout.once('error', stop);
	const write = (record: RequestRecord) => process.stdout.write(`${json ? JSON.stringify(record) : formatLogLine(record)}\n`);
	try {
		if (!json) print(logHeader());
		if (!filter) {
			for await (const record of watchRequests(store, {tail, signal: controller.signal})) write(record);
			return;
		}
		// The log is opened before the newest matches are read, so nothing that lands meanwhile is missed; what both saw prints once.
		const keep = requestFilter(filter);
		const {reader} = await openRequestLog(store);
		const shown = new Set<string>();
		for (const record of await newestMatching(store, tail, keep)) {
			shown.add(record.id);
			write(record);
		}
		while (!controller.signal.aborted) {
			for (const record of await reader.poll()) if (keep(record) && !shown.has(record.id)) write(record);
			shown.clear();
			await sleep(500, undefined, {signal: controller.signal}).catch(() => {});
		}
	} finally {
		process.off('SIGINT', stop);
		process.off('SIGTERM', stop);
		process.stdout.off('error', stop);
	}
}
