/**
 * Usage pane: totals (requests, failed, tokens in/out, cost) by key and by model, for today or all
 * time (`t`), and the live request log, newest first. ↑/↓ select a request, Enter shows it in full.
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

export type UsagePaneProps = {
	readonly usage: UsageSnapshot;
	/** Newest first. */
	readonly log: readonly RequestFinished[];
	/** Where the totals come from: this session's requests, or the stored history. */
	readonly source: 'session' | 'stored';
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
};

function totalsText(label: string, rows: readonly UsageRow[]): string {
	const sum = sumRows(label, rows);
	return `${label}: ${sum.requests} requests, ${sum.failed} failed, ${compact(sum.inputTokens)} in, ${compact(sum.outputTokens)} out, ${costText(sum)}`;
}

const usageColumns = (title: string) => [
	{header: title, width: 8, grow: 1, value: (row: UsageRow) => row.group},
	{header: 'REQS', width: 5, align: 'right' as const, value: (row: UsageRow) => String(row.requests)},
	{header: 'FAIL', width: 4, align: 'right' as const, value: (row: UsageRow) => String(row.failed), color: (row: UsageRow) => (row.failed ? theme.error : undefined)},
	{header: 'IN', width: 6, align: 'right' as const, value: (row: UsageRow) => compact(row.inputTokens)},
	{header: 'OUT', width: 6, align: 'right' as const, value: (row: UsageRow) => compact(row.outputTokens)},
	{header: 'COST', width: 8, align: 'right' as const, value: (row: UsageRow) => costText(row), color: (row: UsageRow) => (row.unpriced ? theme.warn : undefined)},
];

export function UsagePane({usage, log, source, active, width, height}: UsagePaneProps) {
	const [period, setPeriod] = useState<UsagePeriod>('today');
	const [selectedId, setSelectedId] = useState<string | null>(null);
	const [details, setDetails] = useState(false);
	const index = selectedId === null ? -1 : log.findIndex(entry => entry.id === selectedId);
	const selected = index >= 0 ? log[index] : undefined;

	const run = (command: UsageCommand) => {
		if (command === 'toggle-period') return setPeriod(period === 'today' ? 'all' : 'today');
		if (command === 'back') return setDetails(false);
		if (command === 'details') return setDetails(selected !== undefined);
		if (command === 'down') return setSelectedId(log[Math.min(log.length - 1, index + 1)]?.id ?? null);
		// Moving up past the newest request goes back to following the log.
		setSelectedId(index <= 0 ? null : log[index - 1]!.id);
	};
	useKeypress(
		(input, key) => {
			const command = resolve(usageBindings, input, key);
			if (command) run(command);
		},
		{isActive: active},
	);

	const inner = width - 4;
	const totals = usage[period];
	const tableRows = Math.min(4, Math.max(1, totals.byKey.length, totals.byModel.length));
	const half = Math.floor((inner - 3) / 2);
	const logHeight = height - 4 - 2 - (tableRows + 1) - 2;
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
			<Box marginTop={1}>
				<Table columns={usageColumns('BY KEY')} rows={totals.byKey} rowKey={row => row.group} selected={-1} width={half} height={tableRows + 1} empty="no requests yet" />
				<Text color={theme.border}>{' │ '}</Text>
				<Table columns={usageColumns('BY MODEL')} rows={totals.byModel} rowKey={row => row.group} selected={-1} width={half} height={tableRows + 1} empty="" />
			</Box>
			<Box marginTop={1} flexDirection="column">
				<Text bold>{`Live requests, newest first${selected ? ' · ↑ past the top follows new ones' : ''}`}</Text>
				<Table columns={logColumns} rows={log} rowKey={row => row.id} selected={index} width={inner} height={Math.max(2, logHeight)} empty="No requests yet. Point a client at the gateway (3: Endpoints) and they appear here live." />
			</Box>
		</Panel>
	);
}
