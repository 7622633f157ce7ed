/** The live request log's columns, and one request in full (Enter on the Usage pane), with its bodies when they were captured. */
import {useMemo} from 'react';
import {Box, Text} from 'ink';
import {Details, detailsLineCount, type Detail} from '../components/details.js';
import type {Column} from '../components/table.js';
import type {RequestFinished} from '../../base/events.js';
import {isEstimated, type IRUsage} from '../../base/ir.js';
import {groupDigits} from '../../base/digits.js';
import {isFailure} from '../request-log.js';
import {estimatedWhy, fullTime, logTime, latency, tokens} from '../text.js';
import {formatsText} from '../../base/request-filter.js';
import {theme} from '../theme.js';
import {bodyLines, sizeText} from '../body-lines.js';
import {useKeypress, useKeyState} from '../hooks/use-keypress.js';
import {requestBindings, resolve} from '../commands.js';
import {scrolled, scrollPosition} from '../scroll.js';
import {useRequestBodies, type RequestBodiesState} from '../request-bodies.js';

/** The HTTP status, or "closed" when the client hung up before the end. */
const statusText = (event: RequestFinished) => (event.outcome === 'aborted' ? 'closed' : String(event.status));

const statusColor = (event: RequestFinished) => (event.outcome === 'aborted' ? theme.warn : event.status >= 500 ? theme.error : event.status >= 400 ? theme.warn : theme.ok);

export const logColumns: ReadonlyArray<Column<RequestFinished>> = [
	{header: 'TIME', width: 8, value: event => logTime(event.time), color: () => theme.muted, priority: 2},
	{header: 'KEY', width: 6, grow: 1, wants: {width: 16, priority: 3.5}, value: event => event.keyName ?? '-'},
	{header: 'MODEL', width: 8, grow: 2, wants: {width: 17, priority: 3.5}, value: event => event.model ?? '-'},
	{header: 'CHANNEL', width: 7, grow: 1, value: event => event.channelName ?? '-', priority: 3},
	{header: 'FORMATS', width: 8, grow: 1, wants: {width: 16, priority: 4.5}, value: formatsText, priority: 4},
	{header: 'STATUS', width: 6, value: statusText, color: statusColor},
	{header: 'LATENCY', width: 7, align: 'right', whole: true, value: event => latency(event.latencyMs)},
	{header: 'TOKENS', width: 6, align: 'right', whole: true, value: tokens, priority: 1},
];

type DetailsProps = {
	readonly event: RequestFinished;
	/** The room inside the pane: the bodies (when captured) scroll within what the fields leave. */
	readonly width?: number;
	readonly height?: number;
	readonly active?: boolean;
};

export function RequestDetails({event, width = 76, height = 20, active = true}: DetailsProps) {
	const bodies = useRequestBodies(event.id);
	const scroll = useKeyState(0);
	const kept = bodies.lookup?.bodies ?? null;
	const lines = useMemo(() => (kept ? bodyLines(kept, width) : []), [kept, width]);
	const rows = detailRows(event, bodies);
	const view = Math.max(3, height - detailsLineCount(rows, width) - 1);
	const last = Math.max(0, lines.length - view);
	const top = Math.min(scroll.current, last);
	useKeypress(
		key => {
			const command = resolve(requestBindings, key);
			if (command === undefined || command === 'back') return false; // Esc: the pane goes back to the log
			if (command === 'toggle-bodies') {
				bodies.toggle();
				return true;
			}
			scroll.set(current => scrolled(current, command, view, last));
			return true;
		},
		{isActive: active && bodies.available},
	);
	return (
		<Box flexDirection="column">
			<Details rows={rows} />
			{lines.slice(top, top + view).map((line, index) => (
				<Box key={top + index} flexShrink={0}>
					<Text wrap="truncate" bold={line.kind === 'heading'} color={line.kind === 'heading' ? theme.accent : line.kind === 'note' ? theme.warn : undefined}>
						{line.text || ' '}
					</Text>
				</Box>
			))}
			<Text color={theme.muted} wrap="truncate">
				{`Esc back${bodies.available ? ' · b bodies on/off' : ' to the log'}${lines.length > view ? ` · ${scrollPosition(top, view, lines.length)}` : ''}`}
			</Text>
		</Box>
	);
}

function detailRows(event: RequestFinished, bodies: RequestBodiesState): Detail[] {
	const usage = event.usage;
	const bodiesRow = bodiesText(bodies);
	return [
		['request', `${event.method} ${event.path}${event.stream ? ' (stream)' : ''}`],
		['time', fullTime(event.time)],
		['key', event.keyName ?? '-'],
		['model', event.upstreamModel && event.upstreamModel !== event.model ? `${event.model} → ${event.upstreamModel}` : (event.model ?? '-')],
		['channel', event.attempts.length > 1 ? `${event.attempts.join(' → ')} (failed over)` : (event.channelName ?? '-')],
		['formats', formatsText(event)],
		['status', event.outcome === 'aborted' ? `${event.status}, the client closed the connection before the end` : `${event.status} ${event.outcome}`, isFailure(event) ? theme.error : event.outcome === 'aborted' ? theme.warn : theme.ok],
		['latency', `${latency(event.latencyMs)}${event.ttfbMs === null ? '' : `, first byte after ${latency(event.ttfbMs)}`}`],
		['tokens', usage ? tokenDetails(usage, event) : '-'],
		...(event.error ? [['error', event.error, theme.error] as const] : []),
		...(event.warnings.length > 0 ? [['warnings', event.warnings.join('; '), theme.warn] as const] : []),
		...(bodiesRow ? [bodiesRow] : []),
	];
}

/**
 * `12,345 in, about 678 out, 9,000 cached (the output estimated by the gateway: …)`: every count the
 * record has, grouped by thousands, "about" before each the gateway estimated.
 */
function tokenDetails(usage: IRUsage, event: RequestFinished): string {
	const about = (side: 'input' | 'output') => (isEstimated(usage, side) ? 'about ' : '');
	const counts = [`${about('input')}${groupDigits(usage.inputTokens)} in`, `${about('output')}${groupDigits(usage.outputTokens)} out`];
	if (usage.cachedTokens) counts.push(`${groupDigits(usage.cachedTokens)} cached`);
	if (usage.reasoningTokens) counts.push(`${groupDigits(usage.reasoningTokens)} reasoning`);
	if (!usage.estimated) return counts.join(', ');
	const which = usage.estimatedOnly === 'input' ? 'the prompt ' : usage.estimatedOnly === 'output' ? 'the output ' : '';
	return `${counts.join(', ')} (${which}${estimatedWhy(event)})`;
}

/** What the details say about this request's bodies: below, not kept, or how to start capturing. */
function bodiesText({available, lookup, error}: RequestBodiesState): Detail | null {
	if (!available) return null;
	if (error) return ['bodies', `could not be read from the gateway: ${error}`, theme.error];
	if (!lookup) return ['bodies', 'asking the gateway…', theme.muted];
	const each = `the first ${sizeText(lookup.maxBytes)} of each, keys and credentials masked`;
	if (lookup.bodies) return ['bodies', lookup.capturing ? `below: ${each}` : `below: ${each} (capture is off now)`];
	if (lookup.capturing) return ['bodies', `not kept for this request (capture was off then, or it is older than the newest ${lookup.keep}); capture is on for new requests`, theme.muted];
	return ['bodies', 'off: press b to keep the bodies of the requests that follow', theme.muted];
}
