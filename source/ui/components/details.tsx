/**
 * Label/value lines for a details view (a key, a channel, a request, a takeover). `DetailsWindow`
 * is given its room and a line of keys to put under them: a value longer than its column wraps at
 * words as Ink would, and where the lines do not fit (a key's twelve at 60×17) they scroll by
 * PgUp/PgDn (`scrollDetails`), the last line saying where the view is.
 */
import {Box, Text} from 'ink';
import type {ScrollCommand} from '../commands.js';
import {scrolled, scrollPosition} from '../scroll.js';
import {fitParts, wrapLines} from '../text.js';
import {theme} from '../theme.js';

export type Detail = readonly [label: string, value: string, color?: string];

type Line = {readonly key: string; readonly label: string; readonly text: string; readonly color: string | undefined};

const labelWidth = 13;

export function Details({rows, labelWidth: labels = labelWidth}: {readonly rows: readonly Detail[]; readonly labelWidth?: number}) {
	return (
		<Box flexDirection="column">
			{rows.map(([label, value, color]) => (
				<Box key={label} flexShrink={0}>
					<Box width={labels} flexShrink={0}>
						<Text color={theme.muted}>{label}</Text>
					</Box>
					<Text color={color}>{value}</Text>
				</Box>
			))}
		</Box>
	);
}

/** Each row's value wrapped to `width - labelWidth`, the label on its first line. */
function linesOf(rows: readonly Detail[], width: number): Line[] {
	return rows.flatMap(([label, value, color]) => wrapLines(value || '-', width - labelWidth).map((text, index) => ({key: `${label}:${index}`, label: index === 0 ? label : '', text, color})));
}

/** How many lines `Details` takes at `width` (its values wrapped at words under their column, as Ink wraps them). */
export function detailsLineCount(rows: readonly Detail[], width: number): number {
	return linesOf(rows, width).length;
}

/** The room a pane's details have inside its panel (the border, the padding and the title taken). */
export function detailsRoom({width, height}: {readonly width: number; readonly height: number}): {width: number; height: number} {
	return {width: width - 4, height: height - 3};
}

/** The lines that fit above the hint line, and the first line shown once clamped. */
function windowOf(total: number, height: number, top: number): {view: number; top: number} {
	const view = Math.max(1, height - 1);
	return {view, top: Math.max(0, Math.min(top, total - view))};
}

/** The first line after a scroll key: a page is the lines in sight, less one kept for context. */
export function scrollDetails(rows: readonly Detail[], room: {readonly width: number; readonly height: number}, top: number, command: ScrollCommand): number {
	const total = linesOf(rows, room.width).length;
	const {view, top: from} = windowOf(total, room.height, top);
	return scrolled(from, command, Math.max(1, view - 1), Math.max(0, total - view));
}

type Props = {
	readonly rows: readonly Detail[];
	/** The keys of the view (`Esc back · e edit`), on the last line. */
	readonly hint: string;
	readonly width: number;
	/** Lines for the details and their hint; where they do not all fit, a window from `top`. */
	readonly height: number;
	readonly top?: number;
};

export function DetailsWindow({rows, hint, width, height, top = 0}: Props) {
	const lines = linesOf(rows, width);
	const fits = lines.length + 1 <= height;
	const {view, top: from} = fits ? {view: lines.length, top: 0} : windowOf(lines.length, height, top);
	// Where the view is comes first: the keys after it give way where the line is short.
	const position = scrollPosition(from, view, lines.length, 'PgUp/PgDn');
	return (
		<Box flexDirection="column">
			{lines.slice(from, from + view).map(line => (
				<Box key={line.key} flexShrink={0}>
					<Box width={labelWidth} flexShrink={0}>
						<Text color={theme.muted}>{line.label}</Text>
					</Box>
					<Text color={line.color} wrap="truncate">
						{line.text}
					</Text>
				</Box>
			))}
			<Text color={theme.muted} wrap="truncate">
				{fitParts(fits ? hint : `${position} · ${hint}`, width)}
			</Text>
		</Box>
	);
}
