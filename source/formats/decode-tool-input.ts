/**
 * Tool-call arguments travel as JSON text in the IR; Anthropic's `tool_use.input` and Gemini's
 * `functionCall.args` must be objects.
 * @see https://docs.anthropic.com/en/api/messages#body-messages-content-tool-use-input
 * @see https://ai.google.dev/api/caching#FunctionCall
 */
import type {JsonObject} from '../base/ir.js';
import type {TranslationContext} from './adapter.js';
import {parseJsonObject} from './wire.js';

/** Empty text (OpenAI tools without arguments) is `{}`; text that is not an object (a call cut off by the limit) becomes `{}` with a warning. */
export function decodeToolInput(text: string, id: string, ctx: TranslationContext): JsonObject {
	if (text.trim() === '') return {};
	const value = parseJsonObject(text);
	if (value) return value;
	ctx.warn(`The arguments of tool call ${id} are not a JSON object (${text.length} characters); sent as {}.`);
	return {};
}
