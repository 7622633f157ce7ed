/**
 * Upstream chat completion chunks → IR stream events.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
import type {TranslationContext} from '../adapter.js';
import type {IRFinishReason, IRStreamEvent, IRUsage} from '../../base/ir.js';
import type {SseMessage} from '../sse.js';
import {decodeWith, type StreamDecoder} from '../stream-steps.js';
import {decodeOpenaiUsage} from './map-openai-usage.js';
import {decodeOpenaiError} from './errors.js';
import {newToolCallId} from './ids.js';
import {mapOpenaiFinishReason} from './map-openai-finish-reason.js';
import {decodeOpenaiAnnotations} from './map-openai-citations.js';
import {isWireObject, asString, asNumber, asObject, asArray, parseJsonObject, type WireObject} from '../wire.js';

/** One streamed tool call. `block` is -1 until its name is known (the IR block start needs it). */
type ToolSlot = {id: string; block: number; pending: string; ended: boolean};

/** The decoder's state: created per stream inside the generator, never shared between streams. */
type State = {
	nextBlock: number;
	open?: {kind: 'text' | 'reasoning'; block: number};
	tools: Map<number, ToolSlot>;
	ordered: ToolSlot[];
};

// Each step pushes its events onto the chunk's list: generators here cost a translated stream more
// than the JSON.parse of its chunk (every delta went through three).

function closeOpen(state: State, events: IRStreamEvent[]): void {
	if (!state.open) return;
	events.push({type: 'block-end', index: state.open.block});
	state.open = undefined;
}

function textDelta(state: State, kind: 'text' | 'reasoning', text: string, events: IRStreamEvent[]): void {
	if (state.open?.kind !== kind) {
		closeOpen(state, events);
		state.open = {kind, block: state.nextBlock++};
		events.push({type: 'block-start', index: state.open.block, block: {kind}});
	}
	events.push(kind === 'text' ? {type: 'text-delta', index: state.open.block, text} : {type: 'reasoning-delta', index: state.open.block, text});
}

