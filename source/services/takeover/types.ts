/**
 * The takeover service's public shapes: what the CLI (`gateway-tui takeover …`) and the TUI's
 * Endpoints pane pass in and get back.
 */

export type TakeoverTool = 'claude' | 'codex' | 'gemini';
export const takeoverTools: readonly TakeoverTool[] = ['claude', 'codex', 'gemini'];

export const takeoverTitles: Readonly<Record<TakeoverTool, string>> = {
	claude: 'Claude Code',
	codex: 'Codex',
	gemini: 'Gemini CLI',
};

/**
 * - `taken-over`: the tool points at this gateway.
 * - `connected-elsewhere`: it points at another address; never overwritten without `force`.
 * - `not-taken-over`: its config directory exists and it uses its default provider.
 * - `not-detected`: its config directory does not exist.
 */
export type ToolState = 'taken-over' | 'connected-elsewhere' | 'not-taken-over' | 'not-detected';

export const stateTitles: Readonly<Record<ToolState, string>> = {
	'taken-over': 'taken over',
	'connected-elsewhere': 'connected elsewhere',
	'not-taken-over': 'not taken over',
	'not-detected': 'not detected',
};

export type TakeoverOptions = {
	/** The user's home directory: default `$HOME`, else os.homedir(). */
	home?: string;
	/** Environment read for `CODEX_HOME` and for warnings about exported variables: default process.env. */
	env?: Readonly<Record<string, string | undefined>>;
	/** The gateway's root URL, e.g. http://127.0.0.1:11580 (no /v1): default gatewayUrl(). */
	gatewayUrl?: string;
	/** Where undo records live (the gateway's data directory): default the store's home, else resolveHome(). */
	dataDir?: string;
};

export type ApplyOptions = TakeoverOptions & {
	/** An existing key by name or id; default: the key `takeover-<tool>`, created when missing. */
	key?: string;
	/** The model the tool should ask for; must be served by an enabled channel. */
	model?: string;
	/** Claude Code's model for background tasks (ANTHROPIC_DEFAULT_HAIKU_MODEL); default `model`. */
	fastModel?: string;
	/** Gemini CLI: work in every folder, not only trusted ones (sets `security.folderTrust.enabled = false`). */
	allFolders?: boolean;
	/** Overwrite a tool connected elsewhere, and clear settings that would win over the gateway's key. */
	force?: boolean;
};

export type ToolStatus = {
	tool: TakeoverTool;
	title: string;
	state: ToolState;
	/** The base URL the tool is configured with, or null when it uses its default provider. */
	address: string | null;
	/** The model its config selects, when one is set. */
	model: string | null;
	/** The tool's config directory, and the files a takeover edits. */
	configDir: string;
	files: string[];
	/** A config file that cannot be read (malformed); the state is then only a guess. */
	problem: string | null;
	/** Things that keep a takeover from working (e.g. a variable exported in the shell that wins). */
	warnings: string[];
};

export type FileChange = {
	path: string;
	/** The copy made before the first change, or null when the file did not exist. */
	backup: string | null;
	created: boolean;
	/** Setting names, e.g. `env.ANTHROPIC_BASE_URL`. */
	set: string[];
	replaced: string[];
	cleared: string[];
};

export type ApplyResult = {
	tool: TakeoverTool;
	title: string;
	gatewayUrl: string;
	keyName: string;
	keyCreated: boolean;
	model: string | null;
	/** One entry per file written; files that already held these values are left alone and not listed. */
	files: FileChange[];
	/** Where the record that `undo` reads was written. */
	record: string;
	warnings: string[];
};

export type UndoFile = {
	path: string;
	/** Removed because apply created it and nothing else is left in it. */
	deleted: boolean;
	removed: string[];
	restored: string[];
};

export type UndoResult = {
	tool: TakeoverTool;
	title: string;
	files: UndoFile[];
	/** Settings left as they are because they were changed after the takeover. */
	kept: {path: string; setting: string; reason: string}[];
	/** Backups made by apply; undo never deletes them. */
	backups: string[];
	/** False when no record of the takeover was found and only values pointing at the gateway were removed. */
	recorded: boolean;
	warnings: string[];
};

export function parseTakeoverTool(text: string | undefined): TakeoverTool | undefined {
	return takeoverTools.find(tool => tool === text);
}
