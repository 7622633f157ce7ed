/**
 * `takeover apply <tool>`: every config file is parsed before anything is written (a malformed one is
 * refused untouched); a tool connected elsewhere, or a setting that would win over the gateway's key,
 * needs `force`; then each file that changes is backed up and rewritten atomically, and the record
 * that `undo` reads is written.
 */
import {UserError} from '../../base/errors.js';
import type {Store} from '../../store/index.js';
import {loadDocs, docOf, type Desired, type Docs, type ToolAdapter} from './adapter.js';
import {keyName, type KeyPath, type Scalar} from './config-doc.js';
import {resolveContext, type Context} from './context.js';
import {backup, exists, writeAtomic} from './files.js';
import {checkGateway, servedModels, takeoverKey} from './gateway-check.js';
import {findEntry, mergeRecord, readRecord, textHash, writeRecord, type RecordEntry, type TakeoverRecord} from './records.js';
import {adapters, noModelPrefix, noModelWarning, statusOf} from './status.js';
import {takeoverTitles, type ApplyOptions, type ApplyResult, type FileChange, type TakeoverTool} from './types.js';

/** Connected elsewhere needs force, unless the address is one an earlier apply wrote (another port of ours). */
function refuseElsewhere(adapter: ToolAdapter, docs: Docs, ctx: Context, force: boolean, earlier: TakeoverRecord | null): void {
	const {state, address, where} = adapter.inspect(docs, ctx);
	if (state !== 'connected-elsewhere' || force) return;
	if (earlier?.entries.some(entry => entry.value !== null && entry.value === address)) return;
	throw new UserError(
		`${takeoverTitles[adapter.tool]} is connected elsewhere (${where} is ${address}). Run \`gateway-tui takeover apply ${adapter.tool} --force\` to point it at the gateway instead; \`takeover undo ${adapter.tool}\` puts the old setting back.`,
	);
}

function refuseConflicts(adapter: ToolAdapter, conflicts: readonly Desired[], force: boolean): void {
	if (conflicts.length === 0 || force) return;
	const reasons = conflicts.map(item => item.reason ?? keyName(item.key)).join('; ');
	throw new UserError(`${reasons}. Run \`gateway-tui takeover apply ${adapter.tool} --force\` to clear it (undo puts it back), or remove it yourself.`);
}

