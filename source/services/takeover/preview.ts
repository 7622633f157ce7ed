/**
 * What `apply` would write, without writing it: one line per setting, grouped by file, with the key
 * shown by name (never its secret). The Endpoints pane shows it in the takeover form.
 */
import {loadDocs} from './adapter.js';
import {keyName} from './config-doc.js';
import {resolveContext} from './context.js';
import {adapters} from './status.js';
import type {ApplyOptions, TakeoverTool} from './types.js';

export type PreviewLine = {
	readonly file: string;
	readonly setting: string;
	/** The value written, or null when the setting is removed (it would win over the gateway's). */
	readonly value: string | null;
	readonly reason?: string;
};

export type PreviewOptions = Pick<ApplyOptions, 'home' | 'env' | 'gatewayUrl' | 'model' | 'fastModel' | 'allFolders'> & {
	/** How the key is shown in place of its secret, e.g. `<key takeover-claude>`. */
	readonly keyLabel: string;
};

/** The settings apply would write (and clear, with force), in the order it writes them. Throws on a malformed file, like apply. */
export async function takeoverPreview(tool: TakeoverTool, options: PreviewOptions): Promise<PreviewLine[]> {
	const adapter = adapters[tool];
	const ctx = resolveContext(options, '');
	const files = adapter.files(ctx);
	const docs = await loadDocs(files);
	const pathOf = (id: string) => files.find(file => file.id === id)?.path ?? id;
	const model = options.model?.trim() || undefined;
	const fastModel = options.fastModel?.trim() || undefined;
	const settings = [...adapter.conflicts(docs), ...adapter.desired({gateway: ctx.gateway, secret: options.keyLabel, model, fastModel, allFolders: options.allFolders})];
	return settings.map(item => ({file: pathOf(item.file), setting: keyName(item.key), value: item.value === null ? null : String(item.value), ...(item.reason ? {reason: item.reason} : {})}));
}
