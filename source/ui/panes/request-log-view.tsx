/** The live request log's columns, and one request in full (Enter on the Usage pane). */
import {Box, Text} from 'ink';
import {Details} from '../components/details.js';
import type {Column} from '../components/table.js';
import type {RequestFinished} from '../../base/events.js';
import {isFailure} from '../request-log.js';
import {clock, formats, latency, tokens} from '../text.js';
import {theme} from '../theme.js';

/** The HTTP status, or "closed" when the client hung up before the end. */
const statusText = (event: RequestFinished) => (event.outcome === 'aborted' ? 'closed' : String(event.status));

const statusColor = (event: RequestFinished) => (event.outcome === 'aborted' ? theme.warn : event.status >= 500 ? theme.error : event.status >= 400 ? theme.warn : theme.ok);

export const logColumns: ReadonlyArray<Column<RequestFinished>> = [
	{header: 'TIME', width: 8, value: event => clock(event.time), color: () => theme.muted, priority: 2},
	{header: 'KEY', width: 6, grow: 1, value: event => event.keyName ?? '-'},
	{header: 'MODEL', width: 8, grow: 2, value: event => event.model ?? '-'},
	{header: 'CHANNEL', width: 7, grow: 1, value: event => event.channelName ?? '-', priority: 3},
	{header: 'FORMATS', width: 8, grow: 1, value: formats, priority: 4},
	{header: 'STATUS', width: 6, value: statusText, color: statusColor},
	{header: 'LATENCY', width: 7, align: 'right', whole: true, value: event => latency(event.latencyMs)},
	{header: 'TOKENS', width: 6, align: 'right', whole: true, value: tokens, priority: 1},
];

export function RequestDetails({event}: {readonly event: RequestFinished}) {
	const usage = event.usage;
	return (
		<Box flexDirection="column">
			<Details
				rows={[
					['request', `${event.method} ${event.path}${event.stream ? ' (stream)' : ''}`],
					['time', event.time],
					['key', event.keyName ?? '-'],
					['model', event.upstreamModel && event.upstreamModel !== event.model ? `${event.model} → ${event.upstreamModel}` : (event.model ?? '-')],
					['channel', event.channelName ?? '-'],
					['formats', formats(event)],
					['status', event.outcome === 'aborted' ? `${event.status}, the client closed the connection before the end` : `${event.status} ${event.outcome}`, isFailure(event) ? theme.error : theme.ok],
					['latency', `${latency(event.latencyMs)}${event.ttfbMs === null ? '' : `, first byte after ${latency(event.ttfbMs)}`}`],
					['tokens', usage ? `${usage.inputTokens} in, ${usage.outputTokens} out${usage.cachedTokens ? `, ${usage.cachedTokens} cached` : ''}${usage.reasoningTokens ? `, ${usage.reasoningTokens} reasoning` : ''}` : '-'],
					...(event.error ? [['error', event.error, theme.error] as const] : []),
					...(event.warnings.length > 0 ? [['warnings', event.warnings.join('; '), theme.warn] as const] : []),
				]}
			/>
			<Text color={theme.muted}>Esc back to the log</Text>
		</Box>
	);
}
