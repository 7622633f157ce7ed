/**
 * `takeover undo <tool>`: puts back what apply replaced, from its record. A setting is touched only
 * while it still holds what apply wrote; one the user changed since is kept and reported. Objects,
 * tables and files that apply created are removed again when nothing else is left in them. Backups
 * are never deleted. Without a record (a lost data directory), only values that recognisably point at
 * the gateway are removed.
 */
import {UserError} from '../../base/errors.js';
import {docOf, loadDocs, type Docs, type ToolAdapter} from './adapter.js';
import {keyName, type ConfigDoc, type KeyPath} from './config-doc.js';
import {resolveContext, type Context} from './context.js';
import {exists, removeFile, removeIfEmpty, writeAtomic} from './files.js';
import {deleteRecord, readRecord, recordPath, textHash, type RecordEntry, type TakeoverRecord} from './records.js';
import {adapters} from './status.js';
import {takeoverTitles, type TakeoverOptions, type TakeoverTool, type UndoFile, type UndoResult} from './types.js';

/** Without a record: the settings apply writes that still hold a value recognisably ours. */
function guessEntries(adapter: ToolAdapter, docs: Docs, ctx: Context): RecordEntry[] {
	const entries: RecordEntry[] = [];
	for (const setting of adapter.desired({gateway: ctx.gateway, secret: ''})) {
		const doc = docOf(docs, setting.file);
		const current = doc.get(setting.key);
		if (typeof current === 'string' && adapter.ours(setting, current, docs, ctx)) entries.push({file: doc.file, key: setting.key, value: current});
	}
	return entries;
}

/** Every parent of the keys removed, deepest first (used without a record). */
function parentsOf(entries: readonly RecordEntry[]): {file: string; key: KeyPath}[] {
	return entries.flatMap(entry => entry.key.slice(0, -1).map((_, index) => ({file: entry.file, key: entry.key.slice(0, index + 1)})));
}

type Outcome = {files: Map<string, UndoFile>; kept: UndoResult['kept']};

function fileOutcome(outcome: Outcome, path: string): UndoFile {
	const file = outcome.files.get(path) ?? {path, deleted: false, removed: [], restored: []};
	outcome.files.set(path, file);
	return file;
}

function revert(doc: ConfigDoc, entry: RecordEntry, outcome: Outcome): void {
	const current = doc.get(entry.key);
	const setting = keyName(entry.key);
	if (entry.value === null) {
		if (current !== undefined) outcome.kept.push({path: doc.file, setting, reason: 'it was set again after the takeover, which had cleared it'});
		else if (entry.previous !== undefined) {
			doc.set(entry.key, entry.previous, entry.previousSource);
			fileOutcome(outcome, doc.file).restored.push(setting);
		}
		return;
	}
	if (current === undefined || current === entry.previous) return;
	if (current !== entry.value) {
		outcome.kept.push({path: doc.file, setting, reason: 'it was changed after the takeover'});
		return;
	}
	if (entry.previous === undefined) {
		doc.delete(entry.key);
		fileOutcome(outcome, doc.file).removed.push(setting);
	} else {
		doc.set(entry.key, entry.previous, entry.previousSource);
		fileOutcome(outcome, doc.file).restored.push(setting);
	}
}

async function write(docs: Docs, record: TakeoverRecord | null, outcome: Outcome): Promise<void> {
	for (const doc of docs.values()) {
		if (!doc.changed) continue;
		const file = fileOutcome(outcome, doc.file);
		if (record?.files.some(item => item.path === doc.file && item.created) && doc.isEmpty()) {
			await removeFile(doc.file);
			file.deleted = true;
		} else {
			await writeAtomic(doc.file, doc.render());
		}
	}
}

/**
 * Files that still hold exactly what apply wrote get their text from before the first takeover back,
 * byte for byte (or are removed, when apply created them). Returns their paths.
 */
async function restoreExactly(docs: Docs, record: TakeoverRecord | null, entries: readonly RecordEntry[], outcome: Outcome): Promise<Set<string>> {
	const done = new Set<string>();
	for (const doc of docs.values()) {
		const file = record?.files.find(item => item.path === doc.file);
		if (!file || file.original === undefined || file.written !== textHash(doc.original)) continue;
		const changed = fileOutcome(outcome, doc.file);
		for (const entry of entries.filter(item => item.file === doc.file)) (entry.previous === undefined ? changed.removed : changed.restored).push(keyName(entry.key));
		if (file.original === null) {
			await removeFile(doc.file);
			changed.deleted = true;
		} else {
			await writeAtomic(doc.file, file.original);
		}
		done.add(doc.file);
	}
	return done;
}

async function backupsOf(docs: Docs, record: TakeoverRecord | null): Promise<string[]> {
	if (record) return record.files.flatMap(file => file.backups);
	const found: string[] = [];
	for (const doc of docs.values()) if (await exists(`${doc.file}.bak`)) found.push(`${doc.file}.bak`);
	return found;
}

export async function undoTakeover(tool: TakeoverTool, options: TakeoverOptions = {}): Promise<UndoResult> {
	const adapter = adapters[tool];
	const ctx = resolveContext(options);
	const docs = await loadDocs(adapter.files(ctx));
	const record = await readRecord(ctx.dataDir, tool);
	const entries = record?.entries ?? guessEntries(adapter, docs, ctx);
	const title = takeoverTitles[tool];
	if (entries.length === 0) {
		throw new UserError(`Nothing to undo: ${title} does not point at the gateway at ${ctx.gateway}, and there is no record of a takeover in ${recordPath(ctx.dataDir, tool)}.`);
	}
	const outcome: Outcome = {files: new Map(), kept: []};
	const exact = await restoreExactly(docs, record, entries, outcome);
	const byPath = new Map([...docs.values()].filter(doc => !exact.has(doc.file)).map(doc => [doc.file, doc]));
	const warnings: string[] = [];
	for (const entry of entries) {
		const doc = byPath.get(entry.file);
		if (exact.has(entry.file)) continue;
		if (doc) revert(doc, entry, outcome);
		else if (!warnings.some(line => line.includes(entry.file))) warnings.push(`${entry.file} is not where ${title} reads its settings now (is HOME or CODEX_HOME different?); it was left alone.`);
	}
	const containers = record?.containers ?? parentsOf(entries);
	for (const container of [...containers].sort((a, b) => b.key.length - a.key.length)) byPath.get(container.file)?.deleteIfEmpty(container.key);
	await write(new Map([...byPath.values()].map(doc => [doc.file, doc])), record, outcome);
	if (record?.createdDir) await removeIfEmpty(record.createdDir);
	await deleteRecord(ctx.dataDir, tool);
	const backups = await backupsOf(docs, record);
	if (!record) warnings.push(`No record of the takeover was found in ${recordPath(ctx.dataDir, tool)}: only values pointing at the gateway were removed${backups.length > 0 ? `; earlier versions are in ${backups.join(', ')}` : ''}.`);
	return {tool, title, files: [...outcome.files.values()], kept: outcome.kept, backups, recorded: record !== null, warnings};
}
