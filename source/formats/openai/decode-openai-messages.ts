import {invalidRequest} from '../../base/errors.js';
import type {IRMessage, IRPart, IRReasoningPart, IRSystemBlock, IRToolCallPart, IRToolResultPart} from '../../base/ir.js';
import type {SignatureMemory, TranslationContext} from '../adapter.js';
import {decodeOpenaiContent, decodeOpenaiText} from './decode-openai-content.js';
import {isWireObject, argumentsText, type WireObject} from '../wire.js';
import {requireString, optionalString, optionalArray} from './schema.js';

type Decoded = {system: IRSystemBlock[]; messages: IRMessage[]};

/** State shared while walking the messages: tool names by call id, because Gemini's functionResponse needs the name. */
type Walk = Decoded & {toolNames: Map<string, string>; lastWasTool: boolean; readonly signatures: SignatureMemory};

function decodeToolCall(call: unknown, path: string, walk: Walk): IRToolCallPart {
	if (!isWireObject(call)) throw invalidRequest(`\`${path}\` must be a tool call object.`, path);
	const type = optionalString(call.type, `${path}.type`) ?? 'function';
	if (type !== 'function') throw invalidRequest(`\`${path}.type\` "${type}" cannot be translated; only function tool calls are supported.`, `${path}.type`);
	const id = requireString(call.id, `${path}.id`);
	const fn = call.function;
	if (!isWireObject(fn)) throw invalidRequest(`\`${path}.function\` must be an object with \`name\` and \`arguments\`.`, `${path}.function`);
	const name = requireString(fn.name, `${path}.function.name`);
	walk.toolNames.set(id, name);
	// OpenAI chat has no signature slot: a signature we saw on the way out is remembered by call id.
	const signature = walk.signatures.recall(id);
	return {type: 'tool_call', id, name, arguments: argumentsText(fn.arguments), ...(signature ? {signature} : {})};
}

/**
 * An assistant message → IR parts: reasoning first (DeepSeek `reasoning_content`, or `reasoning` as
 * vLLM and OpenRouter call it), then text (`content`, `refusal`), then tool calls.
 * @see https://api-docs.deepseek.com/guides/thinking_mode
 */
function decodeAssistant(message: WireObject, path: string, walk: Walk): IRPart[] {
	const parts: IRPart[] = [];
	const reasoning = optionalString(message.reasoning_content, `${path}.reasoning_content`) ?? optionalString(message.reasoning, `${path}.reasoning`);
	if (reasoning) parts.push({type: 'reasoning', text: reasoning} satisfies IRReasoningPart);
	parts.push(...decodeOpenaiText(message.content, `${path}.content`));
	const refusal = optionalString(message.refusal, `${path}.refusal`);
	if (refusal) parts.push({type: 'text', text: refusal});
	const calls = optionalArray(message.tool_calls, `${path}.tool_calls`) ?? [];
	calls.forEach((call, index) => parts.push(decodeToolCall(call, `${path}.tool_calls[${index}]`, walk)));
	return parts;
}

function decodeToolMessage(message: WireObject, path: string, toolNames: Map<string, string>): IRToolResultPart {
	const toolCallId = requireString(message.tool_call_id, `${path}.tool_call_id`);
	const name = toolNames.get(toolCallId);
	// Images are not in OpenAI's schema for tool messages, but other formats carry them: accept them.
	const content = decodeOpenaiContent(message.content, `${path}.content`, true);
	return {type: 'tool_result', toolCallId, ...(name ? {name} : {}), content};
}

function decodeMessage(message: unknown, path: string, walk: Walk): void {
	if (!isWireObject(message)) throw invalidRequest(`\`${path}\` must be a message object.`, path);
	const role = requireString(message.role, `${path}.role`);
	const wasTool = walk.lastWasTool;
	walk.lastWasTool = false;
	switch (role) {
		case 'system':
		case 'developer':
			for (const part of decodeOpenaiText(message.content, `${path}.content`)) walk.system.push({text: part.text, ...(part.cache ? {cache: part.cache} : {})});
			return;
		case 'user': {
			const parts = decodeOpenaiContent(message.content, `${path}.content`, true);
			if (parts.length > 0) walk.messages.push({role: 'user', parts});
			return;
		}
		case 'assistant': {
			const parts = decodeAssistant(message, path, walk);
			if (parts.length > 0) walk.messages.push({role: 'assistant', parts});
			return;
		}
		case 'tool': {
			const result = decodeToolMessage(message, path, walk.toolNames);
			const previous = walk.messages.at(-1);
			// Consecutive tool messages answer one assistant turn: they become one user message.
			if (wasTool && previous) walk.messages[walk.messages.length - 1] = {role: 'user', parts: [...previous.parts, result]};
			else walk.messages.push({role: 'user', parts: [result]});
			walk.lastWasTool = true;
			return;
		}
		case 'function':
			throw invalidRequest(`\`${path}.role\` "function" is deprecated and cannot be translated; send tool results as \`role: "tool"\` messages.`, `${path}.role`);
		default:
			throw invalidRequest(`\`${path}.role\` must be one of "system", "developer", "user", "assistant", "tool".`, `${path}.role`);
	}
}

/**
 * OpenAI `messages` → IR system blocks and messages. `system` and `developer` messages anywhere in
 * the list become system blocks (o1 and newer treat `developer` as `system`).
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
export function decodeOpenaiMessages(messages: readonly unknown[], ctx: TranslationContext): Decoded {
	const walk: Walk = {system: [], messages: [], toolNames: new Map(), lastWasTool: false, signatures: ctx.signatures};
	messages.forEach((message, index) => decodeMessage(message, `messages[${index}]`, walk));
	return {system: walk.system, messages: walk.messages};
}
