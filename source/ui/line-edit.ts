/**
 * Editing one line of text the way a shell does (readline / Emacs keys): the pure part of the
 * text field, a value and a cursor in, a value and a cursor out.
 *
 * | key | does |
 * |---|---|
 * | ←/→, Ctrl+B/F | one character left / right |
 * | Home/End, Ctrl+A/E | start / end of the line |
 * | Alt+B/F, Ctrl+←/→ | one word left / right |
 * | Backspace, Delete | the character before the cursor (terminals send the same for both) |
 * | Ctrl+D | the character under the cursor |
 * | Ctrl+W, Alt+Backspace | the word before the cursor |
 * | Alt+D | the word after the cursor |
 * | Ctrl+U / Ctrl+K | everything before / after the cursor |
 * | anything printable, a paste | inserted at the cursor |
 */
import type {Key} from 'ink';

export type Line = {readonly value: string; readonly cursor: number};

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);

/** Where the word before `cursor` starts (skipping separators first, as readline does). */
export function wordStart(value: string, cursor: number): number {
	let at = cursor;
	while (at > 0 && !isWordChar(value[at - 1])) at--;
	while (at > 0 && isWordChar(value[at - 1])) at--;
	return at;
}

/** Where the word after `cursor` ends. */
export function wordEnd(value: string, cursor: number): number {
	let at = cursor;
	while (at < value.length && !isWordChar(value[at])) at++;
	while (at < value.length && isWordChar(value[at])) at++;
	return at;
}

const cut = (line: Line, from: number, to: number): Line => ({value: line.value.slice(0, from) + line.value.slice(to), cursor: from});

function withCtrl(line: Line, input: string): Line | null {
	const {value, cursor} = line;
	switch (input) {
		case 'a':
			return {value, cursor: 0};
		case 'e':
			return {value, cursor: value.length};
		case 'b':
			return {value, cursor: Math.max(0, cursor - 1)};
		case 'f':
			return {value, cursor: Math.min(value.length, cursor + 1)};
		case 'u':
			return cut(line, 0, cursor);
		case 'k':
			return cut(line, cursor, value.length);
		case 'w':
			return cut(line, wordStart(value, cursor), cursor);
		case 'd':
			return cut(line, cursor, Math.min(value.length, cursor + 1));
		case 'h':
			return cut(line, Math.max(0, cursor - 1), cursor);
		default:
			return null;
	}
}

function withMeta(line: Line, input: string, key: Key): Line | null {
	const {value, cursor} = line;
	if (key.backspace || key.delete) return cut(line, wordStart(value, cursor), cursor);
	if (input === 'b' || key.leftArrow) return {value, cursor: wordStart(value, cursor)};
	if (input === 'f' || key.rightArrow) return {value, cursor: wordEnd(value, cursor)};
	if (input === 'd') return cut(line, cursor, wordEnd(value, cursor));
	return null;
}

/**
 * The line after one key press, or null when the key is not the field's (↑/↓, Tab, Enter, Esc:
 * the form moves between fields with those).
 */
export function editLine(line: Line, input: string, key: Key): Line | null {
	const {value, cursor} = line;
	if (key.upArrow || key.downArrow || key.tab || key.return || key.escape || key.pageUp || key.pageDown) return null;
	if (key.home) return {value, cursor: 0};
	if (key.end) return {value, cursor: value.length};
	if (key.ctrl && (key.leftArrow || key.rightArrow)) return {value, cursor: key.leftArrow ? wordStart(value, cursor) : wordEnd(value, cursor)};
	if (key.meta && !key.escape) {
		const edited = withMeta(line, input, key);
		if (edited || input.length <= 1) return edited;
	}
	if (key.leftArrow) return {value, cursor: Math.max(0, cursor - 1)};
	if (key.rightArrow) return {value, cursor: Math.min(value.length, cursor + 1)};
	if (key.backspace || key.delete) return cut(line, Math.max(0, cursor - 1), cursor);
	if (key.ctrl) return withCtrl(line, input);
	if (input === '') return null;
	return {value: value.slice(0, cursor) + input + value.slice(cursor), cursor: cursor + input.length};
}
