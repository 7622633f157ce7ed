import {invalidRequest} from '../../base/errors.js';
import type {TranslationContext} from '../adapter.js';
import type {IRMessage, IRPart, IRReasoningPart, IRSystemBlock, IRToolCallPart, IRToolResultPart} from '../../base/ir.js';
import {unwrapSignature} from '../signature.js';
import {decodeResponsesContent, decodeResponsesText, decodeToolOutput} from './decode-responses-content.js';
import {localShellTool, namespacedName} from './decode-responses-tools.js';
import {isWireObject, asString, asArray, argumentsText, type WireObject} from '../wire.js';
import {requireString, optionalString} from './schema.js';

type Decoded = {system: IRSystemBlock[]; messages: IRMessage[]};

/** Tool names by call id: Gemini's functionResponse needs the name, a Responses output item has only the call id. */
type Walk = Decoded & {readonly toolNames: Map<string, string>; readonly ctx: TranslationContext};

/** Consecutive items of one role form one turn (reasoning + message + function calls; several tool outputs). */
function append(walk: Walk, role: IRMessage['role'], parts: readonly IRPart[]): void {
	if (parts.length === 0) return;
	const last = walk.messages.at(-1);
	if (last?.role === role) walk.messages[walk.messages.length - 1] = {role, parts: [...last.parts, ...parts]};
	else walk.messages.push({role, parts});
}

function decodeMessage(item: WireObject, path: string, walk: Walk): void {
	const role = requireString(item.role, `${path}.role`);
	switch (role) {
		case 'system':
		case 'developer':
			for (const part of decodeResponsesText(item.content, `${path}.content`)) walk.system.push({text: part.text});
			return;
		case 'user':
			return append(walk, 'user', decodeResponsesContent(item.content, `${path}.content`));
		case 'assistant':
			return append(walk, 'assistant', decodeResponsesText(item.content, `${path}.content`));
		default:
			throw invalidRequest(`\`${path}.role\` must be one of "user", "assistant", "system", "developer".`, `${path}.role`);
	}
}

function toolCall(walk: Walk, id: string, name: string, args: string): IRToolCallPart {
	walk.toolNames.set(id, name);
	// Responses function calls have no signature slot: one we saw on the way out is remembered by call id.
	const signature = walk.ctx.signatures.recall(id);
	return {type: 'tool_call', id, name, arguments: args, ...(signature ? {signature} : {})};
}

function toolResult(walk: Walk, item: WireObject, idKey: string, path: string): IRToolResultPart {
	const toolCallId = requireString(item[idKey], `${path}.${idKey}`);
	const name = walk.toolNames.get(toolCallId);
	return {type: 'tool_result', toolCallId, ...(name ? {name} : {}), content: decodeToolOutput(item.output, `${path}.output`)};
}

/**
 * A `reasoning` item → IR reasoning: its raw `content` text where present, else its summaries.
 * `encrypted_content` is the reasoning signature slot; a foreign signature the gateway put there
 * (`gtui1.<format>.…`) goes back to the provider that made it.
 */
function decodeReasoning(item: WireObject): IRReasoningPart | undefined {
	const texts = (key: string) => (asArray(item[key]) ?? []).flatMap(part => (isWireObject(part) && typeof part.text === 'string' ? [part.text] : []));
	const raw = texts('content');
	const text = (raw.length > 0 ? raw : texts('summary')).join('\n\n');
	const encrypted = asString(item.encrypted_content);
	if (!text && !encrypted) return undefined;
	return {type: 'reasoning', text, ...(encrypted ? {signature: unwrapSignature(encrypted, 'openai')} : {})};
}

/** The IR name of a called tool: a namespaced one's flattened name. */
function callName(item: WireObject, path: string): string {
	return namespacedName(optionalString(item.namespace, `${path}.namespace`), requireString(item.name, `${path}.name`));
}

/** A `local_shell_call` becomes a call of the `local_shell` function the gateway declares in its place. */
function localShellArguments(item: WireObject): string {
	const {type: _type, ...action} = isWireObject(item.action) ? item.action : {};
	return JSON.stringify(action);
}

function decodeItem(item: unknown, path: string, walk: Walk): void {
	if (!isWireObject(item)) throw invalidRequest(`\`${path}\` must be an input item object.`, path);
	const type = asString(item.type) ?? (item.role === undefined ? undefined : 'message');
	switch (type) {
		case 'message':
			return decodeMessage(item, path, walk);
		case 'function_call':
			return append(walk, 'assistant', [toolCall(walk, requireString(item.call_id, `${path}.call_id`), callName(item, path), argumentsText(item.arguments))]);
		case 'custom_tool_call': {
			const input = optionalString(item.input, `${path}.input`) ?? '';
			return append(walk, 'assistant', [toolCall(walk, requireString(item.call_id, `${path}.call_id`), callName(item, path), JSON.stringify({input}))]);
		}
		case 'local_shell_call':
			return append(walk, 'assistant', [toolCall(walk, requireString(item.call_id, `${path}.call_id`), localShellTool, localShellArguments(item))]);
		case 'function_call_output':
		case 'custom_tool_call_output':
			return append(walk, 'user', [toolResult(walk, item, 'call_id', path)]);
		case 'local_shell_call_output':
			return append(walk, 'user', [toolResult(walk, item, typeof item.call_id === 'string' ? 'call_id' : 'id', path)]);
		case 'reasoning': {
			const reasoning = decodeReasoning(item);
			return reasoning ? append(walk, 'assistant', [reasoning]) : undefined;
		}
		case 'item_reference':
			throw invalidRequest(`\`${path}\` is an item_reference: this channel has no stored items to refer to. Send the item itself.`, `${path}.type`);
		default:
			walk.ctx.warn(`Dropped an input item of type "${String(type)}": it has no equivalent on this channel.`);
	}
}

/**
 * `instructions` and `input` → IR system blocks and messages. `system` and `developer` messages
 * anywhere become system blocks; consecutive items of one role become one turn.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
export function decodeResponsesInput(instructions: string | undefined, input: unknown, ctx: TranslationContext): Decoded {
	const walk: Walk = {system: instructions ? [{text: instructions}] : [], messages: [], toolNames: new Map(), ctx};
	if (typeof input === 'string') append(walk, 'user', input === '' ? [] : [{type: 'text', text: input}]);
	else if (Array.isArray(input)) input.forEach((item, index) => decodeItem(item, `input[${index}]`, walk));
	else throw invalidRequest('`input` must be a string or an array of input items.', 'input');
	return {system: walk.system, messages: walk.messages};
}
