/**
 * Before a tool is pointed at the gateway: the gateway must be able to answer it (an enabled channel,
 * and the model when one is named), and the tool needs a virtual key of its own.
 */
import {UserError} from '../../base/errors.js';
import type {Store} from '../../store/index.js';
import type {KeyRecord} from '../../base/records.js';
import {createKey, findKey} from '../keys.js';
import {takeoverTitles, type TakeoverTool} from './types.js';
import {keyState, listKeys} from '../../store/keys.js';
import {listChannels} from '../../store/channels.js';

/**
 * Any enabled channel can answer any tool: requests in another format are translated. With a model,
 * an enabled channel must serve that name.
 */
export async function checkGateway(store: Store, tool: TakeoverTool, model: string | undefined): Promise<void> {
	const enabled = (await listChannels(store)).filter(channel => channel.enabled);
	if (enabled.length === 0) {
		throw new UserError(
			`The gateway has no enabled channel, so ${takeoverTitles[tool]} would only get errors: add one with \`gateway-tui channels add --name NAME --format FORMAT --base-url URL --api-key KEY --models m1,m2\` (or enable one with \`gateway-tui channels enable NAME\`) and run again.`,
		);
	}
	if (model === undefined) return;
	const served = await servedModels(store);
	if (!served.includes(model)) {
		throw new UserError(`No enabled channel serves the model "${model}". Pass one of ${served.join(', ')} with --model, or add it to a channel with \`gateway-tui channels edit NAME --models …\`.`);
	}
}

/** The model names clients can ask for, over all enabled channels. */
export async function servedModels(store: Store): Promise<string[]> {
	const enabled = (await listChannels(store)).filter(channel => channel.enabled);
	return [...new Set(enabled.flatMap(channel => channel.models.map(item => item.name)))];
}

export const takeoverKeyName = (tool: TakeoverTool) => `takeover-${tool}`;

/** The key named with --key, else `takeover-<tool>` (reused when it exists and is active, created when missing). */
export async function takeoverKey(store: Store, tool: TakeoverTool, ref: string | undefined, model: string | undefined, fastModel?: string): Promise<{key: KeyRecord; created: boolean}> {
	const name = takeoverKeyName(tool);
	const existing = ref === undefined ? (await listKeys(store)).find(key => key.name === name) : await findKey(store, ref);
	if (!existing) {
		const key = await createKey(store, {name, description: `Used by ${takeoverTitles[tool]} (gateway-tui takeover apply ${tool}).`});
		return {key, created: true};
	}
	const state = keyState(existing);
	if (state !== 'active') {
		const fix = ref === undefined ? `delete it (\`gateway-tui keys delete ${name}\`, or d in the Keys pane) and a new one is made` : 'choose another key';
		throw new UserError(`The key "${existing.name}" is ${state}, so the gateway would refuse ${takeoverTitles[tool]}: ${fix}.`);
	}
	for (const name of [model, fastModel]) {
		if (name !== undefined && existing.models.length > 0 && !existing.models.includes(name)) {
			throw new UserError(`The key "${existing.name}" may not use the model "${name}" (it allows ${existing.models.join(', ')}): choose one of those, or another key.`);
		}
	}
	return {key: existing, created: false};
}
