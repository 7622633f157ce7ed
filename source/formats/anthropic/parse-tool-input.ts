/**
 * Tool-call arguments travel as JSON text in the IR; Anthropic's `tool_use.input` must be an object.
 * @see https://docs.anthropic.com/en/api/messages#body-messages-content-tool-use-input
 */
import type {TranslationContext} from '../adapter.js';
import type {JsonObject} from '../../base/ir.js';
import {isJsonObject} from './schema.js';

/** Empty text (OpenAI tools without arguments) is `{}`; text that is not an object (a call cut off by the limit) becomes `{}` with a warning. */
export function parseToolInput(text: string, id: string, ctx: TranslationContext): JsonObject {
	if (text.trim() === '') return {};
	try {
		const value: unknown = JSON.parse(text);
		if (isJsonObject(value)) return value;
	} catch {
		// Reported below.
	}
	ctx.warn(`The arguments of tool call ${id} are not a JSON object (${text.length} characters); sent as {}.`);
	return {};
}
