/**
 * IR stream events → the Responses SSE events a client reads: `response.created`,
 * `response.in_progress`, per output item its added / delta / done events, then
 * `response.completed` (or `response.incomplete`) carrying the whole response with usage. Codex
 * retries a turn whose stream ends without `response.completed`, so every stream ends with a
 * terminal event: on an error, `error` then `response.failed` with a code Codex understands.
 * Each frame is `event: <type>` + `data: {"type", "sequence_number", …}`; there is no `[DONE]`.
 *
 * Memory: deltas go out as they come; what is kept is each output item's text, once, because the
 * protocol repeats it whole at the end — in `.done`, `content_part.done`, `output_item.done` (what
 * Codex reads) and `response.completed` (what the SDKs' final response is). An event's frames are
 * encoded up to `eagerBytes` at once; the rest wait for the writer to ask (`more`), so a 50 MB answer
 * holds its text and one closing frame, never all four at once, while a short answer's closing
 * frames leave in one write.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import type {EncodeStreamOptions, TranslationContext} from '../adapter.js';
import {assertNever, type JsonObject, type IRBlockStart, type IRError, type IRFinishReason, type IRStreamEvent, type IRUsage} from '../../base/ir.js';
import {sseFrame} from '../sse.js';
import {encodeWith, stepEncoder, type LaterFrames, type StreamEncoder} from '../stream-steps.js';
import {echoRequest, encodeResponseObject, type ResponseBase} from './encode-response-object.js';
import {toolKinds, type ToolKinds} from './decode-responses-tools.js';
import {encodeResponsesUsage} from './map-responses-usage.js';
import {keepCallSignature} from './encode-responses-output.js';
import {toResponseId} from './ids.js';
import {responsesErrorCode, responsesErrorMessage} from './map-responses-error-code.js';
import {toResponsesOutcome} from './map-responses-status.js';
import type {OutputItem} from './schema.js';
import {closeItem, deltaEvents, openCall, openMessage, openReasoning, type StreamEvent, type StreamItem} from './stream-items.js';

/** The encoder's state: created per stream inside the generator, never shared between streams. */
type State = {
	sequence: number;
	base?: ResponseBase;
	readonly options: EncodeStreamOptions;
	readonly kinds: ToolKinds;
	readonly items: StreamItem[];
	readonly byBlock: Map<number, StreamItem>;
	readonly ctx: TranslationContext;
	warnedSignature: boolean;
	/** Handed the finished Response (completed or incomplete), as it goes out in the terminal frame. */
	readonly onFinal?: (response: JsonObject) => void;
};

/**
 * One event's frame, numbered as it is encoded. JSON has no raw line break, so the `data:` line is
 * the JSON as it is (no split and join: a copy less of a 50 MB frame).
 */
function frame(state: State, {type, ...fields}: StreamEvent): string {
	return `event: ${type}\ndata: ${JSON.stringify({type, sequence_number: state.sequence++, ...fields})}\n\n`;
}

/**
 * frame(deltaEvents(item, text)) for a message's text, as the same text without the event objects:
 * `response.output_text.delta` with its fields in the order deltaEvents writes them ('' for no text).
 */
function textDeltaFrame(state: State, item: StreamItem, text: string): string {
	if (text === '') return '';
	item.text += text;
	return `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":${state.sequence++},"item_id":${JSON.stringify(item.id)},"output_index":${item.outputIndex},"content_index":0,"delta":${JSON.stringify(text)},"logprobs":[]}\n\n`;
}

/** Frames are encoded together until their text reaches this; the rest wait for `more`. */
const eagerBytes = 16_384;

const outputOf = (state: State) => state.items.flatMap(item => (item.final ? [item.final] : []));

/** `response.created` and `response.in_progress`, once, before anything else. */
function start(state: State, id = ''): StreamEvent[] {
	if (state.base) return [];
	state.base = {id: toResponseId(id), createdAt: Math.floor(Date.now() / 1000), model: state.options.model, echo: echoRequest(state.options.request)};
	const response = encodeResponseObject(state.base, {status: 'in_progress', output: [], usage: null});
	return [
		{type: 'response.created', response},
		{type: 'response.in_progress', response},
	];
}

function blockStart(state: State, index: number, block: IRBlockStart): StreamEvent[] {
	const outputIndex = state.items.length;
	const opened =
		block.kind === 'text' ? openMessage(outputIndex)
		: block.kind === 'reasoning' ? openReasoning(outputIndex)
		: openCall(outputIndex, {id: block.id, name: block.name}, state.kinds);
	state.items.push(opened.item);
	state.byBlock.set(index, opened.item);
	return opened.events;
}

function delta(state: State, index: number, text: string): StreamEvent[] {
	const item = state.byBlock.get(index);
	return item && text !== '' ? deltaEvents(item, text) : [];
}

function signature(state: State, event: Extract<IRStreamEvent, {type: 'signature'}>): StreamEvent[] {
	const item = state.byBlock.get(event.index);
	if (item?.kind === 'reasoning') item.signature = event.signature;
	else if (item?.call) keepCallSignature(item.call.id, event.signature, state.ctx);
	else if (!state.warnedSignature && event.signature.value !== '') {
		state.warnedSignature = true;
		state.ctx.warn(`Dropped a ${event.signature.format} signature on answer text: the Responses API has no field for it.`);
	}
	return [];
}

function closeAll(state: State): StreamEvent[] {
	return state.items.flatMap(item => closeItem(item, state.kinds));
}

