/**
 * A table of one text line per row: a bold header, the selected row highlighted, and a window that
 * scrolls to keep the selection visible. Columns have a minimum width; spare width goes to the
 * columns that `grow`, so the same table fits 80 columns and uses 200.
 */
import {Box, Text} from 'ink';
import {theme} from '../theme.js';
import {fit, wrapLines} from '../text.js';

export type Column<T> = {
	readonly header: string;
	readonly width: number;
	readonly grow?: number;
	readonly align?: 'left' | 'right';
	readonly value: (row: T) => string;
	readonly color?: (row: T) => string | undefined;
	/** Never cut mid-value (a base URL, a number): the column is as wide as its longest value. */
	readonly whole?: boolean;
	/** Columns give way when the table is too narrow: the highest number first; none: always shown. */
	readonly priority?: number;
	/**
	 * As wide as its longest value up to `width` columns (a name); where the table is too narrow,
	 * that extra gives way in the order of `priority`, as the columns do.
	 */
	readonly wants?: {readonly width: number; readonly priority: number};
};

type Props<T> = {
	readonly columns: ReadonlyArray<Column<T>>;
	readonly rows: readonly T[];
	readonly rowKey: (row: T) => string;
	/** Index of the selected row, or -1 for none. */
	readonly selected: number;
	readonly width: number;
	/** Lines available, header included. */
	readonly height: number;
	readonly empty: string;
	/** The first row to show, where the selection allows (default: the selection centred). */
	readonly start?: number;
};

/** Widths per column; 0 for a column that gave way (see `priority`). */
export function columnWidths<T>(columns: ReadonlyArray<Pick<Column<T>, 'width' | 'grow' | 'whole' | 'priority' | 'header' | 'value' | 'wants'>>, width: number, rows: readonly T[] = []): number[] {
	const longest = (column: (typeof columns)[number]) => Math.max(column.width, column.header.length, ...rows.map(row => column.value(row).length));
	const minimum = columns.map(column => (column.whole ? longest(column) : column.wants ? Math.min(column.wants.width, longest(column)) : column.width));
	const shown = columns.map(() => true);
	const need = () => minimum.reduce((sum, min, index) => sum + (shown[index] ? min + 1 : 0), -1);
	const steps = columns.flatMap((column, index) => [
		...(column.priority === undefined ? [] : [{priority: column.priority, index, want: false}]),
		...(column.wants ? [{priority: column.wants.priority, index, want: true}] : []),
	]);
	for (const {index, want} of steps.sort((a, b) => b.priority - a.priority)) {
		if (need() <= width) break;
		if (want) minimum[index] = Math.max(columns[index]!.width, minimum[index]! - (need() - width));
		else shown[index] = false;
	}
	const growth = columns.reduce((sum, column, index) => sum + (shown[index] ? (column.grow ?? 0) : 0), 0);
	const spare = Math.max(0, width - need());
	let given = 0;
	return columns.map((column, index) => {
		if (!shown[index]) return 0;
		if (!column.grow) return minimum[index]!;
		const isLast = !columns.slice(index + 1).some((other, offset) => other.grow && shown[index + 1 + offset]);
		const extra = isLast ? spare - given : Math.floor((spare * column.grow) / growth);
		given += extra;
		return minimum[index]! + extra;
	});
}

/**
 * The first row to show so that `selected` stays inside a window of `visible` rows: centred, or as
 * close to `preferred` as it can be (a log that should not move while new rows arrive above).
 */
export function windowStart(selected: number, count: number, visible: number, preferred?: number): number {
	if (count <= visible) return 0;
	if (preferred !== undefined) {
		const inSight = selected < 0 ? preferred : Math.min(Math.max(preferred, selected - visible + 1), selected);
		return Math.max(0, Math.min(inSight, count - visible));
	}
	if (selected < 0) return 0;
	return Math.min(Math.max(0, selected - Math.floor(visible / 2)), count - visible);
}

/**
 * How a table of `height` lines (its header included) shows `count` rows: how many are in sight, and
 * whether its last line counts those that are not — where a row fits beside that line (else the row goes first).
 */
export function tableWindow(count: number, height: number): {readonly visible: number; readonly overflow: boolean} {
	const room = Math.max(1, height - 1);
	const overflow = count > room && room >= 2;
	return {visible: Math.max(1, room - (overflow ? 1 : 0)), overflow};
}

export function Table<T>({columns, rows, rowKey, selected, width, height, empty, start: preferred}: Props<T>) {
	const widths = columnWidths(columns, width, rows);
	const visibleColumns = columns.map((column, index) => ({column, width: widths[index]!})).filter(item => item.width > 0);
	const {visible, overflow} = tableWindow(rows.length, height);
	const start = windowStart(selected, rows.length, visible, preferred);
	const shown = rows.slice(start, start + visible);
	const below = rows.length - start - shown.length;
	return (
		<Box flexDirection="column" width={width} height={height} overflowY="hidden">
			{/* Lines that do not fit are cut at the bottom, never shrunk and drawn over each other (see panel.tsx). */}
			<Box flexDirection="column" flexShrink={0}>
				<Text bold color={theme.accent} wrap="truncate">
					{visibleColumns.map(({column, width: w}) => fit(column.header, w, column.align)).join(' ')}
				</Text>
				{rows.length === 0
					? wrapLines(empty, width, Math.max(1, height - 1)).map((line, index) => (
							<Text key={index} color={theme.muted} wrap="truncate">
								{line}
							</Text>
						))
					: null}
				{shown.map((row, offset) => {
					const isSelected = start + offset === selected;
					return (
						<Text key={rowKey(row)} wrap="truncate" inverse={isSelected}>
							{visibleColumns.map(({column, width: w}, index) => (
								<Text key={column.header} color={isSelected ? undefined : column.color?.(row)}>
									{fit(column.value(row), w, column.align)}
									{index < visibleColumns.length - 1 ? ' ' : ''}
								</Text>
							))}
						</Text>
					);
				})}
				{overflow ? <Text color={theme.muted} wrap="truncate">{[start > 0 ? `↑ ${start} more` : '', below > 0 ? `↓ ${below} more` : ''].filter(Boolean).join(' · ')}</Text> : null}
			</Box>
		</Box>
	);
}
