/**
 * One parsed config file that takeover edits by key path (`['env', 'ANTHROPIC_BASE_URL']`), whatever its
 * syntax (JSON, TOML, .env). Each implementation keeps everything it was not asked to change.
 */
import {UserError} from '../../base/errors.js';

export type KeyPath = readonly string[];
/** What takeover writes (strings) and what it may have to put back (a user's own value). */
export type Scalar = string | number | boolean;

export interface ConfigDoc {
	/** The path as configured (a symlink stays a symlink: writes go to its target). */
	readonly file: string;
	/** The text read, or null when the file did not exist. */
	readonly original: string | null;
	get(key: KeyPath): unknown;
	/**
	 * Sets a value; returns the containers (tables, objects) it had to create on the way. `source` is
	 * the setting's text from an earlier `source()` call: used as is when it still means `value`.
	 */
	set(key: KeyPath, value: Scalar, source?: string): KeyPath[];
	/** The setting's own text, where the syntax has one worth keeping (a .env line with its quotes and comment). */
	source?(key: KeyPath): string | undefined;
	delete(key: KeyPath): void;
	/** Removes an object/table left empty (one that apply created). */
	deleteIfEmpty(container: KeyPath): void;
	isEmpty(): boolean;
	/** True once a set or delete changed a value. */
	readonly changed: boolean;
	render(): string;
}

export type Tree = Record<string, unknown>;

export function isTree(value: unknown): value is Tree {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const proto: unknown = Object.getPrototypeOf(value);
	return proto === Object.prototype || proto === null;
}

export const keyName = (key: KeyPath) => key.join('.');

export function getIn(tree: Tree, key: KeyPath): unknown {
	let node: unknown = tree;
	for (const part of key) {
		if (!isTree(node) || !Object.hasOwn(node, part)) return undefined;
		node = node[part];
	}
	return node;
}

/** Walks to the parent of `key`, creating missing objects; a non-object on the way is the user's to fix. */
function parentOf(tree: Tree, key: KeyPath, file: string, created: string[][]): Tree {
	let node = tree;
	for (const [index, part] of key.slice(0, -1).entries()) {
		const next = node[part];
		if (next === undefined) {
			const fresh: Tree = {};
			node[part] = fresh;
			created.push(key.slice(0, index + 1) as string[]);
			node = fresh;
		} else if (isTree(next)) {
			node = next;
		} else {
			throw new UserError(`${file}: "${keyName(key.slice(0, index + 1))}" is not an object/table, so "${keyName(key)}" cannot be set in it. Fix the file and run again; it was left untouched.`);
		}
	}
	return node;
}

/** Sets `key` to `value`; returns whether it changed, and the containers created. */
export function setIn(tree: Tree, key: KeyPath, value: Scalar, file: string): {changed: boolean; created: KeyPath[]} {
	const created: string[][] = [];
	const parent = parentOf(tree, key, file, created);
	const last = key[key.length - 1]!;
	const current = parent[last];
	if (current !== undefined && typeof current === 'object') {
		throw new UserError(`${file}: "${keyName(key)}" holds a table or list where a string belongs. Fix the file and run again; it was left untouched.`);
	}
	if (current === value) return {changed: false, created};
	parent[last] = value;
	return {changed: true, created};
}

export function deleteIn(tree: Tree, key: KeyPath): boolean {
	const parent = getIn(tree, key.slice(0, -1));
	const last = key[key.length - 1]!;
	if (!isTree(parent) || !Object.hasOwn(parent, last)) return false;
	delete parent[last];
	return true;
}

export function deleteIfEmptyIn(tree: Tree, container: KeyPath): boolean {
	const node = getIn(tree, container);
	if (!isTree(node) || Object.keys(node).length > 0) return false;
	return deleteIn(tree, container);
}

/** "line 3, column 7" from a character offset. */
export function lineAndColumn(text: string, offset: number): {line: number; column: number} {
	const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
	const lines = before.split('\n');
	return {line: lines.length, column: lines[lines.length - 1]!.length + 1};
}

export function malformed(file: string, what: string, where: {line: number; column?: number}, reason: string): UserError {
	const at = where.column === undefined ? `line ${where.line}` : `line ${where.line}, column ${where.column}`;
	return new UserError(`${file} is not valid ${what} (${at}: ${reason}). Fix the file and run again; it was left untouched.`);
}
