/**
 * A JSON settings file (Claude Code's and Gemini CLI's settings.json). Rewritten with JSON.stringify
 * in the file's own indentation (2 spaces when new): key order is kept because objects keep insertion
 * order. Comments (JSONC) are not JSON: such a file is refused with the line of the first comment.
 */
import {deleteIfEmptyIn, deleteIn, getIn, isTree, lineAndColumn, malformed, setIn, type ConfigDoc, type KeyPath, type Scalar, type Tree} from './config-doc.js';

function indentOf(text: string): string {
	const match = /^[{[][^\n]*\n([ \t]+)\S/m.exec(text);
	return match ? match[1]! : '  ';
}

function parseJson(file: string, text: string): Tree {
	if (text.trim() === '') return {};
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const message = (error as Error).message;
		const offset = /at position (\d+)/.exec(message);
		const position = offset ? Number(offset[1]) : text.length;
		const comment = firstComment(text);
		if (comment !== null && comment <= position) {
			throw malformed(file, 'JSON', lineAndColumn(text, comment), 'a comment; comments are not allowed in this file, remove them');
		}
		throw malformed(file, 'JSON', lineAndColumn(text, position), message.replace(/ in JSON at position \d+.*$/, ''));
	}
	if (!isTree(value)) throw malformed(file, 'JSON', {line: 1, column: 1}, 'the file must hold one JSON object, {…}');
	return value;
}

/** Offset of the first `//` or `/*` outside a string, or null. */
function firstComment(text: string): number | null {
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (inString) {
			if (char === '\\') index++;
			else if (char === '"') inString = false;
		} else if (char === '"') {
			inString = true;
		} else if (char === '/' && (text[index + 1] === '/' || text[index + 1] === '*')) {
			return index;
		}
	}
	return null;
}

export function jsonDoc(file: string, original: string | null): ConfigDoc {
	const data = parseJson(file, original ?? '');
	const indent = original ? indentOf(original) : '  ';
	const newline = original === null || original === '' || original.endsWith('\n') ? '\n' : '';
	let changed = false;
	return {
		file,
		original,
		get: key => getIn(data, key),
		set(key: KeyPath, value: Scalar) {
			const result = setIn(data, key, value, file);
			changed ||= result.changed;
			return result.created;
		},
		delete(key) {
			changed = deleteIn(data, key) || changed;
		},
		deleteIfEmpty(container) {
			changed = deleteIfEmptyIn(data, container) || changed;
		},
		isEmpty: () => Object.keys(data).length === 0,
		get changed() {
			return changed;
		},
		render: () => JSON.stringify(data, null, indent) + newline,
	};
}
