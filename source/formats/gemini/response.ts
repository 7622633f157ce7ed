/**
 * A non-streaming Gemini `GenerateContentResponse` ↔ the IR response.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
import type {EncodeResponseOptions, TranslationContext} from '../adapter.js';
import {assertNever, type IRResponse, type JsonObject} from '../../base/ir.js';
import {unwrapSignature, wrapSignature} from '../signature.js';
import {GatewayError} from '../../base/errors.js';
import {decodeGeminiError} from './errors.js';
import {generateResponseId, generateToolCallId} from './ids.js';
import {mapGeminiFinishReason, toGeminiFinishReason} from './map-gemini-finish-reason.js';
import {decodeGeminiUsage, encodeGeminiUsage} from './map-gemini-usage.js';
import {compact, isRecord, pick, pickArray, pickNumber, pickRecord, pickString, readParts, type GeminiPartIn, type UnknownRecord} from './schema.js';

type AnswerPart = IRResponse['parts'][number];

/** The first candidate: the gateway never asks for more than one. */
export function firstCandidate(body: UnknownRecord): UnknownRecord | undefined {
	const candidate = pickArray(body, 'candidates')?.[0];
	return isRecord(candidate) ? candidate : undefined;
}

/** A prompt refused by the safety filter arrives as a 200 with `promptFeedback.blockReason` and no candidates. */
export function promptBlockReason(body: UnknownRecord): string | undefined {
	const feedback = pickRecord(body, 'promptFeedback');
	return feedback ? pickString(feedback, 'blockReason') : undefined;
}

/**
 * Gemini 3 sends the signature of a text answer on a trailing part with empty text; it belongs to
 * the text before it, so it is attached there (a part keeps at most one signature).
 */
function convertAnswerPart(part: GeminiPartIn, previous: AnswerPart | undefined): AnswerPart | 'merged' | undefined {
	const signature = part.thoughtSignature === undefined ? undefined : unwrapSignature(part.thoughtSignature, 'gemini');
	const signed = signature ? {signature} : {};
	if (part.functionCall?.name) {
		const {id, name, args} = part.functionCall;
		return {type: 'tool_call', id: id ?? generateToolCallId(), name, arguments: JSON.stringify(args), ...signed};
	}
	if (part.text === undefined) return undefined;
	const type = part.thought ? 'reasoning' : 'text';
	if (part.text === '' && signature && previous?.type === type && !previous.signature) return 'merged';
	if (part.text === '' && !signature) return undefined;
	return {type, text: part.text, ...signed};
}

export function decodeGeminiAnswerParts(parts: readonly GeminiPartIn[], ctx: TranslationContext): AnswerPart[] {
	const out: AnswerPart[] = [];
	for (const part of parts) {
		const converted = convertAnswerPart(part, out.at(-1));
		if (converted === 'merged') {
			const previous = out.pop()!;
			out.push({...previous, signature: unwrapSignature(part.thoughtSignature!, 'gemini')});
		} else if (converted) out.push(converted);
		else if (part.inlineData || part.fileData) ctx.warn('Dropped media the model generated: only text, thoughts and function calls translate.');
	}
	return out;
}

export function decodeGeminiResponse(body: unknown, ctx: TranslationContext): IRResponse {
	if (!isRecord(body)) throw new GatewayError('upstream', 502, 'Gemini answered with a body that is not a GenerateContentResponse.');
	const error = pickRecord(body, 'error');
	if (error) throw GatewayError.from(decodeGeminiError(pickNumber(error, 'code') ?? 502, body));
	const candidate = firstCandidate(body);
	const parts = decodeGeminiAnswerParts(readParts(candidate ? pick(candidate, 'content') : undefined), ctx);
	const hasCalls = parts.some(part => part.type === 'tool_call');
	const finishReason = candidate
		? mapGeminiFinishReason(pickString(candidate, 'finishReason'), hasCalls)
		: promptBlockReason(body) ? 'content_filter' : 'other';
	return {
		id: pickString(body, 'responseId') ?? generateResponseId(),
		model: pickString(body, 'modelVersion') ?? '',
		parts,
		finishReason,
		usage: decodeGeminiUsage(pick(body, 'usageMetadata')),
	};
}

/** One IR answer part → a Gemini part; signatures of other formats ride in `thoughtSignature`, wrapped. */
export function encodeGeminiAnswerPart(part: AnswerPart, ctx: TranslationContext): JsonObject | undefined {
	const thoughtSignature = part.signature ? wrapSignature(part.signature, 'gemini') : undefined;
	switch (part.type) {
		case 'text':
			return compact({text: part.text, thoughtSignature});
		case 'reasoning':
			if (part.redacted !== undefined && part.text === '') {
				ctx.warn('Dropped a redacted reasoning block: a Gemini client has no slot for its encrypted data.');
				return undefined;
			}
			return compact({text: part.text, thought: true, thoughtSignature});
		case 'tool_call':
			return compact({functionCall: {id: part.id, name: part.name, args: parseArgs(part.arguments)}, thoughtSignature});
		default:
			return assertNever(part, 'answer part');
	}
}

/** Arguments cut off by the token limit are not valid JSON; the client still gets an object. */
export function parseArgs(json: string): JsonObject {
	try {
		const value: unknown = JSON.parse(json === '' ? '{}' : json);
		return isRecord(value) ? (value as JsonObject) : {};
	} catch {
		return {};
	}
}

export function encodeGeminiResponse(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): JsonObject {
	const parts = response.parts.map(part => encodeGeminiAnswerPart(part, ctx)).filter((part): part is JsonObject => part !== undefined);
	return {
		candidates: [{content: {role: 'model', parts}, finishReason: toGeminiFinishReason(response.finishReason), index: 0}],
		usageMetadata: encodeGeminiUsage(response.usage),
		modelVersion: options.model,
		responseId: response.id,
	};
}
