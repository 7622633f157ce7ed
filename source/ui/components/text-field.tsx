/**
 * A one-line text field that edits like a shell (see line-edit.ts): the value is the caller's, the
 * cursor the field's own. It listens on the `field` layer while focused; keys it does not edit with
 * (↑/↓, Tab, Esc, Enter without `onSubmit`) go on to the form. A value longer than the width
 * scrolls to keep the cursor in sight.
 */
import {useRef} from 'react';
import {Text} from 'ink';
import {useKeypress, useKeyState} from '../hooks/use-keypress.js';
import {editLine, type Line} from '../line-edit.js';
import {theme} from '../theme.js';

type Props = {
	readonly value: string;
	readonly onChange: (value: string) => void;
	readonly onSubmit?: () => void;
	readonly focus: boolean;
	readonly placeholder?: string;
	readonly mask?: string;
	/** Columns available; a longer value scrolls. */
	readonly width?: number;
};

/** The part of `text` to show in `width` columns with `cursor` in sight (and a column for it at the end). */
export function visiblePart(text: string, cursor: number, width: number | undefined): {text: string; cursor: number} {
	if (width === undefined || text.length < width) return {text, cursor};
	const start = Math.max(0, Math.min(cursor - width + 1, text.length - width + 1));
	return {text: text.slice(start, start + width), cursor: cursor - start};
}

export function TextField({value, onChange, onSubmit, focus, placeholder, mask, width}: Props) {
	// The line as the keys left it (several keys can come before the caller renders their value);
	// a value changed from outside (a preset, an emptied filter) puts the cursor at its end.
	const line = useKeyState<Line>({value, cursor: value.length});
	const rendered = useRef(value);
	if (rendered.current !== value) {
		rendered.current = value;
		if (line.current.value !== value) line.set({value, cursor: value.length});
	}
	const cursor = Math.min(line.current.cursor, value.length);
	useKeypress(
		key => {
			if (key.name === 'enter' && !key.meta) {
				onSubmit?.();
				return onSubmit !== undefined;
			}
			const next = editLine(line.current, key);
			if (!next) return false;
			const changed = next.value !== line.current.value;
			line.set(next);
			if (changed) onChange(next.value);
			return true;
		},
		{layer: 'field', isActive: focus},
	);
	const shown = mask ? mask.repeat(value.length) : value;
	if (!focus) return <Text color={value ? undefined : theme.muted} wrap="truncate">{value ? shown : (placeholder ?? '')}</Text>;
	if (value === '') {
		const hint = placeholder ?? '';
		return (
			<Text wrap="truncate">
				<Text inverse>{hint[0] ?? ' '}</Text>
				<Text color={theme.muted}>{hint.slice(1)}</Text>
			</Text>
		);
	}
	const part = visiblePart(shown, cursor, width);
	return (
		<Text wrap="truncate">
			{part.text.slice(0, part.cursor)}
			<Text inverse>{part.text[part.cursor] ?? ' '}</Text>
			{part.text.slice(part.cursor + 1)}
		</Text>
	);
}
