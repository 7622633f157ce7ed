/**
 * What each tool contributes to a takeover: where its config lives, how to read its current state,
 * and which settings apply writes. The flows (status, apply, undo) are the same for all three.
 */
import {assertNever} from '../../base/ir.js';
import type {ConfigDoc, KeyPath, Scalar} from './config-doc.js';
import type {Context} from './context.js';
import {dotenvDoc} from './dotenv-doc.js';
import {readText} from './files.js';
import {jsonDoc} from './json-doc.js';
import {tomlDoc} from './toml-doc.js';
import type {TakeoverTool, ToolState} from './types.js';

/** `jsonc`: JSON that the tool reads with comments allowed (Gemini CLI's settings). */
export type FileKind = 'json' | 'jsonc' | 'toml' | 'dotenv';
export type ToolFile = {readonly id: string; readonly path: string; readonly kind: FileKind};

/** The parsed files of one tool, by ToolFile.id. */
export type Docs = ReadonlyMap<string, ConfigDoc>;

/** One setting apply writes; `value: null` clears a setting that would win over the gateway's. */
export type Desired = {readonly file: string; readonly key: KeyPath; readonly value: Scalar | null; readonly reason?: string};

export type Inspection = {
	state: Exclude<ToolState, 'not-detected'>;
	address: string | null;
	model: string | null;
	/** Where the address is set, for messages: `env.ANTHROPIC_BASE_URL in ~/.claude/settings.json`. */
	where: string;
	warnings: string[];
};

export type Wanted = {readonly gateway: string; readonly secret: string; readonly model?: string; readonly fastModel?: string; readonly allFolders?: boolean};

/** What a tool will send, as its files say now: the base URL, the key and the model (for the live check). */
export type Connection = {readonly baseUrl: string | null; readonly secret: string | null; readonly model: string | null};

export interface ToolAdapter {
	readonly tool: TakeoverTool;
	configDir(ctx: Context): string;
	files(ctx: Context): ToolFile[];
	inspect(docs: Docs, ctx: Context): Inspection;
	/** The settings apply writes. */
	desired(wanted: Wanted): Desired[];
	/** Settings that would override the gateway's and are cleared only with `force`. */
	conflicts(docs: Docs): Desired[];
	/** The address, key and model the tool's files hold now. */
	connection(docs: Docs): Connection;
	/** Whether `value` is recognisably one apply wrote (used by undo when its record is missing). */
	ours(entry: Desired, value: unknown, docs: Docs, ctx: Context): boolean;
}

function parseDoc(file: ToolFile, text: string | null): ConfigDoc {
	switch (file.kind) {
		case 'json':
		case 'jsonc':
			return jsonDoc(file.path, text, {comments: file.kind === 'jsonc'});
		case 'toml':
			return tomlDoc(file.path, text);
		case 'dotenv':
			return dotenvDoc(file.path, text);
		default:
			return assertNever(file.kind, 'file kind');
	}
}

/** Reads and parses every file first: a malformed one throws before anything is written. */
export async function loadDocs(files: readonly ToolFile[]): Promise<Map<string, ConfigDoc>> {
	const docs = new Map<string, ConfigDoc>();
	for (const file of files) docs.set(file.id, parseDoc(file, await readText(file.path)));
	return docs;
}

export function docOf(docs: Docs, id: string): ConfigDoc {
	const doc = docs.get(id);
	if (!doc) throw new Error(`No config file "${id}" was loaded.`);
	return doc;
}

/** taken over / connected elsewhere / not taken over, from the base URL a tool is configured with. */
export function stateOf(address: unknown, pointsHere: boolean): Inspection['state'] {
	if (typeof address !== 'string' || address.trim() === '') return 'not-taken-over';
	return pointsHere ? 'taken-over' : 'connected-elsewhere';
}
