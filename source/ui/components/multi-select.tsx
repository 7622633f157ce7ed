/**
 * Any number of options: an ink-select-input list (↑/↓ or j/k move, Enter goes on) whose labels
 * carry a check box, and Space toggles the highlighted option. ink-select-input chooses exactly
 * one item per Enter, so the choosing is added here. Choosing none is allowed (the caller says
 * what none means, e.g. "all models").
 */
import {useRef} from 'react';
import {Text, useInput} from 'ink';
import SelectInput from 'ink-select-input';
import {symbols, theme} from '../theme.js';
import {Label, Pointer, type Option} from './select.js';

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
	// Set by ink-select-input as the highlight moves; Space toggles whatever it is now.
	const highlighted = useRef(options[0]?.value);
	useInput(
		input => {
			if (input === ' ' && highlighted.current !== undefined) onToggle(highlighted.current);
		},
		{isActive: focused},
	);
	if (options.length === 0) return <Text color={theme.muted}>{empty}</Text>;
	const items = options.map(option => ({key: option.value, value: option.value, label: `${chosen.includes(option.value) ? symbols.checked : symbols.unchecked} ${option.label}`}));
	return (
		<SelectInput
			items={items}
			isFocused={focused}
			limit={limit}
			indicatorComponent={Pointer}
			itemComponent={Label}
			onHighlight={item => {
				highlighted.current = item.value;
			}}
			onSelect={onDone}
		/>
	);
}