function argumentsPiece(fn: WireObject | undefined): string {
	const value = fn?.arguments;
	if (value === undefined || value === null) return '';
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * One entry of `delta.tool_calls`. Calls are keyed by `index`; the first delta of a call carries id
 * and name, later ones only argument pieces. Some servers send a whole call per delta, or reuse
 * index 0 for every call with a new id: a new id at a known index starts a new call.
 */
function toolDelta(state: State, call: unknown, position: number, events: IRStreamEvent[]): void {
	if (!isWireObject(call)) return;
	const key = asNumber(call.index) ?? position;
	const fn = asObject(call.function);
	const id = asString(call.id);
	const name = fn && asString(fn.name);
	const args = argumentsPiece(fn);
	let slot = state.tools.get(key);
	if (slot && id && slot.id !== id && slot.block >= 0) slot = undefined;
	if (!slot) {
		closeOpen(state, events);
		slot = {id: id || newToolCallId(), block: -1, pending: '', ended: false};
		state.tools.set(key, slot);
		state.ordered.push(slot);
	}
	if (slot.block < 0 && !name) {
		slot.pending += args;
		return;
	}
	if (slot.block < 0 && name) {
		slot.block = state.nextBlock++;
		events.push({type: 'block-start', index: slot.block, block: {kind: 'tool_call', id: slot.id, name}});
		if (slot.pending) events.push({type: 'tool-args-delta', index: slot.block, json: slot.pending});
	}
	if (args) events.push({type: 'tool-args-delta', index: slot.block, json: args});
}

function closeAll(state: State, ctx: TranslationContext, events: IRStreamEvent[]): void {
	closeOpen(state, events);
	for (const slot of state.ordered) {
		if (slot.ended) continue;
		slot.ended = true;
		if (slot.block >= 0) events.push({type: 'block-end', index: slot.block});
		else ctx.warn(`Dropped streamed tool call ${slot.id}: the upstream never sent its name.`);
	}
}

function deltaEvents(state: State, delta: WireObject, events: IRStreamEvent[]): void {
	// DeepSeek streams `reasoning_content`; vLLM and OpenRouter call it `reasoning`.
	const reasoning = asString(delta.reasoning_content) || asString(delta.reasoning);
	if (reasoning) textDelta(state, 'reasoning', reasoning, events);
	const content = asString(delta.content);
	if (content) textDelta(state, 'text', content, events);
	const refusal = asString(delta.refusal);
	if (refusal) textDelta(state, 'text', refusal, events);
	// Web search models stream their `url_citation`s with (or after) the content they support.
	if (delta.annotations !== undefined) {
		const open = state.open?.kind === 'text' ? state.open.block : undefined;
		for (const citation of decodeOpenaiAnnotations(delta.annotations)) if (open !== undefined) events.push({type: 'citation', index: open, citation});
	}
	const calls = asArray(delta.tool_calls);
	if (calls) for (let position = 0; position < calls.length; position++) toolDelta(state, calls[position], position, events);
}

/** What this decoder and the passthrough reader (read-openai-stream.ts) say of a stream that cannot be read or ends too soon. */
export const openaiStreamProblems = {
	notJson: (data: string) => `The OpenAI-compatible upstream sent a stream chunk that is not JSON: ${data.slice(0, 200)}`,
	cutOff: 'The OpenAI-compatible upstream closed the stream before it finished (no finish_reason, no [DONE]).',
};

function firstObject(items: readonly unknown[] | undefined): WireObject | undefined {
	if (items) for (const item of items) if (isWireObject(item)) return item;
	return undefined;
}

const malformed = (data: string): IRStreamEvent => ({type: 'error', error: {kind: 'upstream', status: 502, message: openaiStreamProblems.notJson(data)}});

const endedEarly: IRStreamEvent = {type: 'error', error: {kind: 'upstream', status: 502, message: openaiStreamProblems.cutOff}};

/*
 * A plain content delta, as OpenAI and most compatible servers write it (no spaces):
 *   {"id":"chatcmpl-…","object":"chat.completion.chunk","created":1,"model":"…",…,
 *    "choices":[{"index":0,"delta":{"content":"…"},"logprobs":null,"finish_reason":null}],…}
 * The pattern takes one such chunk whole, and only what the decoder would read the same without a
 * parse: around the one choice, keys with a plain value (a string without escapes, an integer, null,
 * true, false) that the decoder does not read after the first chunk, or reads as nothing when plain
 * (`usage`) — never `error`, never a second `choices`; in the choice, `finish_reason` absent or null and other keys
 * plain, never a second `delta`; in the delta a `role` first, then `content`, then keys that are null
 * (never `annotations`, never a second `content`). A key's name is lower-case letters, digits and
 * underscores, so it has no escapes either. Anything else is parsed whole.
 */
const plainValue = '(?:"[^"\\\\\\u0000-\\u001f]*"|-?(?:0|[1-9]\\d*)|null|true|false)';
const otherKey = (except: string) => `"(?!(?:${except})")[a-z0-9_]+":${plainValue}`;
// `usage` too: a plain value is no usage object, which the decoder reads as none.
const topKey = otherKey('choices|error');
const plainChunk = new RegExp(
	`^\\{(?:${topKey},)*"choices":\\[\\{"index":0,"delta":\\{(?:"role":"assistant",)?"content":"((?:[^"\\\\\\u0000-\\u001f]|\\\\[^\\u0000-\\u001f])*)"(?:,"(?!(?:annotations|content)")[a-z0-9_]+":null)*\\}` +
		`(?:,(?:"finish_reason":null|${otherKey('delta|finish_reason')}))*\\}\\](?:,${topKey})*\\}$`,
);

/**
 * The content of a chunk that is a plain content delta (above) — what JSON.parse and the decoder
 * would read of it — or undefined for any other chunk, which is then parsed whole. JSON.parse was
 * most of a translated stream's cost (0.55–0.75 µs a delta, where this takes under 0.1).
 */
export function plainContentDelta(data: string): string | undefined {
	const found = plainChunk.exec(data);
	if (found === null) return undefined;
	const raw = found[1]!;
	if (!raw.includes('\\')) return raw;
	try {
		return JSON.parse(`"${raw}"`) as string;
	} catch {
		// An escape JSON does not have (`\x`): the whole chunk is not JSON either, and says so when parsed.
		return undefined;
	}
}

/**
 * SSE messages → IR events. The finish waits for the usage chunk (`choices: []`) that follows the
 * `finish_reason` chunk with `stream_options.include_usage`; `[DONE]` or the end of the body ends it.
 * A data frame with an `error` object is a mid-stream error.
 */
export function decodeOpenaiStream(messages: AsyncIterable<SseMessage>, ctx: TranslationContext): AsyncGenerator<IRStreamEvent> {
	return decodeWith(new OpenaiStreamDecoder(ctx), messages);
}

/** The same, one message at a time (stream-steps.ts). */
export class OpenaiStreamDecoder implements StreamDecoder {
	done = false;
	private readonly state: State = {nextBlock: 0, tools: new Map(), ordered: []};
	private started = false;
	private finish: IRFinishReason | undefined;
	private refused = false;
	private usage: IRUsage | undefined;

	constructor(private readonly ctx: TranslationContext) {}

	push(message: SseMessage): IRStreamEvent[] {
		if (this.done) return [];
		const data = message.data;
		if (data.length < 32 && data.trim() === '[DONE]') return this.close();
		// Most of a stream is content deltas: read in their plain wire form without a parse (see plainContentDelta).
		if (this.started) {
			const content = plainContentDelta(data);
			if (content !== undefined) {
				const events: IRStreamEvent[] = [];
				if (content) textDelta(this.state, 'text', content, events);
				return events;
			}
		}
		const chunk = parseJsonObject(data);
		if (!chunk) return this.last(malformed(data));
		if (chunk.error !== undefined && chunk.error !== null) return this.last({type: 'error', error: decodeOpenaiError(200, chunk)});
		const events: IRStreamEvent[] = [];
		if (!this.started) {
			this.started = true;
			// Servers that report usage on every chunk (vLLM's continuous usage stats) give the prompt's size at once.
			const early = asObject(chunk.usage);
			const prompt = early && asNumber(early.prompt_tokens) ? {usage: {inputTokens: asNumber(early.prompt_tokens)}} : {};
			events.push({type: 'start', id: asString(chunk.id) ?? '', model: asString(chunk.model) ?? '', ...prompt});
		}
		const choice = firstObject(asArray(chunk.choices));
		const delta = choice && asObject(choice.delta);
		if (delta) deltaEvents(this.state, delta, events);
		if (delta && asString(delta.refusal)) this.refused = true;
		if (choice && typeof choice.finish_reason === 'string') {
			closeAll(this.state, this.ctx, events);
			this.finish = mapOpenaiFinishReason(choice.finish_reason);
		}
		const chunkUsage = asObject(chunk.usage);
		if (chunkUsage) this.usage = decodeOpenaiUsage(chunkUsage);
		return events;
	}

	end(): IRStreamEvent[] {
		if (this.done) return [];
		return this.finish === undefined ? this.last(endedEarly) : this.close();
	}

	/** `[DONE]`, or the end after a finish reason: the blocks still open end, then the finish with the usage seen. */
	private close(): IRStreamEvent[] {
		this.done = true;
		const events: IRStreamEvent[] = [];
		if (!this.started) events.push({type: 'start', id: '', model: ''});
		closeAll(this.state, this.ctx, events);
		const reason = this.finish ?? 'stop';
		events.push({type: 'finish', reason: this.refused && reason === 'stop' ? 'refusal' : reason, usage: this.usage ?? {inputTokens: 0, outputTokens: 0}});
		return events;
	}

	private last(event: IRStreamEvent): IRStreamEvent[] {
		this.done = true;
		return [event];
	}
}
