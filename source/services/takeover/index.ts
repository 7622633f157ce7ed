/**
 * Takeover: point Claude Code, Codex or Gemini CLI at the gateway by editing their own config files,
 * and put them back. The API both `gateway-tui takeover …` and the TUI's Endpoints pane call:
 *
 * - takeoverStatus(options) → one ToolStatus per tool
 * - applyTakeover(store, tool, options) → ApplyResult (throws UserError with what to do next)
 * - undoTakeover(tool, options) → UndoResult
 * - takeoverPreview(tool, options) → the lines apply would write; checkTakeover(tool, options) → one
 *   request with the written settings through the gateway
 *
 * Pass `dataDir` (the store's home) to undo when the gateway runs with `--home`: the record of what
 * apply replaced lives there. Every refusal is a UserError whose message says what to do next.
 */
export {applyTakeover} from './apply.js';
export {checkTakeover, type LiveCheck} from './live-check.js';
export {codexProviderId} from './codex.js';
export {untrustedFoldersMark} from './gemini.js';
export {takeoverPreview, type PreviewLine, type PreviewOptions} from './preview.js';
export {takeoverKeyName} from './gateway-check.js';
export {recordPath} from './records.js';
export {noModelPrefix, takeoverStatus} from './status.js';
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
