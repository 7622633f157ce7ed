/**
 * Non-streaming chat completions answers: upstream wire → IR, and IR → the client's wire.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
import {GatewayError} from '../../base/errors.js';
import type {EncodeResponseOptions, TranslationContext} from '../adapter.js';
import {assertNever, type IRResponse, type IRToolCallPart, type JsonObject, type JsonValue} from '../../base/ir.js';
import {rememberToolCallSignature} from '../signature.js';
import {convertOpenaiUsage, toOpenaiUsage} from './convert-openai-usage.js';
import {decodeOpenaiError} from './errors.js';
import {newResponseId, newToolCallId, toChatCompletionId} from './ids.js';
import {mapOpenaiFinishReason, toOpenaiFinishReason} from './map-openai-finish-reason.js';
import {argumentsText, arrayField, compact, isObject, objectField, stringField, type WireObject} from './schema.js';

type ResponsePart = IRResponse['parts'][number];

const upstreamError = (message: string): GatewayError => new GatewayError('upstream', 502, message);

/** Some compatible servers (Mistral) answer `content` as an array of text chunks. */
function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return content.map(part => (isObject(part) && part.type === 'text' ? stringField(part, 'text') ?? '' : '')).join('');
}

function decodeToolCalls(message: WireObject): IRToolCallPart[] {
	return (arrayField(message, 'tool_calls') ?? []).flatMap(call => {
		const fn = isObject(call) ? objectField(call, 'function') : undefined;
		const name = fn && stringField(fn, 'name');
		if (!isObject(call) || !fn || !name) return [];
		return [{type: 'tool_call', id: stringField(call, 'id') || newToolCallId(), name, arguments: argumentsText(fn.arguments)} as const];
	});
}

function decodeMessageParts(message: WireObject): {parts: ResponsePart[]; refused: boolean} {
	const parts: ResponsePart[] = [];
	const reasoning = stringField(message, 'reasoning_content') || stringField(message, 'reasoning');
	if (reasoning) parts.push({type: 'reasoning', text: reasoning});
	const text = contentText(message.content);
	if (text) parts.push({type: 'text', text});
	const refusal = stringField(message, 'refusal');
	if (refusal) parts.push({type: 'text', text: refusal});
	parts.push(...decodeToolCalls(message));
	return {parts, refused: Boolean(refusal)};
}

/**
 * Upstream answer → IR. An `error` object in a 200 answer (some compatible servers do this) is an error.
 * A `refusal` (Structured Outputs) finishes as `refusal`.
 */
export function decodeOpenaiResponse(body: unknown): IRResponse {
	if (!isObject(body)) throw upstreamError('The OpenAI-compatible upstream answered with something that is not a JSON object.');
	if (isObject(body.error) || typeof body.error === 'string') throw GatewayError.from(decodeOpenaiError(200, body));
	const choice = arrayField(body, 'choices')?.[0];
	if (!isObject(choice)) throw upstreamError('The OpenAI-compatible upstream answered without any choice.');
	const {parts, refused} = decodeMessageParts(objectField(choice, 'message') ?? {});
	const reason = mapOpenaiFinishReason(choice.finish_reason);
	return {
		id: stringField(body, 'id') || newResponseId(),
		model: stringField(body, 'model') ?? '',
		parts,
		finishReason: refused && reason === 'stop' ? 'refusal' : reason,
		usage: convertOpenaiUsage(objectField(body, 'usage')),
	};
}

/** Signatures have no slot in OpenAI answers: tool-call ones are remembered by call id, the rest are lost (and said so). */
function encodeMessage(parts: readonly ResponsePart[], ctx: TranslationContext): JsonObject {
	const texts: string[] = [];
	const reasoning: string[] = [];
	const toolCalls: JsonObject[] = [];
	for (const part of parts) {
		switch (part.type) {
			case 'text':
				if (part.signature) ctx.warn(`Dropped a ${part.signature.format} signature on answer text: OpenAI chat completions has no field for it.`);
				texts.push(part.text);
				break;
			case 'reasoning':
				if (part.signature?.value) ctx.warn(`Dropped a ${part.signature.format} reasoning signature: OpenAI chat completions has no field for it.`);
				if (part.redacted) ctx.warn('Dropped redacted reasoning: OpenAI chat completions cannot show it.');
				if (part.text) reasoning.push(part.text);
				break;
			case 'tool_call':
				if (part.signature && part.signature.format !== 'openai') rememberToolCallSignature(part.id, part.signature);
				toolCalls.push({id: part.id, type: 'function', function: {name: part.name, arguments: part.arguments}});
				break;
			default:
				assertNever(part, 'response part');
		}
	}
	const entries: {[key: string]: JsonValue | undefined} = {
		role: 'assistant',
		content: texts.length > 0 ? texts.join('') : null,
		// DeepSeek's field for the reasoning text; clients that don't know it ignore it.
		reasoning_content: reasoning.length > 0 ? reasoning.join('\n\n') : undefined,
		refusal: null,
		tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
	};
	return compact(entries);
}

/** IR → the answer an OpenAI client expects, shaped like the real API's. */
export function encodeOpenaiResponse(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): JsonObject {
	const hasToolCalls = response.parts.some(part => part.type === 'tool_call');
	return {
		id: toChatCompletionId(response.id),
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: options.model,
		choices: [
			{
				index: 0,
				message: encodeMessage(response.parts, ctx),
				logprobs: null,
				finish_reason: toOpenaiFinishReason(response.finishReason, hasToolCalls),
			},
		],
		usage: toOpenaiUsage(response.usage),
	};
}
