/**
 * IR answer parts → Responses output items: `message`, `reasoning`, `function_call`, and for tools the
 * client declared as `custom` or `local_shell`, the `custom_tool_call` / `local_shell_call` they produce.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-output
 */
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRCitation, type IRResponse, type IRSignature, type IRToolCallPart, type JsonObject} from '../../base/ir.js';
import {wrapSignature} from '../signature.js';
import type {ToolKinds} from './decode-responses-tools.js';
import {newItemId} from './ids.js';
import {isWireObject, parseJson} from '../wire.js';
import {type ItemStatus, type MessageItem, type OutputItem, type ReasoningItem, type UrlCitation} from './schema.js';

export function messageItem(id: string, text: string, status: ItemStatus, annotations: UrlCitation[] = []): MessageItem {
	return {id, type: 'message', status, content: [{type: 'output_text', text, annotations, logprobs: []}], role: 'assistant'};
}

/**
 * IR citation → `url_citation` annotation over [offset, offset + length) of the message text (a
 * citation without a range, as Anthropic's, spans its whole text part).
 * @see https://platform.openai.com/docs/guides/tools-web-search?api-mode=responses#output-and-citations
 */
export function encodeUrlCitation(citation: IRCitation, offset: number, length: number): UrlCitation {
	return {type: 'url_citation', url: citation.url, title: citation.title ?? citation.url, start_index: offset + (citation.start ?? 0), end_index: offset + (citation.end ?? length)};
}

/** `encrypted_content` is the only signature slot: a foreign signature goes in wrapped, and comes back to its provider. */
export function reasoningItem(id: string, text: string, signature: IRSignature | undefined): ReasoningItem {
	const encrypted = signature && signature.value !== '' ? wrapSignature(signature, 'openai') : null;
	return {id, type: 'reasoning', summary: text ? [{type: 'summary_text', text}] : [], encrypted_content: encrypted};
}

/** A custom tool's raw text: the `input` the model put in the stand-in function's arguments. */
export function customInput(json: string): string {
	const args = parseJson(json);
	if (isWireObject(args) && typeof args.input === 'string') return args.input;
	return typeof args === 'string' ? args : json;
}

function shellAction(json: string): JsonObject {
	const args = parseJson(json);
	const value = isWireObject(args) ? args : {};
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
export function keepCallSignature(callId: string, signature: IRSignature | undefined, ctx: TranslationContext): void {
	if (signature && signature.format !== 'openai') ctx.signatures.remember(callId, signature);
}

function appendText(message: MessageItem, text: string, citations: readonly IRCitation[]): void {
	const content = message.content[0]!;
	content.annotations.push(...citations.map(citation => encodeUrlCitation(citation, content.text.length, text.length)));
	content.text += text;
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
				if (!message) items.push((message = messageItem(newItemId('msg'), '', 'completed')));
				appendText(message, part.text, part.citations ?? []);
				break;
			case 'reasoning':
				if (part.redacted) ctx.warn('Dropped redacted reasoning: the Responses API cannot show it.');
				items.push(reasoningItem(newItemId('rs'), part.text, part.signature));
				break;
			case 'tool_call':
				keepCallSignature(part.id, part.signature, ctx);
				items.push(callItem(part, kinds, undefined, 'completed'));
				break;
			default:
				assertNever(part, 'response part');
		}
	}
	return items;
}
