/** `takeover status`: the state of each tool, read from its config files; nothing is written. */
import {UserError} from '../../base/errors.js';
import {loadDocs, type ToolAdapter} from './adapter.js';
import {claude} from './claude.js';
import {codex} from './codex.js';
import {resolveContext, type Context} from './context.js';
import {exists} from './files.js';
import {gemini} from './gemini.js';
import {takeoverTitles, takeoverTools, type TakeoverOptions, type TakeoverTool, type ToolStatus} from './types.js';

export const adapters: Readonly<Record<TakeoverTool, ToolAdapter>> = {claude, codex, gemini};

export const noModelPrefix = 'No model is set:';

export const noModelWarning = (title: string) => `${noModelPrefix} ${title} asks for its own default model, which the gateway's channels may not serve.`;

export async function statusOf(adapter: ToolAdapter, ctx: Context): Promise<ToolStatus> {
	const configDir = adapter.configDir(ctx);
	const files = adapter.files(ctx).map(file => file.path);
	const base = {tool: adapter.tool, title: takeoverTitles[adapter.tool]};
	const rest = {configDir, files, problem: null, warnings: []};
	if (!(await exists(configDir))) return {...base, state: 'not-detected', address: null, model: null, ...rest};
	try {
		const {state, address, model, warnings} = adapter.inspect(await loadDocs(adapter.files(ctx)), ctx);
		// Derived from the files as they are now: it goes away once a model is set.
		const noModel = state === 'taken-over' && model === null ? [noModelWarning(base.title)] : [];
		return {...base, state, address, model, ...rest, warnings: [...noModel, ...warnings]};
	} catch (error) {
		if (!(error instanceof UserError)) throw error;
		return {...base, state: 'not-taken-over', address: null, model: null, ...rest, problem: error.message};
	}
}

/** One status per tool, in the order claude, codex, gemini. */
export async function takeoverStatus(options: TakeoverOptions = {}): Promise<ToolStatus[]> {
	const ctx = resolveContext(options);
	return Promise.all(takeoverTools.map(tool => statusOf(adapters[tool], ctx)));
}
