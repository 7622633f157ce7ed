/**
 * A TOML config file (Codex's config.toml), edited with @decimalturn/toml-patch: it diffs the parsed
 * object against the new one and changes only what differs, so comments, blank lines, key order and
 * quoting elsewhere stay exactly as the user wrote them.
 *
 * Two additions are done by hand:
 * - a new table two levels deep (`[model_providers.gateway-tui]`) is appended as its own section,
 *   which is how Codex's docs show providers; the library would write it as a dotted inline table
 *   beside the root keys;
 * - a new root key (`model_provider`, `model`) goes right after the last root key. The library puts
 *   it just above the first table header, below the comment lines that belong to that header; as it
 *   removes a key together with the comments right above it, undo then took the user's comment away.
 * The result is parsed again and compared with the intended object; if that ever differs, the
 * library's own rendering is used instead.
 * @see https://github.com/DecimalTurn/toml-patch
 */
import {isDeepStrictEqual} from 'node:util';
import {parse, patch} from '@decimalturn/toml-patch';
import {deleteIfEmptyIn, deleteIn, getIn, isTree, keyName, malformed, setIn, type ConfigDoc, type KeyPath, type Tree} from './config-doc.js';

type TomlParseError = Error & {line?: number; column?: number};

function parseToml(file: string, text: string): Tree {
	try {
		const value: unknown = parse(text);
		return isTree(value) ? value : {};
	} catch (error) {
		const {line, column, message} = error as TomlParseError;
		const reason = message.split('\n').pop() ?? message;
		throw malformed(file, 'TOML', {line: line ?? 1, column: column === undefined ? undefined : column + 1}, reason);
	}
}

const bareKey = /^[A-Za-z0-9_-]+$/;
const tomlKey = (part: string) => (bareKey.test(part) ? part : JSON.stringify(part));

/** `[a.b]` with one `key = "value"` line per string; JSON string escapes are valid TOML basic strings. */
function section(key: KeyPath, table: Tree, newline: string): string | null {
	const lines = [`[${key.map(tomlKey).join('.')}]`];
	for (const [name, value] of Object.entries(table)) {
		if (typeof value !== 'string') return null;
		lines.push(`${tomlKey(name)} = ${JSON.stringify(value)}`);
	}
	return lines.join(newline) + newline;
}

/** A shallow copy of `data` without `key` (and without parents that are left empty and were created). */
function without(data: Tree, key: KeyPath, created: readonly KeyPath[]): Tree {
	const [head, ...rest] = key;
	const copy: Tree = {...data};
	if (rest.length === 0) {
		delete copy[head!];
		return copy;
	}
	const child = without(data[head!] as Tree, rest, created.map(path => path.slice(1)).filter(path => path.length > 0));
	if (Object.keys(child).length === 0 && created.some(path => path.length === 1 && path[0] === head)) delete copy[head!];
	else copy[head!] = child;
	return copy;
}

const isComment = (line: string) => line.trimStart().startsWith('#');
const isBlank = (line: string) => line.trim() === '';

/**
 * Inserts `key = value` lines for new root keys after the last line of the root table (before the
 * comments and blank lines that lead to the first `[table]`). With no root key yet: after a leading
 * comment block that a blank line ends (the file's own header), else at the top. Either way no user
 * comment sits right above the new lines, so removing them later leaves the file as it was.
 */
function insertRootLines(text: string, lines: readonly string[], newline: string): string {
	if (lines.length === 0) return text;
	const all = text.split(/\r?\n/);
	const header = all.findIndex(line => /^\s*\[/.test(line));
	const end = header === -1 ? all.length : header;
	let at = 0;
	for (let index = 0; index < end; index++) if (!isBlank(all[index]!) && !isComment(all[index]!)) at = index + 1;
	if (at === 0) {
		let lead = 0;
		while (lead < end && isComment(all[lead]!)) lead++;
		if (lead > 0 && lead < end && isBlank(all[lead]!)) at = lead + 1;
	}
	all.splice(at, 0, ...lines);
	return all.join(newline);
}

/** `roots`: root keys the file did not have, set by this edit. */
function render(original: string, data: Tree, created: readonly KeyPath[], roots: readonly string[]): string {
	const newline = original.includes('\r\n') ? '\r\n' : '\n';
	const appended = created.filter(path => path.length === 2 && isTree(getIn(data, path)));
	let base = data;
	const rootLines: string[] = [];
	for (const name of roots) {
		const value = data[name];
		if (typeof value !== 'string') continue;
		base = without(base, [name], created);
		rootLines.push(`${tomlKey(name)} = ${JSON.stringify(value)}`);
	}
	const sections: string[] = [];
	for (const path of appended) {
		const text = section(path, getIn(data, path) as Tree, newline);
		if (text === null) continue;
		base = without(base, path, created);
		sections.push(text);
	}
	if (rootLines.length > 0 || sections.length > 0) {
		let text = insertRootLines(patch(original, base), rootLines, newline);
		if (sections.length > 0) {
			if (text.trim() !== '') text = text.replace(/(\r?\n)*$/, newline + newline);
			else text = '';
			text += sections.join(newline);
		}
		if (renders(text, data)) return text;
	}
	return patch(original, data);
}

/** Parsed tables have a null prototype, new ones Object's: compare contents only. */
function plain(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(plain);
	if (!isTree(value)) return value;
	return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
}

function renders(text: string, data: Tree): boolean {
	try {
		return isDeepStrictEqual(plain(parse(text)), plain(data));
	} catch {
		return false;
	}
}

export function tomlDoc(file: string, original: string | null): ConfigDoc {
	const source = original ?? '';
	const data = parseToml(file, source);
	const created: KeyPath[] = [];
	const roots = new Set<string>();
	let changed = false;
	return {
		file,
		original,
		get: key => getIn(data, key),
		set(key, value) {
			if (key.length === 1 && getIn(data, key) === undefined) roots.add(key[0]!);
			const result = setIn(data, key, value, file);
			changed ||= result.changed;
			created.push(...result.created);
			return result.created;
		},
		delete(key) {
			if (key.length === 1) roots.delete(key[0]!);
			changed = deleteIn(data, key) || changed;
		},
		deleteIfEmpty(container) {
			changed = deleteIfEmptyIn(data, container) || changed;
		},
		isEmpty: () => Object.keys(data).length === 0,
		get changed() {
			return changed;
		},
		render() {
			const text = render(source, data, created, [...roots]);
			if (!renders(text, data)) throw new Error(`Rendering ${file} would not give the intended settings (${created.map(keyName).join(', ')}): please report this.`);
			return text;
		},
	};
}
