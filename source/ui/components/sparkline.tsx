/**
 * Sparklines over ▁▂▃▄▅▆▇█: a series squeezed into the columns there are (adjacent entries summed,
 * or their maximum for latencies), scaled to its own largest value. Nothing at all is a blank, so an
 * idle stretch reads as idle; any traffic shows at least ▁.
 */
import {Text} from 'ink';
import {compact, latency} from '../text.js';
import {theme} from '../theme.js';
import type {Series, TrafficSnapshot} from '../traffic.js';

const bars = '▁▂▃▄▅▆▇█';

/** `values` (oldest first) in `width` columns; `combine` merges the entries that share a column. */
export function sparkline(values: ReadonlyArray<number | null>, width: number, combine: 'sum' | 'max' = 'sum'): string {
	if (width <= 0 || values.length === 0) return '';
	const columns = Math.min(width, values.length);
	const cells = Array.from({length: columns}, (_, index) => {
		const part = values.slice(Math.floor((index * values.length) / columns), Math.floor(((index + 1) * values.length) / columns)).filter((value): value is number => value !== null);
		if (part.length === 0) return 0;
		return combine === 'sum' ? part.reduce((sum, value) => sum + value, 0) : Math.max(...part);
	});
	const top = Math.max(...cells);
	return cells.map(cell => (cell <= 0 || top <= 0 ? ' ' : bars[Math.max(0, Math.ceil((cell / top) * bars.length) - 1)]!)).join('');
}

type ChartProps = {readonly label: string; readonly values: ReadonlyArray<number | null>; readonly value: string; readonly width: number; readonly combine?: 'sum' | 'max'; readonly color?: string};

/** `label ▁▂▃█ value` in `width` columns. */
export function Chart({label, values, value, width, combine, color}: ChartProps) {
	const room = Math.max(4, width - label.length - value.length - 2);
	const line = sparkline(values, room, combine);
	return (
		<Text wrap="truncate">
			<Text color={theme.muted}>{`${label} `}</Text>
			<Text color={color ?? theme.accent}>{line.padStart(room)}</Text>
			<Text>{` ${value}`}</Text>
		</Text>
	);
}

const ms = (value: number | null) => (value === null ? '-' : latency(value));

/**
 * The Usage pane's two lines: requests and errors per minute (last hour), tokens per hour (last day:
 * the usage totals' hours, usage-view.ts), latency p50 / p95 — of the requests the totals above
 * count; those refused before they named a model (an unknown key) are the "+N refused" beside the errors.
 */
export function TrafficCharts({traffic, tokensPerHour, width}: {readonly traffic: TrafficSnapshot; readonly tokensPerHour: readonly number[]; readonly width: number}) {
	const half = Math.floor((width - 2) / 2);
	const hour = traffic.lastHour;
	const tokens = tokensPerHour.reduce((sum, value) => sum + value, 0);
	return (
		<>
			<Text wrap="truncate">
				<Chart label="req/min" values={hour.requests} value={`${hour.total.requests} in 1h`} width={half} />
				{'  '}
				<Chart label="errors/min" values={hour.errors} value={hour.total.refused ? `${hour.total.errors} +${hour.total.refused} refused` : `${hour.total.errors}`} width={width - half - 2} color={theme.error} />
			</Text>
			<Text wrap="truncate">
				<Chart label="tokens/h" values={tokensPerHour} value={`${compact(tokens)} in 24h`} width={half} />
				{'  '}
				<Chart label={`p50 ${ms(hour.total.p50)} p95`} values={hour.p95} combine="max" value={ms(hour.total.p95)} width={width - half - 2} color={theme.warn} />
			</Text>
		</>
	);
}

/** A channel's last hour in a few columns (requests per minute), for the Channels table. */
export function channelSpark(series: Series | undefined, width: number): string {
	return series ? sparkline(series.requests, width) : '';
}
