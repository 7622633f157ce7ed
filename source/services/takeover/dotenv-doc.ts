/**
 * A .env file (Gemini CLI's ~/.gemini/.env), read the way the `dotenv` package reads it: `KEY=value`,
 * optional `export `, values quoted with ' " or ` (possibly over several lines), `#` comments; the last
 * assignment of a key wins. Lines other than ours are kept byte for byte. A line that is none of
 * these is refused with its number, where dotenv would silently skip it.
 * @see https://github.com/motdotla/dotenv#what-rules-does-the-parsing-engine-follow
 */
import {UserError} from '../../base/errors.js';
import {malformed, type ConfigDoc, type KeyPath} from './config-doc.js';

type Line = {text: string; key?: string; value?: string; exported?: boolean};

const assignment = /^\s*(export\s+)?([\w.-]+)\s*(?:=|:\s)\s*(.*)$/;

function unquoted(raw: string): string {
	return raw.replace(/\s+#.*$/, '').replace(/^#.*$/, '').trim();
}

/** The rest of an assignment starting with a quote: its value and how many more lines it took. */
function quoted(rest: string, following: readonly string[], file: string, lineNo: number): {value: string; extra: number} {
	const quote = rest[0]!;
	let text = rest.slice(1);
	for (let extra = 0; ; extra++) {
		const end = findClosing(text, quote);
		if (end >= 0) {
			if (!/^\s*(#.*)?$/.test(text.slice(end + 1))) throw malformed(file, '.env', {line: lineNo + extra}, `text after the closing ${quote}`);
			const value = text.slice(0, end);
			return {value: quote === '"' ? value.replaceAll('\\n', '\n').replaceAll('\\r', '\r') : value, extra};
		}
		if (extra >= following.length) throw malformed(file, '.env', {line: lineNo}, `the ${quote} that opens the value is never closed`);
		text += '\n' + following[extra]!;
	}
}

function findClosing(text: string, quote: string): number {
	for (let index = 0; index < text.length; index++) {
		if (text[index] === '\\') index++;
		else if (text[index] === quote) return index;
	}
	return -1;
}

function parseDotenv(file: string, text: string, newline: string): Line[] {
	const raw = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
	const lines: Line[] = [];
	for (let index = 0; index < raw.length; index++) {
		const line = raw[index]!;
		if (/^\s*(#.*)?$/.test(line)) {
			lines.push({text: line});
			continue;
		}
		const match = assignment.exec(line);
		if (!match) throw malformed(file, '.env', {line: index + 1}, 'expected KEY=value, a # comment or a blank line');
		const [, exported, key, rest] = match as unknown as [string, string | undefined, string, string];
		if (/^['"`]/.test(rest)) {
			const {value, extra} = quoted(rest, raw.slice(index + 1), file, index + 1);
			lines.push({text: raw.slice(index, index + extra + 1).join(newline), key, value, exported: Boolean(exported)});
			index += extra;
		} else {
			lines.push({text: line, key, value: unquoted(rest), exported: Boolean(exported)});
		}
	}
	return lines;
}

/** Unquoted when safe; otherwise single quotes (literal in dotenv), else double, else backticks. */
function formatValue(name: string, value: string): string {
	if (/[\r\n]/.test(value)) throw new UserError(`The value for ${name} contains a line break; give one without.`);
	if (/^[\w.:/@+,=-]*$/.test(value)) return value;
	for (const quote of ["'", '"', '`']) if (!value.includes(quote)) return `${quote}${value}${quote}`;
	throw new UserError(`The value for ${name} contains ', " and \` at once, which a .env file cannot hold; choose another.`);
}

function nameOf(key: KeyPath): string {
	if (key.length !== 1) throw new Error(`A .env file has no nested keys (${key.join('.')}).`);
	return key[0]!;
}

/** A line recorded earlier, when it still assigns `value` to `name`. */
function restored(file: string, text: string | undefined, name: string, value: string, newline: string): Line | undefined {
	if (text === undefined) return undefined;
	try {
		const [line, ...rest] = parseDotenv(file, text.replace(/\r?\n/g, newline), newline);
		return rest.length === 0 && line?.key === name && line.value === value ? line : undefined;
	} catch {
		return undefined;
	}
}

export function dotenvDoc(file: string, original: string | null): ConfigDoc {
	const source = original ?? '';
	const newline = source.includes('\r\n') ? '\r\n' : '\n';
	const lines = parseDotenv(file, source, newline);
	let changed = false;
	const lastIndex = (name: string) => lines.findLastIndex(line => line.key === name);
	return {
		file,
		original,
		get: key => lines[lastIndex(nameOf(key))]?.value,
		set(key, scalar, text) {
			const name = nameOf(key);
			const value = String(scalar);
			const index = lastIndex(name);
			if (lines[index]?.value === value) return [];
			const line = restored(file, text, name, value, newline) ?? {
				text: `${lines[index]?.exported ? 'export ' : ''}${name}=${formatValue(name, value)}`,
				key: name,
				value,
				exported: lines[index]?.exported,
			};
			if (index >= 0) lines[index] = line;
			else lines.push(line);
			changed = true;
			return [];
		},
		delete(key) {
			const index = lastIndex(nameOf(key));
			if (index < 0) return;
			lines.splice(index, 1);
			changed = true;
		},
		source: key => lines[lastIndex(nameOf(key))]?.text,
		deleteIfEmpty: () => {},
		isEmpty: () => lines.every(line => line.key === undefined && line.text.trim() === ''),
		get changed() {
			return changed;
		},
		render() {
			if (lines.length === 0) return '';
			return lines.map(line => line.text).join(newline) + (source === '' || source.endsWith('\n') ? newline : '');
		},
	};
}
