/**
 * The record `undo` reads: for each setting apply wrote, the value it wrote and the value it replaced.
 * It lives in the gateway's data directory (`<data dir>/takeover/<tool>.json`, directory 0700, file
 * 0600), not beside the tool's config: replaced values can be secrets (a cleared ANTHROPIC_API_KEY),
 * and the data directory is already the place kept private. A second apply keeps the first record's
 * "replaced" values for settings that still hold what the first apply wrote.
 */
import {createHash} from 'node:crypto';
import {join} from 'node:path';
import * as z from 'zod/mini';
import {UserError} from '../../base/errors.js';
import type {KeyPath, Scalar} from './config-doc.js';
import {readText, removeFile, writeAtomic} from './files.js';
import {takeoverTools, type TakeoverTool} from './types.js';

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const keyPath = z.array(z.string()).check(z.minLength(1));

const entrySchema = z.object({
	file: z.string(),
	key: keyPath,
	/** What apply wrote; null when it cleared the setting. */
	value: z.nullable(scalar),
	/** What was there before; absent when the setting did not exist. */
	previous: z.optional(scalar),
	/** Its text, where the file's syntax has one worth keeping (a .env line with its quotes and comment). */
	previousSource: z.optional(z.string()),
});

const recordSchema = z.object({
	v: z.literal(1),
	tool: z.enum(takeoverTools as [TakeoverTool, ...TakeoverTool[]]),
	gatewayUrl: z.string(),
	keyName: z.string(),
	appliedAt: z.string(),
	/** The tool's config directory, when apply had to create it (undo removes it again if empty). */
	createdDir: z.nullable(z.string()),
	/**
	 * `original`: the file's text before the first apply (null: it did not exist), kept while the file
	 * holds exactly what apply wrote (`written`, its SHA-256): undo then puts those bytes back.
	 */
	files: z.array(z.object({path: z.string(), created: z.boolean(), backups: z.array(z.string()), original: z.optional(z.nullable(z.string())), written: z.optional(z.string())})),
	/** Objects/tables apply created, removed by undo when left empty. */
	containers: z.array(z.object({file: z.string(), key: keyPath})),
	entries: z.array(entrySchema),
});

export type RecordEntry = {file: string; key: KeyPath; value: Scalar | null; previous?: Scalar; previousSource?: string};
export type TakeoverRecord = Omit<z.infer<typeof recordSchema>, 'entries' | 'containers'> & {
	entries: RecordEntry[];
	containers: {file: string; key: KeyPath}[];
};

export const textHash = (text: string | null) => createHash('sha256').update(text ?? '\u0000').digest('hex');

export const recordPath = (dataDir: string, tool: TakeoverTool) => join(dataDir, 'takeover', `${tool}.json`);

export async function readRecord(dataDir: string, tool: TakeoverTool): Promise<TakeoverRecord | null> {
	const path = recordPath(dataDir, tool);
	const text = await readText(path);
	if (text === null) return null;
	let parsed: ReturnType<typeof recordSchema.safeParse>;
	try {
		parsed = recordSchema.safeParse(JSON.parse(text));
	} catch {
		parsed = recordSchema.safeParse(undefined);
	}
	if (!parsed.success || parsed.data.tool !== tool) {
		throw new UserError(`The takeover record ${path} is not valid. Move it away to undo by removing only the values that point at the gateway (the backups beside the config files hold the earlier versions).`);
	}
	return parsed.data;
}

export async function writeRecord(dataDir: string, record: TakeoverRecord): Promise<string> {
	const path = recordPath(dataDir, record.tool);
	await writeAtomic(path, `${JSON.stringify(record, null, 2)}\n`, 0o600);
	return path;
}

export async function deleteRecord(dataDir: string, tool: TakeoverTool): Promise<void> {
	await removeFile(recordPath(dataDir, tool));
}

const sameKey = (a: {file: string; key: KeyPath}, b: {file: string; key: KeyPath}) => a.file === b.file && a.key.join('\0') === b.key.join('\0');

export function findEntry(record: TakeoverRecord | null, target: {file: string; key: KeyPath}): RecordEntry | undefined {
	return record?.entries.find(entry => sameKey(entry, target));
}

/** The new record: this apply's entries, plus the earlier record's entries for settings not touched now. */
export function mergeRecord(earlier: TakeoverRecord | null, next: TakeoverRecord): TakeoverRecord {
	if (!earlier) return next;
	const files = [...next.files];
	for (const file of earlier.files) {
		const same = files.find(item => item.path === file.path);
		if (same) Object.assign(same, {created: same.created || file.created, backups: [...file.backups, ...same.backups]});
		else files.push(file);
	}
	return {
		...next,
		createdDir: earlier.createdDir ?? next.createdDir,
		files,
		containers: [...earlier.containers.filter(item => !next.containers.some(other => sameKey(item, other))), ...next.containers],
		entries: [...earlier.entries.filter(item => !next.entries.some(other => sameKey(item, other))), ...next.entries],
	};
}
