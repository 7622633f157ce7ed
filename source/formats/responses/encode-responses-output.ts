/**
 * IR answer parts → Responses output items: `message`, `reasoning`, `function_call`, and for tools the
 * client declared as `custom` or `local_shell`, the `custom_tool_call` / `local_shell_call` they produce.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-output
 */
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRResponse, type IRSignature, type IRToolCallPart, type JsonObject} from '../../base/ir.js';
import {rememberToolCallSignature, wrapSignature} from '../signature.js';
import type {ToolKinds} from './convert-responses-tools.js';
import {newItemId} from './ids.js';
import {isObject, type ItemStatus, type MessageItem, type OutputItem, type ReasoningItem} from './schema.js';

export function messageItem(id: string, text: string, status: ItemStatus): MessageItem {
	return {id, type: 'message', status, content: [{type: 'output_text', text, annotations: [], logprobs: []}], role: 'assistant'};
}

/** `encrypted_content` is the only signature slot: a foreign signature goes in wrapped, and comes back to its provider. */
export function reasoningItem(id: string, text: string, signature: IRSignature | undefined): ReasoningItem {
	const encrypted = signature && signature.value !== '' ? wrapSignature(signature, 'openai') : null;
	return {id, type: 'reasoning', summary: text ? [{type: 'summary_text', text}] : [], encrypted_content: encrypted};
}

function parsedArguments(json: string): unknown {
	try {
		return JSON.parse(json) as unknown;
	} catch {
		return undefined;
	}
}

/** A custom tool's raw text: the `input` the model put in the stand-in function's arguments. */
export function customInput(json: string): string {
	const args = parsedArguments(json);
	if (isObject(args) && typeof args.input === 'string') return args.input;
	return typeof args === 'string' ? args : json;
}

function shellAction(json: string): JsonObject {
	const args = parsedArguments(json);
	const value = isObject(args) ? args : {};
	const command = Array.isArray(value.command) ? value.command.filter((part): part is string => typeof part === 'string') : [];
	const action: JsonObject = {type: 'exec', command, env: {}};
	if (typeof value.working_directory === 'string') action.working_directory = value.working_directory;
	if (typeof value.timeout_ms === 'number') action.timeout_ms = value.timeout_ms;
	return action;
}

/** A tool call as the item its tool produces (namespaced tools under their own name and `namespace`). Only function calls have streamed arguments; the others are whole at the end. */
export function callItem(call: Pick<IRToolCallPart, 'id' | 'name' | 'arguments'>, kinds: ToolKinds, itemId: string | undefined, status: ItemStatus): OutputItem {
	const declared = kinds.get(call.name);
	const named = {name: declared?.name ?? call.name, ...(declared?.namespace ? {namespace: declared.namespace} : {})};
	if (declared?.kind === 'custom') return {id: itemId ?? newItemId('ctc'), type: 'custom_tool_call', status, call_id: call.id, ...named, input: customInput(call.arguments)};
	if (declared?.kind === 'local_shell') return {id: itemId ?? newItemId('lsh'), type: 'local_shell_call', status, call_id: call.id, action: shellAction(call.arguments)};
	return {id: itemId ?? newItemId('fc'), type: 'function_call', status, arguments: call.arguments, call_id: call.id, ...named};
}

/** Tool-call signatures (Gemini's) have no slot on a function call: remembered by call id, recalled when the call comes back. */
export function keepCallSignature(callId: string, signature: IRSignature | undefined): void {
	if (signature && signature.format !== 'openai') rememberToolCallSignature(callId, signature);
}

/** A whole answer's parts → output items (non-streaming). Consecutive text parts form one message. */
export function encodeResponsesOutput(parts: IRResponse['parts'], kinds: ToolKinds, ctx: TranslationContext): OutputItem[] {
	const items: OutputItem[] = [];
	let message: MessageItem | undefined;
	for (const part of parts) {
		if (part.type !== 'text') message = undefined;
		switch (part.type) {
			case 'text':
				if (part.signature?.value) ctx.warn(`Dropped a ${part.signature.format} signature on answer text: the Responses API has no field for it.`);
				if (message) message.content[0]!.text += part.text;
				else items.push((message = messageItem(newItemId('msg'), part.text, 'completed')));
				break;
			case 'reasoning':
				if (part.redacted) ctx.warn('Dropped redacted reasoning: the Responses API cannot show it.');
				items.push(reasoningItem(newItemId('rs'), part.text, part.signature));
				break;
			case 'tool_call':
				keepCallSignature(part.id, part.signature);
				items.push(callItem(part, kinds, undefined, 'completed'));
				break;
			default:
				assertNever(part, 'response part');
		}
	}
	return items;
}
