/**
 * IR messages → Gemini `contents`: roles user/model, consecutive same-role turns merged (Gemini
 * wants them alternating), images inline, tool results as `functionResponse` parts that carry the
 * function name (taken from the tool result, else from the earlier call with that id).
 * @see https://ai.google.dev/api/caching#Content
 * @see https://ai.google.dev/gemini-api/docs/function-calling#multimodal
 */
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRMessage, type IRPart, type IRToolResultPart, type JsonObject} from '../../base/ir.js';
import {invalidRequest} from '../../base/errors.js';
import {encodeGeminiImage} from './encode-gemini-image.js';
import {encodeGeminiModelPart, injectSkipSignatures} from './encode-gemini-model-part.js';
import {isGemini3, isLegacyGemini} from './model-family.js';

type Turn = {readonly role: 'user' | 'model'; readonly parts: JsonObject[]};

/**
 * A user message's tool results in the order of the calls they answer (the last model turn's):
 * Gemini pairs a turn of parallel functionCalls with one content whose functionResponse parts follow
 * the same order. Other parts keep their places.
 * @see https://ai.google.dev/gemini-api/docs/function-calling#parallel_function_calling
 */
function inCallOrder(parts: readonly IRPart[], callOrder: ReadonlyMap<string, number>): readonly IRPart[] {
	const rank = (part: IRToolResultPart) => callOrder.get(part.toolCallId) ?? callOrder.size;
	const results = parts.filter((part): part is IRToolResultPart => part.type === 'tool_result').sort((a, b) => rank(a) - rank(b));
	let next = 0;
	return parts.map(part => (part.type === 'tool_result' ? results[next++]! : part));
}

export async function encodeGeminiContents(messages: readonly IRMessage[], model: string, ctx: TranslationContext): Promise<JsonObject[]> {
	const names = new Map<string, string>();
	const turns: Turn[] = [];
	let callOrder = new Map<string, number>();
	for (const message of messages) {
		const role = message.role === 'assistant' ? 'model' : 'user';
		const parts: JsonObject[] = [];
		const calls = message.parts.flatMap(part => (part.type === 'tool_call' ? [part.id] : []));
		if (calls.length > 0) callOrder = new Map(calls.map((id, index) => [id, index]));
		for (const part of role === 'user' ? inCallOrder(message.parts, callOrder) : message.parts) {
			if (part.type === 'tool_call') names.set(part.id, part.name);
			parts.push(...(role === 'model' ? await encodeGeminiModelPart(part, ctx) : await convertUserPart(part, names, model, ctx)));
		}
		if (parts.length === 0) continue;
		const last = turns.at(-1);
		if (last?.role === role) last.parts.push(...parts);
		else turns.push({role, parts});
	}
	if (!isLegacyGemini(model)) injectSkipSignatures(turns, ctx);
	return turns.map(turn => ({role: turn.role, parts: turn.parts}));
}

async function convertUserPart(part: IRPart, names: ReadonlyMap<string, string>, model: string, ctx: TranslationContext): Promise<JsonObject[]> {
	switch (part.type) {
		case 'text':
			return part.text === '' ? [] : [{text: part.text}];
		case 'image':
			return [await encodeGeminiImage(part.source, ctx)];
		case 'tool_result':
			return convertToolResult(part, names, model, ctx);
		case 'tool_call':
		case 'reasoning':
			ctx.warn(`Dropped a ${part.type} part from a user turn: Gemini accepts it only in model turns.`);
			return [];
		default:
			return assertNever(part, 'message part');
	}
}

/**
 * `response` must be an object: Google's convention is `{"output": …}` or `{"error": …}`. Images in
 * a result go inside `functionResponse.parts` on Gemini 3 (multimodal function responses); older
 * models only take them as sibling parts right after the response, as Gemini CLI sends them.
 */
async function convertToolResult(part: IRToolResultPart, names: ReadonlyMap<string, string>, model: string, ctx: TranslationContext): Promise<JsonObject[]> {
	const name = part.name ?? names.get(part.toolCallId);
	if (!name) {
		throw invalidRequest(
			`The tool result for call "${part.toolCallId}" answers no earlier tool call in this conversation; Gemini needs the function name. Send the assistant turn with that tool call too.`,
		);
	}
	const text = part.content.flatMap(item => (item.type === 'text' ? [item.text] : [])).join('\n');
	const media: JsonObject[] = [];
	for (const item of part.content) if (item.type === 'image') media.push(await encodeGeminiImage(item.source, ctx));
	const response: JsonObject = {
		id: part.toolCallId,
		name,
		response: part.isError ? {error: text} : {output: text},
	};
	if (media.length === 0) return [{functionResponse: response}];
	if (isGemini3(model)) return [{functionResponse: {...response, parts: media}}];
	return [{functionResponse: response}, ...media];
}
