/**
 * Editing one line of text the way a shell does (readline / Emacs keys): the pure part of the
 * text field, a value and a cursor in, a value and a cursor out.
 *
 * | key | does |
 * |---|---|
 * | ←/→, Ctrl+B/F | one character left / right |
 * | Home/End, Ctrl+A/E | start / end of the line |
 * | Alt+B/F, Ctrl+←/→ | one word left / right |
 * | Backspace, Ctrl+H | the character before the cursor |
 * | Delete, Ctrl+D | the character under the cursor |
 * | Ctrl+W, Alt+Backspace | the word before the cursor |
 * | Alt+D | the word after the cursor |
 * | Ctrl+U / Ctrl+K | everything before / after the cursor |
 * | anything printable, a paste | inserted at the cursor (a paste's line breaks as spaces, a last one dropped) |
 */
import {typed, type Key} from './keys.js';

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

/** The Alt keys a text field uses (the word moves and cuts of `withMeta`); no other part of the app has any. */
export function isWordKey(key: Key): boolean {
	if (!key.meta) return false;
	return key.name === 'backspace' || key.name === 'left' || key.name === 'right' || (key.name === 'char' && (key.text === 'b' || key.text === 'f' || key.text === 'd'));
}

function withMeta(line: Line, key: Key): Line | null {
	const {value, cursor} = line;
	if (key.name === 'backspace') return cut(line, wordStart(value, cursor), cursor);
	if (key.name === 'left' || (key.name === 'char' && key.text === 'b')) return {value, cursor: wordStart(value, cursor)};
	if (key.name === 'right' || (key.name === 'char' && key.text === 'f')) return {value, cursor: wordEnd(value, cursor)};
	if (key.name === 'char' && key.text === 'd') return cut(line, cursor, wordEnd(value, cursor));
	return null;
}

/** A paste is one line here: its line breaks become spaces, and a last one is dropped. */
const oneLine = (text: string) => text.replace(/(\r\n?|\n)+$/u, '').replace(/\r\n?|\n/gu, ' ');

/**
 * The line after one key press, or null when the key is not the field's (↑/↓, Tab, Enter, Esc:
 * the form moves between fields with those).
 */
export function editLine(line: Line, key: Key): Line | null {
	const {value, cursor} = line;
	switch (key.name) {
		case 'home':
			return {value, cursor: 0};
		case 'end':
			return {value, cursor: value.length};
		case 'left':
		case 'right':
			if (key.ctrl || key.meta) return withMeta(line, key);
			return {value, cursor: key.name === 'left' ? Math.max(0, cursor - 1) : Math.min(value.length, cursor + 1)};
		case 'backspace':
			return key.meta ? withMeta(line, key) : cut(line, Math.max(0, cursor - 1), cursor);
		case 'delete':
			return cut(line, cursor, Math.min(value.length, cursor + 1));
		default:
	}
	if (key.meta) return withMeta(line, key);
	if (key.ctrl && key.name === 'char') return withCtrl(line, key.text);
	const text = oneLine(typed(key));
	if (text === '') return null;
	return {value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length};
}
