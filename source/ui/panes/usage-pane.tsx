/**
 * Usage pane: totals (requests, failed, tokens in/out, cost) by key and by model, for today or all
 * time (`t`), and the live request log, newest first, following new requests until the user moves
 * into it (see log-follow.ts); `/` filters it, Enter shows a request in full.
 * The props are plain `UsageRow`s and `RequestFinished` events: where they come from is the
 * hooks' business.
 */
import {Box, Text} from 'ink';
import {resolve, usageBindings, type Capture, type UsageCommand} from '../commands.js';
import {Panel} from '../components/panel.js';
import {columnWidths, Table, tableWindow} from '../components/table.js';
import type {RequestFinished} from '../../base/events.js';
import type {UsageRow} from '../../base/usage-types.js';
import {compact, costText, wrapLines} from '../text.js';
import {theme} from '../theme.js';
import {periodTotals, tokensPerHour, type UsagePeriod, type UsageSnapshot} from '../usage-view.js';
import {logColumns, RequestDetails} from './request-log-view.js';
import {useKeypress, useKeyState} from '../hooks/use-keypress.js';
import {TextField} from '../components/text-field.js';
import {TrafficCharts} from '../components/sparkline.js';
import type {TrafficSnapshot} from '../traffic.js';
import {following, live, move, newSince, oldest, selectedIndex, type Follow} from '../log-follow.js';
import {filterLog} from '../../base/request-filter.js';

export type UsagePaneProps = {
	readonly usage: UsageSnapshot;
	/** Newest first. */
	readonly log: readonly RequestFinished[];
	/** Where the totals come from: this session's requests, or the stored history. */
	readonly source: 'session' | 'stored';
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
	/** Told while the filter line takes the keyboard (global keys pause meanwhile). */
	readonly onCapture?: (captured: Capture) => void;
	/** Requests, errors, tokens and latency over time; no charts without it. */
	readonly traffic?: TrafficSnapshot;
};

/** `Today: 18 requests, 3 failed, …` — the same numbers as the status bar's (periodTotals). */
function totalsText(usage: UsageSnapshot, period: UsagePeriod): string {
	const sum = periodTotals(usage, period);
	return `${sum.group}: ${sum.requests} request${sum.requests === 1 ? '' : 's'}, ${sum.failed} failed, ${compact(sum.inputTokens)} in, ${compact(sum.outputTokens)} out, ${costText(sum)}`;
}

const usageColumns = (title: string, short = false) => [
	{header: title, width: 8, grow: 1, wants: {width: 17, priority: 0.5}, value: (row: UsageRow) => row.group},
	{header: 'REQS', width: 4, align: 'right' as const, whole: true, value: (row: UsageRow) => String(row.requests)},
	{header: 'FAIL', width: 4, align: 'right' as const, whole: true, value: (row: UsageRow) => String(row.failed), color: (row: UsageRow) => (row.failed ? theme.error : undefined)},
	{header: 'IN', width: 6, align: 'right' as const, whole: true, priority: 2, value: (row: UsageRow) => compact(row.inputTokens)},
	{header: 'OUT', width: 6, align: 'right' as const, whole: true, priority: 1, value: (row: UsageRow) => compact(row.outputTokens)},
	{header: 'COST', width: 8, align: 'right' as const, whole: true, value: (row: UsageRow) => costText(row, short), color: (row: UsageRow) => (row.unpriced ? theme.warn : undefined)},
];

