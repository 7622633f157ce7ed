/** Tool narrowing shared by the OpenAI platform's two request formats (chat completions and Responses). */
import type {IRTool} from '../base/ir.js';
import type {TranslationContext} from './adapter.js';

/**
 * Narrow the tools to the names `tool_choice.allowed_tools` permits, warning about the ones left
 * out: the IR has no "allowed" list, so the model sees only the allowed tools.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
 */
export function narrowTools(tools: IRTool[], onlyTools: readonly string[] | undefined, ctx: TranslationContext): IRTool[] {
	if (!onlyTools) return tools;
	const kept = tools.filter(tool => onlyTools.includes(tool.name));
	if (kept.length < tools.length) ctx.warn(`tool_choice.allowed_tools: sent only ${kept.length} of ${tools.length} tools to the model.`);
	return kept;
}
