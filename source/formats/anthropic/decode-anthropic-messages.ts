/**
 * A client's `system` + `messages` → IR system blocks and messages.
 * @see https://docs.anthropic.com/en/api/messages#body-system
 */
import type {TranslationContext} from '../adapter.js';
import type {IRMessage, IRSystemBlock} from '../../base/ir.js';
import {invalidRequest} from '../../base/errors.js';
import {decodeAnthropicContent} from './decode-anthropic-content.js';
import {decodeAnthropicCacheControl} from './map-anthropic-cache-control.js';
import {requireArray, requireObject, requireString} from './schema.js';

/** Top-level `system`: a string, or text blocks that may carry `cache_control`. */
export function decodeAnthropicSystem(system: unknown, path: string, ctx: TranslationContext): IRSystemBlock[] {
	if (system === undefined || system === null) return [];
	if (typeof system === 'string') return system === '' ? [] : [{text: system}];
	const blocks: IRSystemBlock[] = [];
	for (const [index, item] of requireArray(system, path).entries()) {
		const block = requireObject(item, `${path}.${index}`);
		if (block.type !== 'text') {
			ctx.warn(`${path}.${index}: a "${String(block.type)}" block in the system prompt cannot be translated and was dropped.`);
			continue;
		}
		const cache = decodeAnthropicCacheControl(block.cache_control);
		blocks.push({text: requireString(block.text, `${path}.${index}.text`), ...(cache ? {cache} : {})});
	}
	return blocks;
}

/**
 * Claude Code ≥ 2.1.154 may put `role: "system"` entries inside `messages`; the API itself only knows
 * user/assistant, so they are folded into the system prompt in order.
 */
export function decodeAnthropicMessages(value: unknown, ctx: TranslationContext): {system: IRSystemBlock[]; messages: IRMessage[]} {
	const list = requireArray(value, 'messages');
	if (list.length === 0) throw invalidRequest('messages: at least one message is required.', 'messages');
	const system: IRSystemBlock[] = [];
	const messages: IRMessage[] = [];
	for (const [index, item] of list.entries()) {
		const path = `messages.${index}`;
		const message = requireObject(item, path);
		const role = message.role;
		if (role === 'system') {
			system.push(...decodeAnthropicSystem(message.content, `${path}.content`, ctx));
		} else if (role === 'user' || role === 'assistant') {
			messages.push({role, parts: decodeAnthropicContent(message.content, `${path}.content`, ctx)});
		} else {
			throw invalidRequest(`${path}.role: expected "user" or "assistant", got ${JSON.stringify(role)}.`, `${path}.role`);
		}
	}
	return {system, messages};
}
