/**
 * IR stream events → the SSE frames Anthropic clients read: `message_start`, `ping`, one content block
 * at a time (`content_block_start` / `_delta` / `_stop`), `message_delta`, `message_stop`; or
 * `event: error`. The official SDK ignores frames without an `event:` line, so every frame names one.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
import type {EncodeStreamOptions, TranslationContext} from '../adapter.js';
import {assertNever, type IRBlockStart, type IRError, type IRStreamEvent, type IRUsage, type JsonValue} from '../../base/ir.js';
import {wrapSignature} from '../signature.js';
import {sseFrame} from '../sse.js';
import {anthropicErrorType} from './errors.js';
import {encodeAnthropicStopReason} from './map-anthropic-finish-reason.js';
import {encodeAnthropicUsage} from './map-anthropic-usage.js';
import {encodeAnthropicCitation} from './map-anthropic-citations.js';
import {BlockSerializer} from './serialize-stream-blocks.js';
import {encodeWith, stepEncoder, type StreamEncoder} from '../stream-steps.js';
import {toMessageId} from './ids.js';

/**
 * The block being written. A thinking block's start waits for its first event (it may turn out to be
 * redacted); a text block's for its first text, so an empty one is never written: Anthropic rejects
 * "text content blocks must be non-empty" when the client sends the history back. The wire index is
 * given when the block starts, so indices stay consecutive.
 */
type Current = {readonly index: number; wire: number; readonly block: IRBlockStart; started: boolean};

export function encodeAnthropicStream(events: AsyncIterable<IRStreamEvent>, options: EncodeStreamOptions, ctx: TranslationContext): AsyncGenerator<string> {
	return encodeWith(anthropicStreamEncoder(options, ctx), events);
}

/** The same, one IR event at a time (stream-steps.ts): the frames it makes, joined. */
export function anthropicStreamEncoder(options: EncodeStreamOptions, ctx: TranslationContext): StreamEncoder {
	const serializer = new BlockSerializer();
	let started = false;
	let nextWire = 0;
	let current: Current | undefined;
	/** The frames of one event as it leaves the serializer; true once the stream has ended. */
	const framesOf = (event: IRStreamEvent, frames: string[]): boolean => {
		if (event.type === 'error') {
			frames.push(frame('error', {type: 'error', error: errorBody(event.error)}));
			return true;
		}
		if (!started) {
			started = true;
			frames.push(messageStart(event.type === 'start' ? event.id : '', options.model, startUsage(event, options)));
			frames.push(frame('ping', {type: 'ping'}));
		}
		if (event.type === 'block-start') {
			current = {index: event.index, wire: nextWire, block: event.block, started: event.block.kind === 'tool_call'};
			if (current.started) {
				nextWire += 1;
				frames.push(blockStartFrame(current));
			}
			return false;
		}
		if (event.type === 'finish') {
			frames.push(
				frame('message_delta', {
					type: 'message_delta',
					delta: {stop_reason: encodeAnthropicStopReason(event.reason), stop_sequence: event.stopSequence ?? null},
					usage: encodeAnthropicUsage(event.usage),
				}),
			);
			frames.push(frame('message_stop', {type: 'message_stop'}));
			return true;
		}
		if (current && 'index' in event && event.index === current.index) {
			// A started block's text, thinking or arguments: most of a stream, one frame each, built here.
			if (current.started) {
				const quick = plainDeltaFrame(event, current);
				if (quick !== undefined) {
					if (quick) frames.push(quick);
					return false;
				}
			}
			const wasStarted = current.started;
			if (!wasStarted) current.wire = nextWire;
			for (const text of blockFrames(event, current, ctx)) frames.push(text);
			if (current.started && !wasStarted) nextWire += 1;
			if (event.type === 'block-end') current = undefined;
		}
		return false;
	};
	// The serializer lets a terminal event out only when one goes in, so the stream ends where stepEncoder says.
	return stepEncoder(
		event => {
			const frames: string[] = [];
			for (const out of serializer.push(event)) if (framesOf(out, frames)) break;
			return frames.join('');
		},
		() => frame('error', {type: 'error', error: {type: 'api_error', message: 'The upstream stream ended before the answer was complete.'}}),
	);
}

/** An event's frame. The data is plain JSON built here: JSON.stringify drops its undefined fields, no copy needed. */
function frame(event: string, data: object): string {
	return sseFrame(JSON.stringify(data), event);
}

