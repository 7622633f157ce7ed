/**
 * A list to choose from: ↑/↓ or k/j move the highlight (round the ends), Enter chooses, and with
 * `onToggle` Space ticks (a multi-select). It listens on the `field` layer while focused and
 * leaves other keys to the form or pane around it. At most `limit` options show; a line says how
 * many more there are and where.
 */
import {Box, Text} from 'ink';
import {useKeypress, useKeyState} from '../hooks/use-keypress.js';
import {symbols, theme} from '../theme.js';

export type Option = {readonly label: string; readonly value: string};

type Props = {
	readonly options: readonly Option[];
	readonly initialIndex?: number;
	readonly focused: boolean;
	readonly limit?: number;
	readonly onHighlight?: (value: string) => void;
	readonly onSelect?: (value: string) => void;
	readonly onToggle?: (value: string) => void;
};

/** The first option shown so that `index` is in sight. */
export function windowStart(index: number, count: number, limit: number): number {
	return Math.max(0, Math.min(index - limit + 1, count - limit));
}

export function Select({options, initialIndex = 0, focused, limit = options.length, onHighlight, onSelect, onToggle}: Props) {
	const highlight = useKeyState(Math.max(0, Math.min(initialIndex, options.length - 1)));
	const index = Math.max(0, Math.min(highlight.current, options.length - 1));
	useKeypress(
		key => {
			const count = options.length;
			if (count === 0 || key.ctrl || key.meta) return false;
			const at = Math.min(highlight.current, count - 1);
			const up = key.name === 'up' || (key.name === 'char' && key.text === 'k');
			const down = key.name === 'down' || (key.name === 'char' && key.text === 'j');
			if (up || down) {
				const next = (at + (up ? count - 1 : 1)) % count;
				highlight.set(next);
				onHighlight?.(options[next]!.value);
				return true;
			}
			if (key.name === 'enter' && onSelect) {
				onSelect(options[at]!.value);
				return true;
			}
			if (key.name === 'space' && onToggle) {
				onToggle(options[at]!.value);
				return true;
			}
			return false;
		},
		{layer: 'field', isActive: focused},
	);
	const shown = Math.max(1, Math.min(limit, options.length));
	const start = windowStart(index, options.length, shown);
	const above = start;
	const below = options.length - start - shown;
	return (
		<Box flexDirection="column">
			{options.slice(start, start + shown).map((option, offset) => (
				<Row key={option.value} label={option.label} selected={start + offset === index} />
			))}
			{above + below > 0 ? <Text color={theme.muted}>{`  ${[above > 0 ? `↑ ${above} more` : '', below > 0 ? `↓ ${below} more` : ''].filter(Boolean).join(' · ')}`}</Text> : null}
		</Box>
	);
}

function Row({label, selected}: {readonly label: string; readonly selected: boolean}) {
	return (
		<Box>
			<Box marginRight={1} flexShrink={0}>
				<Text color={theme.accent}>{selected ? symbols.pointer : ' '}</Text>
			</Box>
			<Text color={selected ? theme.accent : undefined} bold={selected} wrap="truncate">
				{label}
			</Text>
		</Box>
	);
}
