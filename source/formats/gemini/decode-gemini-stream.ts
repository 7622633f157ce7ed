/**
 * Gemini `streamGenerateContent?alt=sse` → IR stream events.
 *
 * Each `data:` frame is a whole GenerateContentResponse holding the next piece; there is no [DONE],
 * the stream ends after the frame with `finishReason`. Text and thoughts arrive in pieces and stay
 * one open block until another kind of part (or a signature) arrives; a functionCall arrives whole
 * and becomes a complete block. `usageMetadata` is cumulative, so the last one counts.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures#streaming
 */
import type {TranslationContext} from '../adapter.js';
import type {IRError, IRStreamEvent, IRUsage} from '../../base/ir.js';
import type {SseMessage} from '../sse.js';
import {unwrapSignature} from '../signature.js';
import {decodeGeminiError} from './errors.js';
import {generateResponseId, generateToolCallId} from './ids.js';
import {mapGeminiFinishReason} from './map-gemini-finish-reason.js';
import {decodeGeminiUsage} from './map-gemini-usage.js';
import {firstCandidate, promptBlockReason} from './response.js';
import {isRecord, pick, pickNumber, pickRecord, pickString, readParts, type GeminiPartIn, type UnknownRecord} from './schema.js';

type OpenBlock = {readonly index: number; readonly kind: 'text' | 'reasoning'; signed: boolean};
type Frame = {readonly frame: UnknownRecord} | {readonly failure: IRError};

const upstreamFailure = (message: string): IRError => ({kind: 'upstream', status: 502, message});

function parseFrame(data: string): UnknownRecord | 'empty' | 'invalid' {
	if (data.trim() === '') return 'empty';
	try {
		const value: unknown = JSON.parse(data);
		return isRecord(value) ? value : 'invalid';
	} catch {
		return 'invalid';
	}
}

/** SSE messages → parsed frames, ending at the first error frame, unparsable frame or broken connection. */
async function* readFrames(messages: AsyncIterable<SseMessage>): AsyncGenerator<Frame> {
	try {
		for await (const message of messages) {
			const frame = parseFrame(message.data);
			if (frame === 'empty') continue;
			if (frame === 'invalid') {
				yield {failure: upstreamFailure(`Gemini sent a stream frame that is not a JSON object: ${message.data.slice(0, 200)}`)};
				return;
			}
			const error = pickRecord(frame, 'error');
			if (error) {
				yield {failure: decodeGeminiError(pickNumber(error, 'code') ?? 500, frame)};
				return;
			}
			yield {frame};
		}
	} catch (error) {
		yield {failure: upstreamFailure(`The Gemini stream broke off: ${error instanceof Error ? error.message : String(error)}`)};
	}
}

/** A functionCall arrives whole: one complete block. */
function functionCallEvents(part: GeminiPartIn, index: number): IRStreamEvent[] {
	const {id, name = '', args = {}} = part.functionCall ?? {};
	return [
		{type: 'block-start', index, block: {kind: 'tool_call', id: id ?? generateToolCallId(), name}},
		{type: 'tool-args-delta', index, json: JSON.stringify(args)},
		...(part.thoughtSignature ? [{type: 'signature', index, signature: unwrapSignature(part.thoughtSignature, 'gemini')} as const] : []),
		{type: 'block-end', index},
	];
}

export async function* decodeGeminiStream(messages: AsyncIterable<SseMessage>, ctx: TranslationContext): AsyncGenerator<IRStreamEvent> {
	let started = false;
	let nextIndex = 0;
	let open: OpenBlock | undefined;
	let hasCalls = false;
	let usage: IRUsage = {inputTokens: 0, outputTokens: 0};
	let finishReason: string | undefined;
	let blocked = false;

	function* closeOpen(): Generator<IRStreamEvent> {
		if (open) yield {type: 'block-end', index: open.index};
		open = undefined;
	}

	function* onText(part: GeminiPartIn, text: string): Generator<IRStreamEvent> {
		const kind = part.thought ? 'reasoning' : 'text';
		if (text === '' && !part.thoughtSignature) return;
		// A signature-only part with empty text signs the block before it (Gemini 3 sends one last).
		if (!open || open.kind !== kind || open.signed) {
			yield* closeOpen();
			open = {index: nextIndex++, kind, signed: false};
			yield {type: 'block-start', index: open.index, block: {kind}};
		}
		if (text !== '') yield {type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index: open.index, text};
		if (part.thoughtSignature) {
			yield {type: 'signature', index: open.index, signature: unwrapSignature(part.thoughtSignature, 'gemini')};
			open.signed = true;
		}
	}

	function* onFrame(frame: UnknownRecord): Generator<IRStreamEvent> {
		if (!started) {
			started = true;
			yield {type: 'start', id: pickString(frame, 'responseId') ?? generateResponseId(), model: pickString(frame, 'modelVersion') ?? ''};
		}
		const candidate = firstCandidate(frame);
		for (const part of readParts(candidate ? pick(candidate, 'content') : undefined)) {
			// Nameless functionCall fragments are Vertex's streamed arguments, which this gateway never asks for.
			if (part.functionCall?.name) {
				yield* closeOpen();
				hasCalls = true;
				yield* functionCallEvents(part, nextIndex++);
			} else if (part.text !== undefined) yield* onText(part, part.text);
			else if (part.inlineData || part.fileData) ctx.warn('Dropped media the model generated: only text, thoughts and function calls translate.');
		}
		const metadata = pick(frame, 'usageMetadata');
		if (isRecord(metadata)) {
			usage = decodeGeminiUsage(metadata);
			yield {type: 'usage', usage};
		}
		finishReason = (candidate ? pickString(candidate, 'finishReason') : undefined) ?? finishReason;
		blocked ||= promptBlockReason(frame) !== undefined;
	}

	for await (const item of readFrames(messages)) {
		if ('failure' in item) {
			yield* closeOpen();
			yield {type: 'error', error: item.failure};
			return;
		}
		yield* onFrame(item.frame);
	}
	yield* closeOpen();
	if (finishReason === undefined && !blocked) {
		yield {type: 'error', error: upstreamFailure('The Gemini stream ended without a finishReason; the answer is incomplete.')};
		return;
	}
	const reason = finishReason === undefined ? 'content_filter' : mapGeminiFinishReason(finishReason, hasCalls);
	yield {type: 'finish', reason, usage};
}
