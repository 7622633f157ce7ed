/** What the Channels pane shows besides its form: the table's columns, a test's result, a channel's details (prices and health included). */
import {Box, Text} from 'ink';
import type {Column} from '../components/table.js';
import {Details, type Detail} from '../components/details.js';
import {formatModels} from '../../services/parse.js';
import {formatPrices} from '../../base/prices.js';
import type {ChannelRecord} from '../../base/records.js';
import type {HealthInfo} from '../health-view.js';
import {clock, relative} from '../text.js';
import {theme} from '../theme.js';
import {maskSecret} from '../../base/secrets.js';
import {type ProbeResult} from '../../base/probe-result.js';

const healthColors = {healthy: theme.ok, degraded: theme.warn, unavailable: theme.error} as const;

export function channelColumns(health?: ReadonlyMap<string, HealthInfo>): Array<Column<ChannelRecord>> {
	return [
		{header: 'NAME', width: 8, grow: 1, value: row => row.name},
		{header: 'FORMAT', width: 9, value: row => row.format},
		{header: 'BASE URL', width: 12, grow: 3, value: row => row.baseUrl},
		{header: 'MODELS', width: 8, grow: 2, value: row => formatModels(row.models)},
		{header: 'ON', width: 3, value: row => (row.enabled ? 'on' : 'off'), color: row => (row.enabled ? theme.ok : theme.muted)},
		{header: 'PRIO', width: 4, align: 'right', value: row => String(row.priority)},
		{header: 'HEALTH', width: 11, value: row => health?.get(row.id)?.state ?? '-', color: row => healthColors[health?.get(row.id)?.state ?? 'healthy']},
	];
}

export function probeText(name: string, result: ProbeResult): string {
	return result.ok ? `Channel "${name}" answered in ${result.latencyMs} ms (${result.models} models listed).` : `Channel "${name}" failed after ${result.latencyMs} ms: ${result.error}`;
}

/** The health rows: state and since when, why, and (while unavailable) when the next trial request may go. */
export function healthRows(health: HealthInfo | undefined, now = Date.now()): Detail[] {
	if (!health) return [['health', '- (not measured: this process does not serve)']];
	const rows: Detail[] = [['health', `${health.state}${health.since ? ` since ${clock(health.since)} (${relative(health.since, now)})` : ''}`, healthColors[health.state]]];
	if (health.reason) rows.push(['reason', health.reason]);
	if (health.retryAt) rows.push(['retry at', `${clock(health.retryAt)} (${relative(health.retryAt, now)}): one trial request, then healthy again if it succeeds`]);
	return rows;
}

export function ChannelDetails({channel, health, test}: {readonly channel: ChannelRecord; readonly health?: HealthInfo; readonly test?: ProbeResult}) {
	const rows: Detail[] = [
		['name', channel.name],
		['id', channel.id],
		['format', channel.format],
		['base URL', channel.baseUrl],
		['API key', maskSecret(channel.apiKey)],
		['models', formatModels(channel.models).replaceAll(',', ', ')],
		['prices', `${formatPrices(channel.prices)}${channel.prices ? ' (USD per 1M tokens in/out/cached)' : ' (requests cost $0, marked "no price"; e sets them)'}`],
		['enabled', channel.enabled ? 'yes' : 'no'],
		['priority', String(channel.priority)],
		...healthRows(health),
		['last test', test ? probeText(channel.name, test) : 'not tested (press t)', test ? (test.ok ? theme.ok : theme.error) : undefined],
		['updated', channel.updatedAt],
	];
	return (
		<Box flexDirection="column">
			<Details rows={rows} />
			<Text color={theme.muted}>Esc back · e edit · t test</Text>
		</Box>
	);
}
