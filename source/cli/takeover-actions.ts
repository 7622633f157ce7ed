/**
 * What `gateway-tui takeover status | apply | undo` do, loaded only when one of them runs: the
 * takeover services bring the TOML and JSONC editors, which no other command needs.
 */
import {homedir} from 'node:os';
import type {Command} from 'commander';
import {UserError} from '../base/errors.js';
import {
	applyTakeover,
	parseTakeoverTool,
	stateTitles,
	takeoverStatus,
	undoTakeover,
	type ApplyResult,
	type FileChange,
	type TakeoverOptions,
	type TakeoverTool,
	type ToolStatus,
	type UndoResult,
} from '../services/takeover/index.js';
import {homeOf, withStore} from './context.js';
import {print, printJson, table} from './output.js';
import {parsePort} from './serve.js';
import {gatewayUrl} from '../base/paths.js';

import type {ApplyFlags, Flags} from './takeover.js';

/** `/home/me/.codex/config.toml` → `~/.codex/config.toml`, for human output only. */
function tilde(path: string): string {
	const home = process.env.HOME || homedir();
	return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function toolOf(text: string): TakeoverTool {
	const tool = parseTakeoverTool(text);
	if (!tool) throw new UserError(`Unknown tool "${text}": use claude, codex or gemini.`);
	return tool;
}

function options(flags: Flags, command: Command): TakeoverOptions {
	return {gatewayUrl: gatewayUrl(flags.host, parsePort(flags.port)), dataDir: homeOf(command)};
}

function describeStatus(statuses: readonly ToolStatus[]): string {
	const rows = statuses.map(status => ({
		tool: status.tool,
		name: status.title,
		state: status.problem ? 'cannot tell' : stateTitles[status.state],
		'points at': status.address ?? '-',
		model: status.model ?? '-',
		config: status.state === 'not-detected' ? `${tilde(status.configDir)} (missing)` : status.files.map(tilde).join(', '),
	}));
	const notes = statuses.flatMap(status => [...(status.problem ? [status.problem] : []), ...status.warnings].map(line => `${status.tool}: ${line}`));
	return [table(rows, ['tool', 'name', 'state', 'points at', 'model', 'config']), ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}

function describeChange(change: FileChange): string {
	const parts = [
		change.set.length > 0 ? `set ${change.set.join(', ')}` : '',
		change.replaced.length > 0 ? `replaced ${change.replaced.join(', ')}` : '',
		change.cleared.length > 0 ? `cleared ${change.cleared.join(', ')}` : '',
	].filter(Boolean);
	const backup = change.backup ? ` (backup: ${tilde(change.backup)})` : change.created ? ' (new file)' : '';
	return `  ${tilde(change.path)}: ${parts.join('; ')}${backup}`;
}

function describeApply(result: ApplyResult): string {
	const key = `the key "${result.keyName}"${result.keyCreated ? ' (created)' : ''}`;
	const model = result.model ? `, model ${result.model}` : '';
	const files = result.files.length > 0 ? result.files.map(describeChange) : ['  (its settings already pointed here: nothing to write)'];
	const lines = [`${result.title} now uses the gateway at ${result.gatewayUrl} with ${key}${model}.`, ...files];
	lines.push(...result.warnings.map(line => `warning: ${line}`), `Undo with \`gateway-tui takeover undo ${result.tool}\`.`);
	return lines.join('\n');
}

function describeUndo(result: UndoResult): string {
	const files = result.files.map(file => {
		if (file.deleted) return `  ${tilde(file.path)}: removed (the takeover had created it)`;
		const parts = [file.removed.length > 0 ? `removed ${file.removed.join(', ')}` : '', file.restored.length > 0 ? `restored ${file.restored.join(', ')}` : ''].filter(Boolean);
		return `  ${tilde(file.path)}: ${parts.join('; ')}`;
	});
	const kept = result.kept.map(item => `  kept ${item.setting} in ${tilde(item.path)}: ${item.reason}`);
	const backups = result.backups.length > 0 ? [`Backups left in place: ${result.backups.map(tilde).join(', ')}.`] : [];
	return [`${result.title} no longer uses the gateway.`, ...files, ...kept, ...backups, ...result.warnings.map(line => `warning: ${line}`)].join('\n');
}

export async function status(flags: Flags, command: Command): Promise<void> {
	const statuses = await takeoverStatus(options(flags, command));
	if (flags.json) printJson(statuses);
	else print(describeStatus(statuses));
}

export async function apply(name: string, flags: ApplyFlags, command: Command): Promise<void> {
	const tool = toolOf(name);
	await withStore(command, async store => {
		const result = await applyTakeover(store, tool, {...options(flags, command), key: flags.key, model: flags.model, fastModel: flags.fastModel, allFolders: flags.allFolders, force: flags.force});
		if (flags.json) printJson(result);
		else print(describeApply(result));
	});
}

export async function undo(name: string, flags: Flags, command: Command): Promise<void> {
	const result = await undoTakeover(toolOf(name), options(flags, command));
	if (flags.json) printJson(result);
	else print(describeUndo(result));
}
