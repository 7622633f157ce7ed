/**
 * IR stream events → what a Gemini client reads from `streamGenerateContent`.
 *
 * With `alt=sse`: one `data: {GenerateContentResponse}` frame per piece, each ended by CRLF CRLF as
 * Google's servers send them (the SDK splits on \n\n, \r\r or \r\n\r\n and wants the JSON on one
 * line). Without it: one JSON array written progressively, `[` before the first element and `,\r\n`
 * between elements, `]` at the end.
 *
 * Text and thoughts are written as they arrive. Gemini has no argument deltas, so a tool call's
 * argument pieces are held until its block ends and then sent as one whole functionCall part.
 * usageMetadata and finishReason ride on the last frame. A mid-stream error is a frame with an
 * `error` object, which @google/genai turns into an ApiError; then the stream ends.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import type {EncodeStreamOptions, TranslationContext} from '../adapter.js';
import {assertNever, type IRCitation, type IRSignature, type IRStreamEvent, type JsonObject} from '../../base/ir.js';
import {wrapSignature} from '../signature.js';
import {renderGeminiError} from './errors.js';
import {toGeminiFinishReason} from './map-gemini-finish-reason.js';
import {encodeGeminiUsage} from './map-gemini-usage.js';
import {encodeGeminiGrounding, joinCitations} from './map-gemini-grounding.js';
import {decodeToolInput} from '../decode-tool-input.js';
import {compact} from '../wire.js';
import {encodeWith, stepEncoder, type StreamEncoder} from '../stream-steps.js';

type PendingCall = {readonly id: string; readonly name: string; args: string; signature?: IRSignature};
type BlockEvent = Exclude<IRStreamEvent, {type: 'finish'} | {type: 'error'}>;
type Last = {readonly finishReason?: string; readonly usageMetadata?: JsonObject; readonly groundingMetadata?: JsonObject};

/** The encoder's state: created per stream, never shared between streams. */
type State = {
	readonly options: EncodeStreamOptions;
	readonly ctx: TranslationContext;
	written: number;
	responseId?: string;
	readonly calls: Map<number, PendingCall>;
	readonly reasoningBlocks: Set<number>;
	/** Each text block's text and citations: grounding goes out with the last frame. */
	readonly texts: Map<number, {text: string; citations: IRCitation[]}>;
	/** What follows the part in a piece's frame (see chunk), null until built or when the response id changes. */
	tail: string | null;
};

const callPart = (call: PendingCall, ctx: TranslationContext): JsonObject =>
	compact({
		functionCall: {id: call.id, name: call.name, args: decodeToolInput(call.args, call.id, ctx)},
		thoughtSignature: call.signature ? wrapSignature(call.signature, 'gemini') : undefined,
	});

function frame(state: State, body: JsonObject): string {
	return frameOf(state, JSON.stringify(body));
}

function frameOf(state: State, json: string): string {
	const text = state.options.sse ? `data: ${json}\r\n\r\n` : `${state.written === 0 ? '[' : ',\r\n'}${json}`;
	state.written++;
	return text;
}

const field = (name: string, value: string | undefined): string => (value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`);

/**
 * One part's frame. A piece of the answer (no `last`) is most of a stream: its text is the general
 * case's JSON with the fixed parts kept from one piece to the next, which spared a Gemini client's
 * stream a third of its encoding.
 */
function chunk(state: State, part: JsonObject, last?: Last): string {
	if (!last) {
		state.tail ??= `],"role":"model"},"index":0}]${field('modelVersion', state.options.model)}${field('responseId', state.responseId)}}`;
		return frameOf(state, `{"candidates":[{"content":{"parts":[${JSON.stringify(part)}${state.tail}`);
	}
	return frame(state, compact({
		candidates: [compact({content: {parts: [part], role: 'model'}, finishReason: last.finishReason, index: 0, groundingMetadata: last.groundingMetadata})],
		usageMetadata: last.usageMetadata,
		modelVersion: state.options.model,
		responseId: state.responseId,
	}));
}

function onSignature(state: State, index: number, signature: IRSignature): string[] {
	const call = state.calls.get(index);
	if (call) call.signature = signature;
	return call ? [] : [chunk(state, compact({text: '', thought: state.reasoningBlocks.has(index) || undefined, thoughtSignature: wrapSignature(signature, 'gemini')}))];
}

function onBlockStart(state: State, event: Extract<IRStreamEvent, {type: 'block-start'}>): void {
	if (event.block.kind === 'tool_call') state.calls.set(event.index, {id: event.block.id, name: event.block.name, args: ''});
	if (event.block.kind === 'reasoning') state.reasoningBlocks.add(event.index);
	if (event.block.kind === 'text') state.texts.set(event.index, {text: '', citations: []});
}

function onBlockEnd(state: State, index: number): string[] {
	const call = state.calls.get(index);
	state.calls.delete(index);
	return call ? [chunk(state, callPart(call, state.ctx))] : [];
}

function onBlockEvent(state: State, event: BlockEvent): string[] {
	switch (event.type) {
		case 'start':
			state.responseId = event.id;
			state.tail = null;
			return [];
		case 'block-start':
			onBlockStart(state, event);
			return [];
		case 'text-delta': {
			const block = state.texts.get(event.index);
			if (block) block.text += event.text;
			return [chunk(state, {text: event.text})];
		}
		case 'reasoning-delta':
			return [chunk(state, {text: event.text, thought: true})];
		case 'citation':
			state.texts.get(event.index)?.citations.push(event.citation);
			return [];
		case 'signature':
			return onSignature(state, event.index, event.signature);
		case 'redacted-reasoning':
			state.ctx.warn('Dropped a redacted reasoning block: a Gemini client has no slot for its encrypted data.');
			return [];
		case 'tool-args-delta': {
			const call = state.calls.get(event.index);
			if (call) call.args += event.json;
			return [];
		}
		case 'block-end':
			return onBlockEnd(state, event.index);
		case 'usage':
			return [];
		default:
			return assertNever(event, 'stream event');
	}
}

/** Calls still open, then Gemini's own last frame: an empty text part beside finishReason, usage and grounding. */
function finish(state: State, event: Extract<IRStreamEvent, {type: 'finish'}>): string[] {
	const calls = [...state.calls.values()].map(call => chunk(state, callPart(call, state.ctx)));
	const {text, citations} = joinCitations([...state.texts.values()]);
	const last = {finishReason: toGeminiFinishReason(event.reason), usageMetadata: encodeGeminiUsage(event.usage), groundingMetadata: encodeGeminiGrounding(citations, text)};
	return [...calls, chunk(state, {text: ''}, last)];
}

export function encodeGeminiStream(events: AsyncIterable<IRStreamEvent>, options: EncodeStreamOptions, ctx: TranslationContext): AsyncGenerator<string> {
	return encodeWith(geminiStreamEncoder(options, ctx), events);
}

/**
 * The same, one IR event at a time (stream-steps.ts). A JSON-array stream's `]` goes out with the
 * terminal event's frames, or from `end()` when the events ran out without one.
 */
export function geminiStreamEncoder(options: EncodeStreamOptions, ctx: TranslationContext): StreamEncoder {
	const state: State = {options, ctx, written: 0, calls: new Map(), reasoningBlocks: new Set(), texts: new Map(), tail: null};
	const close = () => (options.sse ? '' : state.written === 0 ? '[]' : ']');
	return stepEncoder(event => {
		if (event.type === 'finish') return finish(state, event).join('') + close();
		if (event.type === 'error') return frame(state, renderGeminiError(event.error).body) + close();
		return onBlockEvent(state, event).join('');
	}, close);
}
