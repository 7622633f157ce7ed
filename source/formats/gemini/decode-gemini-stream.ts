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
import {decodeWith, type StreamDecoder} from '../stream-steps.js';
import {unwrapSignature} from '../signature.js';
import {decodeGeminiError} from './errors.js';
import {generateResponseId, generateToolCallId} from './ids.js';
import {mapGeminiFinishReason} from './map-gemini-finish-reason.js';
import {decodeGeminiGrounding} from './map-gemini-grounding.js';
import {decodeGeminiUsage} from './map-gemini-usage.js';
import {firstCandidate, promptBlockReason} from './response.js';
import {isWireObject, parseJsonObject, type WireObject} from '../wire.js';
import {pick, pickNumber, pickRecord, pickString, readParts, type GeminiPartIn} from './schema.js';

type OpenBlock = {readonly index: number; readonly kind: 'text' | 'reasoning'; signed: boolean; text: string};

const upstreamFailure = (message: string): IRError => ({kind: 'upstream', status: 502, message});

/** What this decoder and the passthrough reader (read-gemini-stream.ts) say of a stream that cannot be read or ends too soon. */
export const geminiStreamProblems = {
	notJson: (data: string) => `Gemini sent a stream frame that is not a JSON object: ${data.slice(0, 200)}`,
	cutOff: 'The Gemini stream ended without a finishReason; the answer is incomplete.',
};

/** The provider's error, when a frame is one. */
export function frameError(frame: WireObject): IRError | undefined {
	const error = pickRecord(frame, 'error');
	return error ? decodeGeminiError(pickNumber(error, 'code') ?? 500, frame) : undefined;
}