function finish(state: State, reason: IRFinishReason, usage: IRUsage): StreamEvent[] {
	const closed = closeAll(state);
	const {status, incompleteDetails} = toResponsesOutcome(reason);
	const response = encodeResponseObject(state.base!, {status, output: outputOf(state), usage: encodeResponsesUsage(usage), incompleteDetails});
	state.onFinal?.(response);
	return [...closed, {type: status === 'completed' ? 'response.completed' : 'response.incomplete', response}];
}

/**
 * A failure: `error` (the SDKs throw on it) then `response.failed` (what Codex reads). The error
 * object is nested, as the API sends it, and repeated at the top level, as its reference documents it.
 */
export function failureEvents(base: ResponseBase, output: readonly OutputItem[], error: IRError): StreamEvent[] {
	const code = responsesErrorCode(error);
	const message = responsesErrorMessage(error);
	const failed = encodeResponseObject(base, {status: 'failed', output, usage: null, error: {code, message}});
	return [
		{type: 'error', code, message, param: error.param ?? null, error: {type: error.kind === 'rate_limit' ? 'rate_limit_error' : 'server_error', code, message, param: error.param ?? null}},
		{type: 'response.failed', response: failed},
	];
}

function eventsFor(state: State, event: IRStreamEvent): StreamEvent[] {
	switch (event.type) {
		case 'start':
			return start(state, event.id);
		case 'block-start':
			return blockStart(state, event.index, event.block);
		case 'text-delta':
		case 'reasoning-delta':
			return delta(state, event.index, event.text);
		case 'tool-args-delta':
			return delta(state, event.index, event.json);
		case 'signature':
			return signature(state, event);
		case 'redacted-reasoning':
			state.ctx.warn('Dropped redacted reasoning: the Responses API cannot show it.');
			return [];
		case 'citation':
			state.byBlock.get(event.index)?.citations.push(event.citation);
			return [];
		case 'block-end': {
			const item = state.byBlock.get(event.index);
			return item ? closeItem(item, state.kinds) : [];
		}
		case 'usage':
			return [];
		case 'finish':
			return finish(state, event.reason, event.usage);
		case 'error':
			return failureEvents(state.base!, outputOf(state), event.error);
		default:
			return assertNever(event, 'stream event');
	}
}

/**
 * The encoder as a synchronous step (stream-steps.ts). `onFinal` receives the finished Response
 * object itself (the gateway keeps it for `previous_response_id`), so nobody parses the terminal frame
 * back — for a 50 MB answer, a 50 MB parse.
 */
export function responsesStreamEncoder(options: EncodeStreamOptions, ctx: TranslationContext, onFinal?: (response: JsonObject) => void): StreamEncoder {
	const state: State = {sequence: 0, options, kinds: toolKinds(options.request), items: [], byBlock: new Map(), ctx, warnedSignature: false, ...(onFinal ? {onFinal} : {})};
	const later = new LaterEvents(state);
	return stepEncoder(
		event => {
			// A message's text delta, once the response has begun, is most of a stream: its one frame is built here.
			if (event.type === 'text-delta' && state.base && !later.hasMore) {
				const item = state.byBlock.get(event.index);
				if (item?.kind === 'message') return textDeltaFrame(state, item, event.text);
			}
			return later.take(event.type === 'start' || state.base ? eventsFor(state, event) : [...start(state), ...eventsFor(state, event)]);
		},
		() => later.take([...start(state), ...failureEvents(state.base!, outputOf(state), {kind: 'upstream', status: 502, message: 'The upstream stream ended before the answer was complete.'})]),
		later,
	);
}

/**
 * The events of the last push or end not yet encoded, built into frames as they are asked for. A
 * class, not an object literal with a getter: see StepEncoder in stream-steps.ts (the getter's closure
 * would keep the stream's state, the client's request among it, in the old generation).
 */
class LaterEvents implements LaterFrames {
	private waiting: readonly StreamEvent[] = [];
	private next = 0;

	constructor(private readonly state: State) {}

	get hasMore(): boolean {
		return this.next < this.waiting.length;
	}

	/** `events` are the ones waiting now: the first frames of them, up to `eagerBytes`. */
	take(events: readonly StreamEvent[]): string {
		this.waiting = events;
		this.next = 0;
		return this.more();
	}

	more(): string {
		let text = '';
		while (this.next < this.waiting.length && text.length < eagerBytes) text += frame(this.state, this.waiting[this.next++]!);
		if (this.next >= this.waiting.length) this.waiting = [];
		return text;
	}
}

/** The generator form (the step wrapped): each later frame of an event is encoded when the consumer takes it. */
export function encodeResponsesStream(events: AsyncIterable<IRStreamEvent>, options: EncodeStreamOptions, ctx: TranslationContext, onFinal?: (response: JsonObject) => void): AsyncGenerator<string> {
	return encodeWith(responsesStreamEncoder(options, ctx, onFinal), events);
}

/**
 * The failure frames the proxy writes when the upstream connection breaks after the encoder stopped
 * (it knows neither the response id nor the sequence numbers so far: a fresh id, and no numbers).
 */
export function responsesStreamFailure(error: IRError): string {
	const base: ResponseBase = {id: toResponseId(''), createdAt: Math.floor(Date.now() / 1000), model: '', echo: echoRequest(undefined)};
	return failureEvents(base, [], error)
		.map(({type, ...fields}) => sseFrame(JSON.stringify({type, ...fields}), type))
		.join('');
}
