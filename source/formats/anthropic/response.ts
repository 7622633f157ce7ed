/**
 * Non-streaming Messages answers: upstream wire → IR, and IR → what an Anthropic client expects.
 * @see https://docs.anthropic.com/en/api/messages#response-content
 */
import type {EncodeResponseOptions, TranslationContext} from '../adapter.js';
import {assertNever, isPlainText, type IRResponse, type IRTextPart, type JsonValue} from '../../base/ir.js';
import {wrapSignature} from '../signature.js';
import {GatewayError} from '../../base/errors.js';
import {decodeAnthropicStopReason, encodeAnthropicStopReason} from './map-anthropic-finish-reason.js';
import {decodeAnthropicUsage, encodeAnthropicUsage, encodeAnthropicUsageText} from './map-anthropic-usage.js';
import {decodeToolInput} from '../decode-tool-input.js';
import {decodeAnthropicCitations, encodeAnthropicCitation} from './map-anthropic-citations.js';
import {isWireObject, asString, toJsonValue, type WireObject} from '../wire.js';
import type {AnthropicAnswerBlock, AnthropicResponseBody} from './schema.js';
import {toMessageId} from './ids.js';

type AnswerPart = IRResponse['parts'][number];

export function decodeAnthropicResponse(body: unknown, ctx: TranslationContext): IRResponse {
	if (!isWireObject(body) || !Array.isArray(body.content)) throw new GatewayError('upstream', 502, 'Anthropic answered without a message "content" array.');
	const parts: AnswerPart[] = [];
	for (const block of body.content) {
		const part = isWireObject(block) ? decodeAnswerBlock(block, ctx) : undefined;
		if (part) parts.push(part);
	}
	const stopSequence = asString(body.stop_sequence);
	const id = asString(body.id) ?? '';
	const model = asString(body.model) ?? '';
	const finishReason = decodeAnthropicStopReason(body.stop_reason);
	const usage = decodeAnthropicUsage(body.usage);
	// Two literals, not a spread in the middle of one: keys after a spread take V8's slow path.
	return stopSequence === undefined ? {id, model, parts, finishReason, usage} : {id, model, parts, finishReason, stopSequence, usage};
}

/** One answer block (response `content` item or stream `content_block_start`) → IR part. */
export function decodeAnswerBlock(block: WireObject, ctx: TranslationContext): AnswerPart | undefined {
	switch (block.type) {
		case 'text': {
			const citations = decodeAnthropicCitations(block.citations, ctx);
			return {type: 'text', text: asString(block.text) ?? '', ...(citations.length > 0 ? {citations} : {})};
		}
		case 'thinking': {
			const signature = asString(block.signature);
			return {type: 'reasoning', text: asString(block.thinking) ?? '', ...(signature ? {signature: {format: 'anthropic' as const, value: signature}} : {})};
		}
		case 'redacted_thinking':
			return {type: 'reasoning', text: '', redacted: asString(block.data) ?? ''};
		case 'tool_use':
			return {type: 'tool_call', id: asString(block.id) ?? '', name: asString(block.name) ?? '', arguments: JSON.stringify(block.input ?? {})};
		default:
			// Server-tool blocks (server_tool_use, web_search_tool_result …) only make sense to Anthropic clients.
			ctx.warn(`Anthropic answered with a "${String(block.type)}" block, which cannot be translated; dropped.`);
			return undefined;
	}
}

/** Always false: says what the dropped empty text carried. */
function dropEmptyText(part: IRTextPart, ctx: TranslationContext): boolean {
	if (part.signature) ctx.warn(`A ${part.signature.format} signature on answer text was dropped: Anthropic text blocks have no slot for it.`);
	return false;
}

/**
 * `JSON.stringify(encodeAnthropicResponse(…))`, the same text, written without building and walking
 * the object when the answer is plain text (no signatures, citations, reasoning or tool calls): the
 * answer of a translated request an Anthropic client makes without streaming. Anything else is the
 * object's.
 */
export function encodeAnthropicResponseText(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): string {
	let content = '';
	for (const part of response.parts) {
		if (!isPlainText(part)) return JSON.stringify(encodeAnthropicResponse(response, options, ctx));
		// No empty text blocks, as encodeAnthropicResponse (a signature on one is the slow path above).
		if (part.text !== '') content += `${content === '' ? '' : ','}{"type":"text","text":${JSON.stringify(part.text)}}`;
	}
	const id = toMessageId(response.id);
	const stopSequence = response.stopSequence === undefined ? 'null' : JSON.stringify(response.stopSequence);
	return `{"id":${JSON.stringify(id)},"type":"message","role":"assistant","model":${JSON.stringify(options.model)},"content":[${content}],"stop_reason":"${encodeAnthropicStopReason(response.finishReason)}","stop_sequence":${stopSequence},"usage":${encodeAnthropicUsageText(response.usage)}}`;
}

export function encodeAnthropicResponse(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): JsonValue {
	const body: AnthropicResponseBody = {
		id: toMessageId(response.id),
		type: 'message',
		role: 'assistant',
		model: options.model,
		// No empty text blocks (a Gemini answer's closing signature part): the client would send them back, and Anthropic rejects them.
		content: response.parts.filter(part => part.type !== 'text' || part.text !== '' || dropEmptyText(part, ctx)).map(part => encodeAnswerPart(part, ctx)),
		stop_reason: encodeAnthropicStopReason(response.finishReason),
		stop_sequence: response.stopSequence ?? null,
		usage: encodeAnthropicUsage(response.usage),
	};
	return toJsonValue(body);
}

/**
 * Signatures reach the client wrapped when foreign (`gtui1.gemini.…`) so they come back to their maker;
 * tool_use has no slot, so a tool call's signature is remembered by its id instead.
 */
export function encodeAnswerPart(part: AnswerPart, ctx: TranslationContext): AnthropicAnswerBlock {
	switch (part.type) {
		case 'text':
			if (part.signature) ctx.warn(`A ${part.signature.format} signature on answer text was dropped: Anthropic text blocks have no slot for it.`);
			return {type: 'text', text: part.text, ...(part.citations?.length ? {citations: part.citations.map(encodeAnthropicCitation)} : {})};
		case 'reasoning':
			if (part.redacted !== undefined) return {type: 'redacted_thinking', data: part.redacted};
			return {type: 'thinking', thinking: part.text, signature: part.signature ? wrapSignature(part.signature, 'anthropic') : ''};
		case 'tool_call':
			if (part.signature) ctx.signatures.remember(part.id, part.signature);
			return {type: 'tool_use', id: part.id, name: part.name, input: decodeToolInput(part.arguments, part.id, ctx)};
		default:
			return assertNever(part, 'answer part');
	}
}
