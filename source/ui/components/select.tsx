/**
 * The look of every ink-select-input list in the app (the theme's pointer and accent colour), and
 * options turned into its items.
 */
import {Box, Text} from 'ink';
import type {IndicatorProps, ItemProps} from 'ink-select-input';
import {symbols, theme} from '../theme.js';

export type Option = {readonly label: string; readonly value: string};

export type SelectItem = {key: string; label: string; value: string};

export function selectItems(options: readonly Option[]): SelectItem[] {
	return options.map(option => ({key: option.value, label: option.label, value: option.value}));
}

export function Pointer({isSelected = false}: IndicatorProps) {
	return (
		<Box marginRight={1} flexShrink={0}>
			<Text color={theme.accent}>{isSelected ? symbols.pointer : ' '}</Text>
		</Box>
	);
}

export function Label({isSelected = false, label}: ItemProps) {
	return (
		<Text color={isSelected ? theme.accent : undefined} bold={isSelected} wrap="truncate">
			{label}
		</Text>
	);
}