export function UsagePane({usage, log, source, active, width, height, onCapture, traffic}: UsagePaneProps) {
	const periodState = useKeyState<UsagePeriod>('today');
	const period = periodState.current;
	const follow = useKeyState<Follow>(following);
	// The details and the filter line take the keyboard: changing them holds the keys after for them.
	const details = useKeyState(false, {moves: true});
	const typing = useKeyState(false, {moves: true});
	const rowsOf = () => filterLog(log, follow.current.filter);
	const rows = rowsOf();
	const index = selectedIndex(follow.current, rows);
	const selected = index >= 0 ? rows[index] : undefined;
	const inner = width - 4;
	const errorLines = usage.error ? wrapLines(usage.error, inner, 3) : [];
	const layoutOf = (shownPeriod: UsagePeriod) => {
		const totals = usage[shownPeriod];
		return usageLayout(height, {errorLines: errorLines.length, traffic: traffic !== undefined, totalsWanted: Math.max(totals.byKey.length, totals.byModel.length)});
	};
	const layout = layoutOf(period);
	// The rows the log table shows (its header and its "↓ n more" line take the rest).
	const visibleOf = (count: number) => tableWindow(count, layoutOf(periodState.current).logLines).visible;
	const setTyping = (on: boolean) => {
		typing.set(on);
		onCapture?.(on ? 'filter' : null);
	};
	// The details have keys of their own (b, scrolling): the footer shows them while they are open.
	const showDetails = (on: boolean) => {
		details.set(on);
		onCapture?.(on ? 'request' : null);
	};

	const run = (command: UsageCommand) => {
		const now = follow.current;
		const shown = rowsOf();
		const visibleRows = visibleOf(shown.length);
		if (command === 'toggle-period') return periodState.set(periodState.current === 'today' ? 'all' : 'today');
		if (command === 'filter') return setTyping(true);
		if (command === 'details') {
			if (selectedIndex(now, shown) >= 0) return showDetails(true);
			if (shown.length === 0) return;
			// Following the newest: Enter opens that one, and the log stays on it behind the details.
			follow.set(move(now, shown, 1, visibleRows));
			return showDetails(true);
		}
		if (command === 'back') return details.current ? showDetails(false) : follow.set(now.selectedId === null ? {...following} : live(now));
		if (command === 'live') return follow.set(live(now));
		if (command === 'oldest') return follow.set(oldest(now, shown, visibleRows));
		const page = visibleRows;
		const delta = {up: -1, down: 1, 'page-up': -page, 'page-down': page}[command];
		follow.set(move(now, shown, delta, visibleRows));
	};
	useKeypress(
		key => {
			if (typing.current) {
				// The filter line edits; Enter keeps the filter, Esc clears it, and no other key leaves it.
				if (key.name === 'enter' || key.name === 'escape') setTyping(false);
				if (key.name === 'escape') follow.set({...follow.current, filter: ''});
				return true;
			}
			if (details.current && key.name !== 'escape') return false;
			const command = resolve(usageBindings, key);
			if (command) run(command);
			return command !== undefined;
		},
		{isActive: active},
	);

	const periodText = period === 'today' ? 'today (t: all time)' : 'all time (t: today)';
	if (details.current && selected) {
		return (
			<Panel title="Request" subtitle={selected.id} width={width} height={height}>
				<RequestDetails event={selected} width={inner} height={height - 3} active={active} />
			</Panel>
		);
	}
	return (
		<Panel title="Usage" subtitle={`${periodText} · ${source === 'session' ? 'counted since this TUI started' : 'from the stored history'}`} width={width} height={height}>
			<Text wrap="truncate">{totalsText(usage, 'today')}</Text>
			{layout.allTime ? (
				<Text wrap="truncate" color={theme.muted}>
					{totalsText(usage, 'all')}
				</Text>
			) : null}
			{errorLines.map((line, index) => (
				<Text key={index} wrap="truncate" color={theme.error}>
					{line}
				</Text>
			))}
			{traffic && layout.charts ? <TrafficCharts traffic={traffic} tokensPerHour={tokensPerHour(usage.lastDay)} width={inner} /> : null}
			<Totals totals={usage[period]} width={inner} rows={layout.totalsRows} gap={layout.gaps} />
			<Box marginTop={layout.gaps ? 1 : 0} flexDirection="column">
				<LogHeader follow={follow.current} rows={rows} total={log.length} typing={typing.current} onFilter={filter => follow.set(live({...follow.current, filter}))} width={inner} />
				<Table columns={logColumns} rows={rows} rowKey={row => row.id} selected={index} start={follow.current.selectedId === null ? 0 : newSince(follow.current, rows) + follow.current.scroll} width={inner} height={layout.logLines} empty={follow.current.filter ? `No request matches "${follow.current.filter}": Esc clears the filter.` : 'No requests yet. Point a client at the gateway (3: Endpoints) and they appear here live.'} />
			</Box>
		</Panel>
	);
}

