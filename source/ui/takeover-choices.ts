/**
 * The choices of the takeover form: which key (the tool's own `takeover-<tool>` first, then the
 * other active keys), which models that key may use (served by an enabled channel and allowed by
 * the key), and a sensible default for the tool's main and fast model.
 */
import type {ChannelRecord, KeyRecord} from '../base/records.js';
import {takeoverKeyName, type TakeoverTool} from '../services/takeover/index.js';
import {keyState} from '../store/keys.js';
import type {Option} from './components/select.js';
import type {LimitUse} from '../base/periods.js';
import {reachedText} from './panes/key-views.js';

/** The value of the key field that means "the tool's own key" (made on first use). */
export const ownKey = '';

export function keyOptions(tool: TakeoverTool, keys: readonly KeyRecord[], limitUse?: ReadonlyMap<string, LimitUse>): Option[] {
	const own = takeoverKeyName(tool);
	const existing = keys.find(key => key.name === own);
	const state = existing ? keyState(existing) : null;
	// A key at one of its limits is still offered (it resets), but says so: the live check would fail with its 429.
	const reached = (key: KeyRecord) => reachedText(key, limitUse?.get(key.id));
	const ownReached = existing && state === 'active' ? reached(existing) : null;
	const note = state === null ? 'its own, made now' : state === 'active' ? (ownReached ? `its own, ${ownReached}` : 'its own') : `its own, ${state}: delete it in 1 Keys for a new one, or choose another`;
	const others = keys.filter(key => key.name !== own && keyState(key) === 'active');
	return [{label: `${own} (${note})`, value: ownKey}, ...others.map(key => ({label: reached(key) ? `${key.name} (${reached(key)})` : key.name, value: key.id}))];
}

/** The key the form's value stands for (undefined: the tool's own, which may not exist yet). */
export function chosenKey(tool: TakeoverTool, keys: readonly KeyRecord[], value: string): KeyRecord | undefined {
	return value === ownKey ? keys.find(key => key.name === takeoverKeyName(tool)) : keys.find(key => key.id === value);
}

/** Model names an enabled channel serves and the key may use, in channel order. */
export function usableModels(channels: readonly ChannelRecord[], key: KeyRecord | undefined): string[] {
	const served = channels.filter(channel => channel.enabled).flatMap(channel => channel.models.map(model => model.name));
	const allowed = key?.models ?? [];
	return [...new Set(served)].filter(name => allowed.length === 0 || allowed.includes(name));
}

/** The tool's own family first (`haiku` for Claude Code), then any small model. */
const families: Readonly<Record<TakeoverTool, {main: RegExp; fast: readonly RegExp[]}>> = {
	claude: {main: /sonnet|opus|claude/i, fast: [/haiku/i, /mini|flash|fast/i]},
	codex: {main: /codex|gpt-5|gpt|o\d/i, fast: [/gpt.*mini/i, /mini|flash|haiku|fast/i]},
	gemini: {main: /gemini.*pro|gemini/i, fast: [/gemini.*flash/i, /flash|mini|haiku|fast/i]},
};

/** The tool's current model when usable, else the first that looks like its family, else the first. */
export function defaultModel(tool: TakeoverTool, models: readonly string[], current: string | null): string {
	if (current && models.includes(current)) return current;
	return models.find(name => families[tool].main.test(name)) ?? models[0] ?? '';
}

/** Claude Code's model for background tasks: a small one when there is one. */
export function defaultFastModel(tool: TakeoverTool, models: readonly string[], main: string): string {
	for (const pattern of families[tool].fast) {
		const found = models.find(name => pattern.test(name) && name !== main);
		if (found) return found;
	}
	return main;
}

export function modelOptions(models: readonly string[], current: string | null): Option[] {
	return models.map(name => ({label: name === current ? `${name} (set now)` : name, value: name}));
}
