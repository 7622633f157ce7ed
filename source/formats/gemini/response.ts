/**
 * A non-streaming Gemini `GenerateContentResponse` ↔ the IR response.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
import type {EncodeResponseOptions, TranslationContext} from '../adapter.js';
import {assertNever, type IRCitation, type IRResponse, type IRTextPart, type JsonObject} from '../../base/ir.js';
import {unwrapSignature, wrapSignature} from '../signature.js';
import {GatewayError} from '../../base/errors.js';
import {decodeToolInput} from '../decode-tool-input.js';
import {decodeGeminiError} from './errors.js';
import {decodeGeminiGrounding, encodeGeminiGrounding, joinCitations} from './map-gemini-grounding.js';
import {generateResponseId, generateToolCallId} from './ids.js';
import {mapGeminiFinishReason, toGeminiFinishReason} from './map-gemini-finish-reason.js';
import {decodeGeminiUsage, encodeGeminiUsage} from './map-gemini-usage.js';
import {compact, isWireObject, type WireObject} from '../wire.js';
import {pick, pickArray, pickNumber, pickRecord, pickString, readParts, type GeminiPartIn} from './schema.js';

type AnswerPart = IRResponse['parts'][number];

/** The first candidate: the gateway never asks for more than one. */
export function firstCandidate(body: WireObject): WireObject | undefined {
	const candidate = pickArray(body, 'candidates')?.[0];
	return isWireObject(candidate) ? candidate : undefined;
}

/** A prompt refused by the safety filter arrives as a 200 with `promptFeedback.blockReason` and no candidates. */
export function promptBlockReason(body: WireObject): string | undefined {
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

/** Grounding sources become citations on the text part each cited segment starts in. */
function attachGrounding(parts: AnswerPart[], metadata: unknown): AnswerPart[] {
	const texts = parts.filter((part): part is IRTextPart => part.type === 'text');
	const citations = decodeGeminiGrounding(metadata, texts.map(part => part.text).join(''));
	if (citations.length === 0) return parts;
	const cited = new Map<IRTextPart, IRCitation[]>();
	let offset = 0;
	const ranges = texts.map(part => ({part, start: offset, end: (offset += part.text.length)}));
	for (const citation of citations) {
		const at = citation.start ?? 0;
		const range = ranges.find(item => at >= item.start && at < item.end) ?? ranges.at(-1);
		if (!range) continue;
		const relative = citation.start === undefined ? citation : {...citation, start: at - range.start, end: Math.min(citation.end ?? range.end, range.end) - range.start};
		cited.set(range.part, [...(cited.get(range.part) ?? []), relative]);
	}
	return parts.map(part => (part.type === 'text' && cited.has(part) ? {...part, citations: cited.get(part)!} : part));
}

export function decodeGeminiResponse(body: unknown, ctx: TranslationContext): IRResponse {
	if (!isWireObject(body)) throw new GatewayError('upstream', 502, 'Gemini answered with a body that is not a GenerateContentResponse.');
	const error = pickRecord(body, 'error');
	if (error) throw GatewayError.from(decodeGeminiError(pickNumber(error, 'code') ?? 502, body));
	const candidate = firstCandidate(body);
	const decoded = decodeGeminiAnswerParts(readParts(candidate ? pick(candidate, 'content') : undefined), ctx);
	const parts = candidate ? attachGrounding(decoded, pick(candidate, 'groundingMetadata')) : decoded;
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
			return compact({functionCall: {id: part.id, name: part.name, args: decodeToolInput(part.arguments, part.id, ctx)}, thoughtSignature});
		default:
			return assertNever(part, 'answer part');
	}
}

export function encodeGeminiResponse(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): JsonObject {
	const parts = response.parts.map(part => encodeGeminiAnswerPart(part, ctx)).filter((part): part is JsonObject => part !== undefined);
	const {text, citations} = joinCitations(response.parts.filter((part): part is IRTextPart => part.type === 'text'));
	const groundingMetadata = encodeGeminiGrounding(citations, text);
	return {
		candidates: [compact({content: {role: 'model', parts}, finishReason: toGeminiFinishReason(response.finishReason), index: 0, groundingMetadata})],
		usageMetadata: encodeGeminiUsage(response.usage),
		modelVersion: options.model,
		responseId: response.id,
	};
}