/**
 * The columns of a totals table in `width`: a cost with unpriced tokens besides reads `$0.0004+`
 * where `$0.0004 + no price` would not fit (a cost is never cut).
 */
export function totalsColumns(title: string, rows: readonly UsageRow[], width: number) {
	const full = usageColumns(title);
	const need = columnWidths(full, width, rows).reduce((sum, column) => sum + (column > 0 ? column + 1 : 0), -1);
	return need <= width ? full : usageColumns(title, true);
}

/** By key and by model, side by side, in `rows` rows and their header. */
function Totals({totals, width, rows, gap}: {readonly totals: UsageSnapshot['today']; readonly width: number; readonly rows: number; readonly gap: boolean}) {
	const half = Math.floor((width - 3) / 2);
	return (
		<Box marginTop={gap ? 1 : 0}>
			<Table columns={totalsColumns('BY KEY', totals.byKey, half)} rows={totals.byKey} rowKey={row => row.group} selected={-1} width={half} height={rows + 1} empty="no requests yet" />
			<Text color={theme.border}>{' │ '}</Text>
			<Table columns={totalsColumns('BY MODEL', totals.byModel, half)} rows={totals.byModel} rowKey={row => row.group} selected={-1} width={half} height={rows + 1} empty="" />
		</Box>
	);
}

export type UsageLayout = {
	/** The all-time totals line under today's. */
	readonly allTime: boolean;
	/** The two lines of traffic charts. */
	readonly charts: boolean;
	/** A blank line above the totals and above the log. */
	readonly gaps: boolean;
	/** Rows of the totals tables, under their header. */
	readonly totalsRows: number;
	/** Lines of the log table, its header included. */
	readonly logLines: number;
};

/**
 * What the pane shows in `height` lines, its frame included, so that nothing is drawn past it: the
 * frame, the title, today's totals, the store's error (its lines), the totals' header and a row, the
 * log's header, and the log table's header and a request always; then, while they fit, the all-time
 * line, the charts and the blank lines between the parts; the totals and the log share the rest.
 * At 80×24 everything shows.
 */
export function usageLayout(height: number, parts: {readonly errorLines: number; readonly traffic: boolean; readonly totalsWanted: number}): UsageLayout {
	let spare = height - (2 + 1 + 1 + parts.errorLines + 2 + 1 + 2);
	const take = (lines: number): boolean => {
		if (spare < lines) return false;
		spare -= lines;
		return true;
	};
	const allTime = take(1);
	const charts = parts.traffic && take(2);
	const gaps = take(2);
	const totalsRows = Math.max(1, Math.min(parts.totalsWanted, Math.max(3, Math.floor((height - 14) / 2)), 1 + spare));
	return {allTime, charts, gaps, totalsRows, logLines: 2 + spare - (totalsRows - 1)};
}

type HeaderProps = {
	readonly follow: Follow;
	readonly rows: readonly RequestFinished[];
	readonly total: number;
	readonly typing: boolean;
	readonly onFilter: (filter: string) => void;
	readonly width: number;
};

/** "Live requests, newest first", or where the reading position is and how many arrived since. */
function LogHeader({follow, rows, total, typing, onFilter, width}: HeaderProps) {
	const count = newSince(follow, rows);
	const filtered = follow.filter ? ` · filter "${follow.filter}": ${rows.length} of ${total}` : '';
	if (typing) {
		return (
			<Box>
				<Text bold color={theme.accent}>{'Filter / '}</Text>
				<TextField value={follow.filter} onChange={onFilter} focus width={width - 10} placeholder="key, model, channel or status (429, 5xx)" />
			</Box>
		);
	}
	if (follow.selectedId === null) return <Text bold wrap="truncate">{`Live requests, newest first${filtered}`}</Text>;
	return (
		<Text wrap="truncate">
			<Text bold>{'Paused on a request'}</Text>
			{count > 0 ? <Text bold color={theme.accent}>{`  ${count} new ↑`}</Text> : null}
			<Text color={theme.muted}>{`${filtered} · g or Esc: back to live`}</Text>
		</Text>
	);
}