function parseFrame(data: string): WireObject | 'empty' | 'invalid' {
	if (data.trim() === '') return 'empty';
	return parseJsonObject(data) ?? 'invalid';
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

/** The decoder's state: created per stream, never shared between streams. */
type State = {
	readonly ctx: TranslationContext;
	started: boolean;
	nextIndex: number;
	open?: OpenBlock;
	hasCalls: boolean;
	usage: IRUsage;
	finishReason?: string;
	blocked: boolean;
	grounded: boolean;
};

function closeOpen(state: State, out: IRStreamEvent[]): void {
	if (state.open) out.push({type: 'block-end', index: state.open.index});
	state.open = undefined;
}

function onText(state: State, part: GeminiPartIn, text: string, out: IRStreamEvent[]): void {
	const kind = part.thought ? 'reasoning' : 'text';
	if (text === '' && !part.thoughtSignature) return;
	// A signature-only part with empty text signs the block before it (Gemini 3 sends one last).
	if (!state.open || state.open.kind !== kind || state.open.signed) {
		closeOpen(state, out);
		state.open = {index: state.nextIndex++, kind, signed: false, text: ''};
		out.push({type: 'block-start', index: state.open.index, block: {kind}});
	}
	const open = state.open;
	open.text += text;
	if (text !== '') out.push({type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index: open.index, text});
	if (part.thoughtSignature) {
		out.push({type: 'signature', index: open.index, signature: unwrapSignature(part.thoughtSignature, 'gemini')});
		open.signed = true;
	}
}

/** Grounding arrives once, with the last text: its sources cite the text block still open. */
function onGrounding(state: State, metadata: unknown, out: IRStreamEvent[]): void {
	if (!isWireObject(metadata)) return;
	state.grounded = true;
	const open = state.open?.kind === 'text' ? state.open : undefined;
	const citations = decodeGeminiGrounding(metadata, open?.text ?? '');
	if (citations.length === 0) return;
	if (!open) state.ctx.warn(`Dropped ${citations.length} grounding source(s): no answer text was open to cite them.`);
	else for (const citation of citations) out.push({type: 'citation', index: open.index, citation});
}

/** Every frame carries the prompt's token count: clients that show context use from the start (Claude Code) get it at once. */
function startEvent(frame: WireObject): IRStreamEvent {
	const metadata = pick(frame, 'usageMetadata');
	const prompt = isWireObject(metadata) ? {usage: {inputTokens: decodeGeminiUsage(metadata).inputTokens}} : {};
	return {type: 'start', id: pickString(frame, 'responseId') ?? generateResponseId(), model: pickString(frame, 'modelVersion') ?? '', ...prompt};
}

function onParts(state: State, candidate: WireObject | undefined, out: IRStreamEvent[]): void {
	for (const part of readParts(candidate ? pick(candidate, 'content') : undefined)) {
		// Nameless functionCall fragments are Vertex's streamed arguments, which this gateway never asks for.
		if (part.functionCall?.name) {
			closeOpen(state, out);
			state.hasCalls = true;
			out.push(...functionCallEvents(part, state.nextIndex++));
		} else if (part.text !== undefined) onText(state, part, part.text, out);
		else if (part.inlineData || part.fileData) state.ctx.warn('Dropped media the model generated: only text, thoughts and function calls translate.');
	}
}

function onFrame(state: State, frame: WireObject, out: IRStreamEvent[]): void {
	if (!state.started) {
		state.started = true;
		out.push(startEvent(frame));
	}
	const candidate = firstCandidate(frame);
	onParts(state, candidate, out);
	if (candidate && !state.grounded) onGrounding(state, pick(candidate, 'groundingMetadata'), out);
	const metadata = pick(frame, 'usageMetadata');
	if (isWireObject(metadata)) {
		state.usage = decodeGeminiUsage(metadata);
		out.push({type: 'usage', usage: state.usage});
	}
	state.finishReason = (candidate ? pickString(candidate, 'finishReason') : undefined) ?? state.finishReason;
	state.blocked ||= promptBlockReason(frame) !== undefined;
}

/**
 * SSE messages → IR events. The stream ends after the frame with `finishReason` (or a blocked
 * prompt); an error frame, or a frame that is not JSON, ends it as failed. A connection that breaks
 * is not this decoder's to report: the proxy names the channel and counts the fault (translate.ts).
 */
export function decodeGeminiStream(messages: AsyncIterable<SseMessage>, ctx: TranslationContext): AsyncGenerator<IRStreamEvent> {
	return decodeWith(new GeminiStreamDecoder(ctx), messages);
}

/** The same, one message at a time (stream-steps.ts). */
export class GeminiStreamDecoder implements StreamDecoder {
	done = false;
	private readonly state: State;

	constructor(ctx: TranslationContext) {
		this.state = {ctx, started: false, nextIndex: 0, hasCalls: false, usage: {inputTokens: 0, outputTokens: 0}, blocked: false, grounded: false};
	}

	push(message: SseMessage): IRStreamEvent[] {
		if (this.done) return [];
		const frame = parseFrame(message.data);
		if (frame === 'empty') return [];
		if (frame === 'invalid') return this.fail(upstreamFailure(geminiStreamProblems.notJson(message.data)));
		const failure = frameError(frame);
		if (failure) return this.fail(failure);
		const events: IRStreamEvent[] = [];
		onFrame(this.state, frame, events);
		return events;
	}

	/** Gemini has no end marker: the body's end is the stream's, complete once a finishReason (or a block) came. */
	end(): IRStreamEvent[] {
		if (this.done) return [];
		const {state} = this;
		if (state.finishReason === undefined && !state.blocked) return this.fail(upstreamFailure(geminiStreamProblems.cutOff));
		this.done = true;
		const events: IRStreamEvent[] = [];
		closeOpen(state, events);
		const reason = state.finishReason === undefined ? 'content_filter' : mapGeminiFinishReason(state.finishReason, state.hasCalls);
		events.push({type: 'finish', reason, usage: state.usage});
		return events;
	}

	private fail(error: IRError): IRStreamEvent[] {
		this.done = true;
		const events: IRStreamEvent[] = [];
		closeOpen(this.state, events);
		events.push({type: 'error', error});
		return events;
	}
}
