/**
 * How the Endpoints pane words a takeover: a tool's state in the list, and the status bar's line
 * after apply and undo ("Claude Code now uses the gateway (key takeover-claude); backup: …").
 */
import {homedir} from 'node:os';
import {stateTitles, type ApplyResult, type LiveCheck, type ToolState, type ToolStatus, type UndoResult} from '../services/takeover/index.js';

/** `/home/me/.claude/settings.json` → `~/.claude/settings.json`. */
export function tilde(path: string, home = process.env.HOME || homedir()): string {
	return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** "taken over", "connected elsewhere", …, or "config unreadable" when a file could not be parsed. */
export function toolStateText(status: ToolStatus): string {
	return status.problem ? 'config unreadable' : stateTitles[status.state];
}

const shortTitles: Readonly<Record<ToolState, string>> = {...stateTitles, 'connected-elsewhere': 'elsewhere'};

/** The same, short enough for the list beside the snippets. */
export function toolStateWord(status: ToolStatus): string {
	return status.problem ? 'bad config' : shortTitles[status.state];
}

export function applyText(result: ApplyResult): string {
	const key = `key ${result.keyName}${result.keyCreated ? ', just created' : ''}`;
	if (result.files.length === 0) return `${result.title} already used the gateway (${key}): nothing to write.`;
	const backups = result.files.flatMap(file => (file.backup ? [tilde(file.backup)] : []));
	const created = result.files.filter(file => file.created).map(file => tilde(file.path));
	const written = [backups.length > 0 ? `backup: ${backups.join(', ')}` : '', created.length > 0 ? `new file: ${created.join(', ')}` : ''].filter(Boolean);
	return `${result.title} now uses the gateway (${key}); ${written.join('; ')}`;
}

/** After a takeover from the pane: what was written, and whether the tool's settings got an answer. */
export function takeoverDoneText(result: ApplyResult, check: LiveCheck): string {
	const key = `key ${result.keyName}${result.keyCreated ? ', just created' : ''}`;
	const backups = result.files.flatMap(file => (file.backup ? [tilde(file.backup)] : []));
	const backup = backups.length > 0 ? ` Backup: ${backups.join(', ')}.` : '';
	const model = result.model ? `, model ${result.model}` : '';
	if (check.ok) return `${result.title} now uses the gateway (${key}${model}) and ${check.text}.${backup}`;
	const answer = check.status === null ? 'no answer' : `HTTP ${check.status}`;
	return `${result.title} now points at the gateway (${key}${model}), but the live check failed (${answer}): see the tool's details here.${backup}`;
}

/** A failed check, with what to do next (in this pane's words: the proxy's messages name CLI commands). */
export function checkFailure(check: LiveCheck): string {
	const text = check.text.replace(/ ?Check its base URL with `gateway-tui channels test [^`]*`\./, '').replace(/\.$/, '');
	if (check.status === 401 || check.status === 403 || check.status === 404) return `${text}. Press a to choose another model or key.`;
	if (check.status !== null && check.status >= 500) return `${text}. Test the channel (2, then t).`;
	return `${text}.`;
}

export function undoText(result: UndoResult): string {
	const files = result.files.map(file => `${file.deleted ? 'removed' : 'restored'} ${tilde(file.path)}`);
	const kept = result.kept.length > 0 ? ` Kept ${result.kept.map(item => item.setting).join(', ')}: changed since the takeover.` : '';
	const backups = result.backups.length > 0 ? ` Backup left: ${result.backups.map(path => tilde(path)).join(', ')}.` : '';
	return `${result.title} no longer uses the gateway: ${files.join(', ') || 'nothing left to change'}.${kept}${backups}`;
}
