/**
 * A table of one text line per row: a bold header, the selected row highlighted, and a window that
 * scrolls to keep the selection visible. Columns have a minimum width; spare width goes to the
 * columns that `grow`, so the same table fits 80 columns and uses 200.
 */
import {Box, Text} from 'ink';
import {theme} from '../theme.js';
import {fit} from '../text.js';

export type Column<T> = {
	readonly header: string;
	readonly width: number;
	readonly grow?: number;
	readonly align?: 'left' | 'right';
	readonly value: (row: T) => string;
	readonly color?: (row: T) => string | undefined;
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
};

export function columnWidths(columns: ReadonlyArray<{width: number; grow?: number}>, width: number): number[] {
	const fixed = columns.reduce((sum, column) => sum + column.width, 0) + columns.length - 1;
	const growth = columns.reduce((sum, column) => sum + (column.grow ?? 0), 0);
	const spare = Math.max(0, width - fixed);
	let given = 0;
	return columns.map((column, index) => {
		if (!column.grow) return column.width;
		const isLast = !columns.slice(index + 1).some(other => other.grow);
		const extra = isLast ? spare - given : Math.floor((spare * column.grow) / growth);
		given += extra;
		return column.width + extra;
	});
}

/** The first row to show so that `selected` stays inside a window of `visible` rows. */
export function windowStart(selected: number, count: number, visible: number): number {
	if (count <= visible || selected < 0) return 0;
	return Math.min(Math.max(0, selected - Math.floor(visible / 2)), count - visible);
}

export function Table<T>({columns, rows, rowKey, selected, width, height, empty}: Props<T>) {
	const widths = columnWidths(columns, width);
	const visible = Math.max(1, height - 1);
	const start = windowStart(selected, rows.length, visible);
	const shown = rows.slice(start, start + visible);
	return (
		<Box flexDirection="column" width={width} height={height} overflow="hidden">
			<Text bold color={theme.accent} wrap="truncate">
				{columns.map((column, index) => fit(column.header, widths[index]!, column.align)).join(' ')}
			</Text>
			{rows.length === 0 ? <Text color={theme.muted}>{empty}</Text> : null}
			{shown.map((row, offset) => {
				const isSelected = start + offset === selected;
				return (
					<Text key={rowKey(row)} wrap="truncate" inverse={isSelected}>
						{columns.map((column, index) => (
							<Text key={column.header} color={isSelected ? undefined : column.color?.(row)}>
								{fit(column.value(row), widths[index]!, column.align)}
								{index < columns.length - 1 ? ' ' : ''}
							</Text>
						))}
					</Text>
				);
			})}
		</Box>
	);
}
