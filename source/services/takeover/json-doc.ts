/**
 * A JSON settings file (Claude Code's and Gemini CLI's settings.json), edited in place with
 * jsonc-parser: only the values we set or remove change, so the user's formatting, key order and
 * (where the tool allows them) comments stay as they were.
 *
 * Comments: Gemini CLI reads its settings as JSONC, so they are kept. Claude Code ignores a settings
 * file with comments, so our settings there would silently not apply: such a file is refused with
 * the line of the first comment.
 */
import {applyEdits, modify, parse, printParseErrorCode, ParseErrorCode, type FormattingOptions, type ParseError} from 'jsonc-parser';
import {deleteIfEmptyIn, deleteIn, getIn, isTree, lineAndColumn, malformed, setIn, type ConfigDoc, type KeyPath, type Scalar, type Tree} from './config-doc.js';

function formattingOf(text: string): FormattingOptions {
	const match = /^[{[][^\n]*\n([ \t]+)\S/m.exec(text);
	const indent = match ? match[1]! : '  ';
	return {insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n'};
}

/** jsonc-parser names its errors like `PropertyNameExpected`: say it in words. */
function describeError(code: ParseErrorCode): string {
	const words = printParseErrorCode(code)
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.toLowerCase();
	const [what, ...rest] = words.split(' expected');
	return rest.length > 0 ? `expected ${what}` : words;
}

function parseJson(file: string, text: string, comments: boolean): Tree {
	if (text.trim() === '') return {};
	const errors: ParseError[] = [];
	const value: unknown = parse(text, errors, {disallowComments: !comments, allowTrailingComma: false});
	const [first] = errors;
	if (first) {
		const where = lineAndColumn(text, first.offset);
		if (first.error === ParseErrorCode.InvalidCommentToken) {
			throw malformed(file, 'JSON', where, 'a comment; this tool ignores a settings file with comments, remove them');
		}
		throw malformed(file, 'JSON', where, describeError(first.error));
	}
	if (!isTree(value)) throw malformed(file, 'JSON', {line: 1, column: 1}, 'the file must hold one JSON object, {…}');
	return value;
}

export function jsonDoc(file: string, original: string | null, options: {comments: boolean}): ConfigDoc {
	const data = parseJson(file, original ?? '', options.comments);
	let text = original && original.trim() !== '' ? original : '{}\n';
	const formatting = formattingOf(original ?? '');
	const edit = (key: KeyPath, value: Scalar | undefined) => {
		text = applyEdits(text, modify(text, [...key], value, {formattingOptions: formatting}));
	};
	let changed = false;
	return {
		file,
		original,
		get: key => getIn(data, key),
		set(key: KeyPath, value: Scalar) {
			const result = setIn(data, key, value, file);
			if (result.changed) edit(key, value);
			changed ||= result.changed;
			return result.created;
		},
		delete(key) {
			if (deleteIn(data, key)) {
				edit(key, undefined);
				changed = true;
			}
		},
		deleteIfEmpty(container) {
			if (deleteIfEmptyIn(data, container)) {
				edit(container, undefined);
				changed = true;
			}
		},
		isEmpty: () => Object.keys(data).length === 0,
		get changed() {
			return changed;
		},
		render: () => (text.endsWith('\n') || original?.endsWith('\n') === false ? text : `${text}\n`),
	};
}