/**
 * What `message_start` says of the prompt. Claude Code sizes its context from it ("Ctx: 0%" and a
 * wrong auto-compact otherwise): where the provider says the prompt's size only at the end (chat
 * completions), the gateway's own count stands in; `message_delta` then carries the provider's
 * figures, which the SDK's final message takes over (they are cumulative).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
function startUsage(event: IRStreamEvent, options: EncodeStreamOptions): Partial<IRUsage> {
	if (event.type === 'finish') return event.usage;
	const usage = event.type === 'start' ? event.usage ?? {} : {};
	if (usage.inputTokens !== undefined || !options.estimateInputTokens) return usage;
	return {...usage, inputTokens: options.estimateInputTokens()};
}

function messageStart(id: string, model: string, usage: Partial<IRUsage>): string {
	const message = {
		id: toMessageId(id),
		type: 'message',
		role: 'assistant',
		model,
		content: [],
		stop_reason: null,
		stop_sequence: null,
		usage: encodeAnthropicUsage(usage),
	};
	return frame('message_start', {type: 'message_start', message});
}

function errorBody(error: IRError): JsonValue {
	return {type: anthropicErrorType(error.kind), message: error.message};
}

function blockStartFrame(current: Current, redactedData?: string): string {
	return frame('content_block_start', {type: 'content_block_start', index: current.wire, content_block: contentBlock(current.block, redactedData)});
}

function contentBlock(block: IRBlockStart, redactedData: string | undefined): JsonValue {
	switch (block.kind) {
		case 'text':
			return {type: 'text', text: ''};
		case 'reasoning':
			return redactedData === undefined ? {type: 'thinking', thinking: '', signature: ''} : {type: 'redacted_thinking', data: redactedData};
		case 'tool_call':
			return {type: 'tool_use', id: block.id, name: block.name, input: {}};
		default:
			return assertNever(block, 'block kind');
	}
}

type BlockEvent = Exclude<Extract<IRStreamEvent, {index: number}>, {type: 'block-start'}>;

/**
 * blockFrames' frame for a text, thinking or arguments delta of a started block of its kind ('' for
 * an empty one), as the same text frame() makes of it, without the generator and the objects; undefined
 * for any other event, which goes through blockFrames.
 */
function plainDeltaFrame(event: BlockEvent, current: Current): string | undefined {
	let body: string;
	switch (event.type) {
		case 'text-delta':
			if (current.block.kind !== 'text') return undefined;
			if (event.text === '') return '';
			body = `{"type":"text_delta","text":${JSON.stringify(event.text)}}`;
			break;
		case 'reasoning-delta':
			if (current.block.kind !== 'reasoning') return undefined;
			if (event.text === '') return '';
			body = `{"type":"thinking_delta","thinking":${JSON.stringify(event.text)}}`;
			break;
		case 'tool-args-delta':
			if (current.block.kind !== 'tool_call') return undefined;
			if (event.json === '') return '';
			body = `{"type":"input_json_delta","partial_json":${JSON.stringify(event.json)}}`;
			break;
		default:
			return undefined;
	}
	// JSON text of a string has no raw line break: one data line, as sseFrame writes it.
	return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${current.wire},"delta":${body}}\n\n`;
}

/** Whether this event opens a block not yet written: an empty text block never opens. */
function opens(event: BlockEvent, current: Current): boolean {
	if (current.block.kind !== 'text') return true;
	return (event.type === 'text-delta' && event.text !== '') || event.type === 'citation';
}

function* blockFrames(event: BlockEvent, current: Current, ctx: TranslationContext): Generator<string> {
	if (!current.started) {
		if (!opens(event, current)) {
			if (event.type === 'signature') ctx.warn(`A ${event.signature.format} signature on streamed text was dropped: Anthropic text blocks have no slot for it.`);
			return;
		}
		current.started = true;
		yield blockStartFrame(current, event.type === 'redacted-reasoning' ? event.data : undefined);
		if (event.type === 'redacted-reasoning') return;
	}
	const delta = (body: object) => frame('content_block_delta', {type: 'content_block_delta', index: current.wire, delta: body});
	switch (event.type) {
		case 'text-delta':
			if (current.block.kind === 'text' && event.text !== '') yield delta({type: 'text_delta', text: event.text});
			return;
		case 'reasoning-delta':
			if (current.block.kind === 'reasoning' && event.text !== '') yield delta({type: 'thinking_delta', thinking: event.text});
			return;
		case 'tool-args-delta':
			if (current.block.kind === 'tool_call' && event.json !== '') yield delta({type: 'input_json_delta', partial_json: event.json});
			return;
		case 'signature':
			if (current.block.kind === 'reasoning') yield delta({type: 'signature_delta', signature: wrapSignature(event.signature, 'anthropic')});
			else if (current.block.kind === 'tool_call') ctx.signatures.remember(current.block.id, event.signature);
			else ctx.warn(`A ${event.signature.format} signature on streamed text was dropped: Anthropic text blocks have no slot for it.`);
			return;
		case 'redacted-reasoning':
			ctx.warn('Redacted reasoning arrived inside a thinking block that had already started; dropped.');
			return;
		case 'citation':
			if (current.block.kind === 'text') yield delta({type: 'citations_delta', citation: encodeAnthropicCitation(event.citation)});
			return;
		case 'block-end':
			yield frame('content_block_stop', {type: 'content_block_stop', index: current.wire});
			return;
		default:
			return assertNever(event, 'stream event');
	}
}
