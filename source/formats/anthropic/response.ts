/**
 * Non-streaming Messages answers: upstream wire → IR, and IR → what an Anthropic client expects.
 * @see https://docs.anthropic.com/en/api/messages#response-content
 */
import type {EncodeResponseOptions, TranslationContext} from '../adapter.js';
import {assertNever, type IRResponse, type JsonValue} from '../../base/ir.js';
import {rememberToolCallSignature, wrapSignature} from '../signature.js';
import {GatewayError} from '../../base/errors.js';
import {decodeAnthropicStopReason, encodeAnthropicStopReason} from './map-anthropic-finish-reason.js';
import {decodeAnthropicUsage, encodeAnthropicUsage} from './map-anthropic-usage.js';
import {parseToolInput} from './parse-tool-input.js';
import {isRecord, readString, toJsonValue, type AnthropicAnswerBlock, type AnthropicResponseBody, type WireRecord} from './schema.js';

type AnswerPart = IRResponse['parts'][number];

export function decodeAnthropicResponse(body: unknown, ctx: TranslationContext): IRResponse {
	if (!isRecord(body) || !Array.isArray(body.content)) throw new GatewayError('upstream', 502, 'Anthropic answered without a message "content" array.');
	const parts: AnswerPart[] = [];
	for (const block of body.content) {
		const part = isRecord(block) ? decodeAnswerBlock(block, ctx) : undefined;
		if (part) parts.push(part);
	}
	const stopSequence = readString(body.stop_sequence);
	return {
		id: readString(body.id) ?? '',
		model: readString(body.model) ?? '',
		parts,
		finishReason: decodeAnthropicStopReason(body.stop_reason),
		...(stopSequence === undefined ? {} : {stopSequence}),
		usage: decodeAnthropicUsage(body.usage),
	};
}

/** One answer block (response `content` item or stream `content_block_start`) → IR part. */
export function decodeAnswerBlock(block: WireRecord, ctx: TranslationContext): AnswerPart | undefined {
	switch (block.type) {
		case 'text':
			return {type: 'text', text: readString(block.text) ?? ''};
		case 'thinking': {
			const signature = readString(block.signature);
			return {type: 'reasoning', text: readString(block.thinking) ?? '', ...(signature ? {signature: {format: 'anthropic' as const, value: signature}} : {})};
		}
		case 'redacted_thinking':
			return {type: 'reasoning', text: '', redacted: readString(block.data) ?? ''};
		case 'tool_use':
			return {type: 'tool_call', id: readString(block.id) ?? '', name: readString(block.name) ?? '', arguments: JSON.stringify(block.input ?? {})};
		default:
			// Server-tool blocks (server_tool_use, web_search_tool_result …) only make sense to Anthropic clients.
			ctx.warn(`Anthropic answered with a "${String(block.type)}" block, which cannot be translated; dropped.`);
			return undefined;
	}
}

export function encodeAnthropicResponse(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): JsonValue {
	const body: AnthropicResponseBody = {
		id: response.id || `msg_${Date.now().toString(36)}`,
		type: 'message',
		role: 'assistant',
		model: options.model,
		content: response.parts.map(part => encodeAnswerPart(part, ctx)),
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
			return {type: 'text', text: part.text};
		case 'reasoning':
			if (part.redacted !== undefined) return {type: 'redacted_thinking', data: part.redacted};
			return {type: 'thinking', thinking: part.text, signature: part.signature ? wrapSignature(part.signature, 'anthropic') : ''};
		case 'tool_call':
			if (part.signature) rememberToolCallSignature(part.id, part.signature);
			return {type: 'tool_use', id: part.id, name: part.name, input: parseToolInput(part.arguments, part.id, ctx)};
		default:
			return assertNever(part, 'answer part');
	}
}
