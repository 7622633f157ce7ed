/**
 * Usage pane: totals (requests, failed, tokens in/out, cost) by key and by model, for today or all
 * time (`t`), and the live request log, newest first, following new requests until the user moves
 * into it (see log-follow.ts); `/` filters it, Enter shows a request in full.
 * The props are plain `UsageRow`s and `RequestFinished` events: where they come from is the
 * hooks' business.
 */
import {useState} from 'react';
import {Box, Text} from 'ink';
import {resolve, usageBindings, type UsageCommand} from '../commands.js';
import {Panel} from '../components/panel.js';
import {Table} from '../components/table.js';
import type {RequestFinished} from '../../base/events.js';
import type {UsageRow} from '../../base/usage-types.js';
import {sumRows} from '../session-usage.js';
import {compact, costText} from '../text.js';
import {theme} from '../theme.js';
import type {UsagePeriod, UsageSnapshot} from '../usage-view.js';
import {logColumns, RequestDetails} from './request-log-view.js';
import {useKeypress} from '../hooks/use-keypress.js';
import {TextField} from '../components/text-field.js';
import {TrafficCharts} from '../components/sparkline.js';
import type {TrafficSnapshot} from '../traffic.js';
import {filterLog, following, live, move, newSince, oldest, selectedIndex, type Follow} from '../log-follow.js';

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
	readonly onCapture?: (captured: boolean) => void;
	/** Requests, errors, tokens and latency over time; no charts without it. */
	readonly traffic?: TrafficSnapshot;
};

function totalsText(label: string, rows: readonly UsageRow[]): string {
	const sum = sumRows(label, rows);
	return `${label}: ${sum.requests} requests, ${sum.failed} failed, ${compact(sum.inputTokens)} in, ${compact(sum.outputTokens)} out, ${costText(sum)}`;
}

const usageColumns = (title: string) => [
	{header: title, width: 8, grow: 1, value: (row: UsageRow) => row.group},
	{header: 'REQS', width: 5, align: 'right' as const, value: (row: UsageRow) => String(row.requests)},
	{header: 'FAIL', width: 4, align: 'right' as const, value: (row: UsageRow) => String(row.failed), color: (row: UsageRow) => (row.failed ? theme.error : undefined)},
	{header: 'IN', width: 6, align: 'right' as const, whole: true, priority: 2, value: (row: UsageRow) => compact(row.inputTokens)},
	{header: 'OUT', width: 6, align: 'right' as const, whole: true, priority: 1, value: (row: UsageRow) => compact(row.outputTokens)},
	{header: 'COST', width: 8, align: 'right' as const, whole: true, value: (row: UsageRow) => costText(row), color: (row: UsageRow) => (row.unpriced ? theme.warn : undefined)},
];

export function UsagePane({usage, log, source, active, width, height, onCapture, traffic}: UsagePaneProps) {
	const [period, setPeriod] = useState<UsagePeriod>('today');
	const [follow, setFollow] = useState<Follow>(following);
	const [details, setDetails] = useState(false);
	const [typing, setTypingState] = useState(false);
	const rows = filterLog(log, follow.filter);
	const index = selectedIndex(follow, rows);
	const selected = index >= 0 ? rows[index] : undefined;
	const chartLines = traffic ? 2 : 0;
	const logRows = Math.max(2, logHeightOf(height, usage[period]) - chartLines);
	// The table's own header, and its "↓ n more" line when the rows do not fit.
	const visibleRows = Math.max(1, logRows - 1 - (rows.length > logRows - 1 ? 1 : 0));
	const setTyping = (on: boolean) => {
		setTypingState(on);
		onCapture?.(on);
	};

	const run = (command: UsageCommand) => {
		if (command === 'toggle-period') return setPeriod(period === 'today' ? 'all' : 'today');
		if (command === 'filter') return setTyping(true);
		if (command === 'details') return setDetails(selected !== undefined);
		if (command === 'back') return details ? setDetails(false) : setFollow(follow.selectedId === null ? {...following} : live(follow));
		if (command === 'live') return setFollow(live(follow));
		if (command === 'oldest') return setFollow(oldest(follow, rows, visibleRows));
		const page = visibleRows;
		const delta = {up: -1, down: 1, 'page-up': -page, 'page-down': page}[command];
		setFollow(move(follow, rows, delta, visibleRows));
	};
	useKeypress(
		(input, key) => {
			if (typing) {
				if (key.return || key.escape) setTyping(false);
				if (key.escape) setFollow({...follow, filter: ''});
				return;
			}
			if (details && !key.escape) return;
			const command = resolve(usageBindings, input, key);
			if (command) run(command);
		},
		{isActive: active},
	);

	const inner = width - 4;
	const periodText = period === 'today' ? 'today (t: all time)' : 'all time (t: today)';
	if (details && selected) {
		return (
			<Panel title="Request" subtitle={selected.id} width={width} height={height}>
				<RequestDetails event={selected} />
			</Panel>
		);
	}
	return (
		<Panel title="Usage" subtitle={`${periodText} · ${source === 'session' ? 'counted since this TUI started' : 'from the stored history'}`} width={width} height={height}>
			<Text wrap="truncate">{totalsText('Today', usage.today.byKey)}</Text>
			<Text wrap="truncate" color={theme.muted}>
				{totalsText('All time', usage.all.byKey)}
			</Text>
			{usage.error ? <Text color={theme.error}>{usage.error}</Text> : null}
			{traffic ? <TrafficCharts traffic={traffic} width={inner} /> : null}
			<Totals totals={usage[period]} width={inner} height={height} />
			<Box marginTop={1} flexDirection="column">
				<LogHeader follow={follow} rows={rows} total={log.length} typing={typing} onFilter={filter => setFollow(live({...follow, filter}))} width={inner} />
				<Table columns={logColumns} rows={rows} rowKey={row => row.id} selected={index} start={follow.selectedId === null ? 0 : newSince(follow, rows) + follow.scroll} width={inner} height={logRows} empty={follow.filter ? `No request matches "${follow.filter}": Esc clears the filter.` : 'No requests yet. Point a client at the gateway (3: Endpoints) and they appear here live.'} />
			</Box>
		</Panel>
	);
}

/** Rows of the totals tables: all of them where there is room, and the log keeps at least half. */
/** By key and by model, side by side. */
function Totals({totals, width, height}: {readonly totals: UsageSnapshot['today']; readonly width: number; readonly height: number}) {
	const rows = tableRowsOf(totals, height);
	const half = Math.floor((width - 3) / 2);
	return (
		<Box marginTop={1}>
			<Table columns={usageColumns('BY KEY')} rows={totals.byKey} rowKey={row => row.group} selected={-1} width={half} height={rows + 1} empty="no requests yet" />
			<Text color={theme.border}>{' │ '}</Text>
			<Table columns={usageColumns('BY MODEL')} rows={totals.byModel} rowKey={row => row.group} selected={-1} width={half} height={rows + 1} empty="" />
		</Box>
	);
}

function tableRowsOf(totals: UsageSnapshot['today'], height: number): number {
	return Math.min(Math.max(3, Math.floor((height - 14) / 2)), Math.max(1, totals.byKey.length, totals.byModel.length));
}

/** Lines for the log table (its header included): what the totals leave. */
function logHeightOf(height: number, totals: UsageSnapshot['today']): number {
	return height - 4 - 2 - (tableRowsOf(totals, height) + 1) - 2;
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
