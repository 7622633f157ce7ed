/**
 * Takeover: point Claude Code, Codex or Gemini CLI at the gateway by editing their own config files,
 * and put them back. The API both `gateway-tui takeover …` and the TUI's Endpoints pane call:
 *
 * - takeoverStatus(options) → one ToolStatus per tool
 * - applyTakeover(store, tool, options) → ApplyResult (throws UserError with what to do next)
 * - undoTakeover(tool, options) → UndoResult
 *
 * Pass `dataDir` (the store's home) to undo when the gateway runs with `--home`: the record of what
 * apply replaced lives there. Every refusal is a UserError whose message says what to do next.
 */
export {applyTakeover} from './apply.js';
export {codexProviderId} from './codex.js';
export {takeoverKeyName} from './gateway-check.js';
export {recordPath} from './records.js';
export {takeoverStatus} from './status.js';
export {undoTakeover} from './undo.js';
export {
	parseTakeoverTool,
	stateTitles,
	takeoverTitles,
	takeoverTools,
	type ApplyOptions,
	type ApplyResult,
	type FileChange,
	type TakeoverOptions,
	type TakeoverTool,
	type ToolState,
	type ToolStatus,
	type UndoFile,
	type UndoResult,
} from './types.js';