function recordable(doc: {file: string}, key: KeyPath, value: unknown): Scalar | undefined {
	if (value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
	throw new UserError(`${doc.file}: "${keyName(key)}" holds a value takeover cannot record to put back later. Set it to a string (or remove it) and run again; the file was left untouched.`);
}

type Planned = {entries: RecordEntry[]; containers: {file: string; key: KeyPath}[]; changes: Map<string, FileChange>};

/** Applies the settings to the parsed documents (in memory) and notes what each replaced. */
function plan(settings: readonly Desired[], docs: Docs, earlier: TakeoverRecord | null): Planned {
	const planned: Planned = {entries: [], containers: [], changes: new Map()};
	for (const setting of settings) {
		const doc = docOf(docs, setting.file);
		const current = doc.get(setting.key);
		const prior = findEntry(earlier, {file: doc.file, key: setting.key});
		const still = prior !== undefined && current === (prior.value ?? undefined);
		const previous = still ? prior.previous : recordable(doc, setting.key, current);
		const previousSource = still ? prior.previousSource : current === undefined ? undefined : doc.source?.(setting.key);
		const change = planned.changes.get(doc.file) ?? {path: doc.file, backup: null, created: doc.original === null, set: [], replaced: [], cleared: []};
		planned.changes.set(doc.file, change);
		if (setting.value === null) {
			doc.delete(setting.key);
			change.cleared.push(keyName(setting.key));
		} else {
			const created = doc.set(setting.key, setting.value);
			planned.containers.push(...created.map(key => ({file: doc.file, key})));
			if (current !== undefined && current !== setting.value) change.replaced.push(keyName(setting.key));
			else if (current === undefined) change.set.push(keyName(setting.key));
		}
		planned.entries.push({file: doc.file, key: setting.key, value: setting.value, ...(previous === undefined ? {} : {previous}), ...(previousSource === undefined ? {} : {previousSource})});
	}
	return planned;
}

type Written = {readonly backup: string | null; readonly original: string | null | undefined; readonly written: string};

/**
 * Backs up and writes every document that changed; returns the files written. A file gets one backup,
 * at its first takeover (mode 0600: it may hold the user's own keys); later applies add none. The
 * text before the first takeover is kept for undo while the file still holds what apply wrote.
 */
async function write(docs: Docs, earlier: TakeoverRecord | null): Promise<Map<string, Written>> {
	const written = new Map<string, Written>();
	for (const doc of docs.values()) {
		if (!doc.changed) continue;
		const text = doc.render();
		const before = earlier?.files.find(file => file.path === doc.file);
		const copy = doc.original === null || (before && before.backups.length > 0) ? null : await backup(doc.file);
		const original = before === undefined ? doc.original : before.written === textHash(doc.original) ? before.original : undefined;
		await writeAtomic(doc.file, text);
		written.set(doc.file, {backup: copy, original, written: textHash(text)});
	}
	return written;
}

/** The status says when no model is set; on the command line, also how to choose one. */
function modelWarnings(title: string, model: string | null, served: readonly string[], warnings: readonly string[]): string[] {
	const others = warnings.filter(line => !line.startsWith(noModelPrefix));
	if (model === null) return [...others, `${noModelWarning(title)} Run again with --model NAME (one of ${served.join(', ')}) to choose.`];
	if (served.includes(model)) return others;
	return [...others, `${title} asks for the model "${model}" (from its config), which no enabled channel serves: run again with --model NAME (one of ${served.join(', ')}).`];
}

export async function applyTakeover(store: Store, tool: TakeoverTool, options: ApplyOptions = {}): Promise<ApplyResult> {
	const adapter = adapters[tool];
	const ctx = resolveContext(options, store.home);
	const force = options.force === true;
	const model = options.model?.trim() || undefined;
	const docs = await loadDocs(adapter.files(ctx));
	const earlier = await readRecord(ctx.dataDir, tool);
	refuseElsewhere(adapter, docs, ctx, force, earlier);
	const conflicts = adapter.conflicts(docs);
	refuseConflicts(adapter, conflicts, force);
	const fastModel = options.fastModel?.trim() || undefined;
	const settings = (secret: string) => [...conflicts, ...adapter.desired({gateway: ctx.gateway, secret, model, fastModel, allFolders: options.allFolders})];
	// A dry run on a second copy: a value that cannot be replaced fails here, before a key is created.
	plan(settings('sk-gtui-dry-run'), await loadDocs(adapter.files(ctx)), earlier);
	await checkGateway(store, tool, model);
	if (fastModel !== model) await checkGateway(store, tool, fastModel);
	const {key, created} = await takeoverKey(store, tool, options.key, model, fastModel);
	const planned = plan(settings(key.secret), docs, earlier);
	const createdDir = (await exists(adapter.configDir(ctx))) ? null : adapter.configDir(ctx);
	const written = await write(docs, earlier);
	const files = [...planned.changes.values()].filter(change => written.has(change.path)).map(change => ({...change, backup: written.get(change.path)?.backup ?? null}));
	const record = await writeRecord(
		ctx.dataDir,
		mergeRecord(earlier, {
			v: 1,
			tool,
			gatewayUrl: ctx.gateway,
			keyName: key.name,
			appliedAt: new Date().toISOString(),
			createdDir,
			files: files.map(change => {
				const {original, written: hash} = written.get(change.path)!;
				return {path: change.path, created: change.created, backups: change.backup ? [change.backup] : [], ...(original === undefined ? {} : {original}), written: hash};
			}),
			containers: planned.containers,
			entries: planned.entries,
		}),
	);
	const status = await statusOf(adapter, ctx);
	const warnings = modelWarnings(takeoverTitles[tool], status.model, await servedModels(store), status.warnings);
	return {tool, title: takeoverTitles[tool], gatewayUrl: ctx.gateway, keyName: key.name, keyCreated: created, model: status.model, files, record, warnings};
}
