/**
 * Any number of options: a Select (↑/↓ or j/k move, Enter goes on) whose labels carry a check
 * box, and Space toggles the highlighted option. Choosing none is allowed (the caller says what
 * none means, e.g. "all models").
 */
import {Text} from 'ink';
import {symbols, theme} from '../theme.js';
import {Select, type Option} from './select.js';

export function toggle(chosen: readonly string[], value: string): string[] {
	return chosen.includes(value) ? chosen.filter(item => item !== value) : [...chosen, value];
}

type Props = {
	readonly options: readonly Option[];
	readonly chosen: readonly string[];
	readonly focused: boolean;
	readonly onToggle: (value: string) => void;
	/** Enter: done with this field. */
	readonly onDone: () => void;
	readonly empty: string;
	readonly limit?: number;
};

export function MultiSelect({options, chosen, focused, onToggle, onDone, empty, limit = 6}: Props) {
	if (options.length === 0) return <Text color={theme.muted}>{empty}</Text>;
	const items = options.map(option => ({value: option.value, label: `${chosen.includes(option.value) ? symbols.checked : symbols.unchecked} ${option.label}`}));
	return <Select options={items} focused={focused} limit={limit} onToggle={onToggle} onSelect={onDone} />;
}
