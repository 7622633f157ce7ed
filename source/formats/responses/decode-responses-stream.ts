/**
 * Upstream Responses SSE events → IR stream events, for a request that passed through to a
 * Responses-native channel (the gateway meters it on the side) and for tests.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import type {TranslationContext} from '../adapter.js';
import type {IRError, IRStreamEvent} from '../../base/ir.js';
import {unwrapSignature} from '../signature.js';
import type {SseMessage} from '../sse.js';
import {decodeResponsesUsage} from './map-responses-usage.js';
import {decodeResponsesError} from './errors.js';
import {namespacedName} from './decode-responses-tools.js';
import {mapResponsesStatus} from './map-responses-status.js';
import {isWireObject, asString, asNumber, asObject, parseJsonObject, type WireObject} from '../wire.js';

type Slot = {readonly block: number; readonly call: boolean; argsSeen: boolean; input: string; ended: boolean};

/** The decoder's state: created per stream inside the generator, never shared between streams. */
type State = {started: boolean; nextBlock: number; readonly slots: Map<number, Slot>; calls: number};

function* open(state: State, index: number, item: WireObject): Generator<IRStreamEvent> {
	const block = state.nextBlock;
	const type = item.type;
	if (type === 'message' || type === 'reasoning') {
		state.slots.set(index, {block: state.nextBlock++, call: false, argsSeen: false, input: '', ended: false});
		yield {type: 'block-start', index: block, block: {kind: type === 'message' ? 'text' : 'reasoning'}};
	} else if (type === 'function_call' || type === 'custom_tool_call') {
		state.slots.set(index, {block: state.nextBlock++, call: true, argsSeen: false, input: '', ended: false});
		state.calls++;
		yield {type: 'block-start', index: block, block: {kind: 'tool_call', id: asString(item.call_id) ?? '', name: namespacedName(asString(item.namespace), asString(item.name) ?? '')}};
	}
}

function* itemDone(state: State, index: number, item: WireObject): Generator<IRStreamEvent> {
	if (!state.slots.has(index)) yield* open(state, index, item);
	const slot = state.slots.get(index);
	if (!slot || slot.ended) return;
	const args = asString(item.arguments);
	if (item.type === 'function_call' && !slot.argsSeen && args) yield {type: 'tool-args-delta', index: slot.block, json: args};
	if (item.type === 'custom_tool_call') yield {type: 'tool-args-delta', index: slot.block, json: JSON.stringify({input: asString(item.input) ?? slot.input})};
	const encrypted = asString(item.encrypted_content);
	if (item.type === 'reasoning' && encrypted) yield {type: 'signature', index: slot.block, signature: unwrapSignature(encrypted, 'openai')};
	slot.ended = true;
	yield {type: 'block-end', index: slot.block};
}

function* deltaEvent(state: State, event: WireObject): Generator<IRStreamEvent> {
	const slot = state.slots.get(asNumber(event.output_index) ?? -1);
	const delta = asString(event.delta) ?? '';
	if (!slot || delta === '') return;
	switch (event.type) {
		case 'response.output_text.delta':
		case 'response.refusal.delta':
			return yield {type: 'text-delta', index: slot.block, text: delta};
		case 'response.reasoning_summary_text.delta':
		case 'response.reasoning_text.delta':
			return yield {type: 'reasoning-delta', index: slot.block, text: delta};
		case 'response.function_call_arguments.delta':
			slot.argsSeen = true;
			return yield {type: 'tool-args-delta', index: slot.block, json: delta};
		case 'response.custom_tool_call_input.delta':
			slot.input += delta;
			return;
	}
}

function* finish(state: State, response: WireObject): Generator<IRStreamEvent> {
	for (const slot of state.slots.values()) {
		if (!slot.ended) yield {type: 'block-end', index: slot.block};
		slot.ended = true;
	}
	const reason = mapResponsesStatus(response.status, asObject(response.incomplete_details)?.reason, state.calls > 0);
	yield {type: 'finish', reason, usage: decodeResponsesUsage(asObject(response.usage))};
}

/** What this decoder and the passthrough reader (read-responses-stream.ts) say of a stream that cannot be read or ends too soon. */
export const responsesStreamProblems = {
	notJson: (data: string) => `The Responses upstream sent an event that is not JSON: ${data.slice(0, 200)}`,
	cutOff: 'The Responses upstream closed the stream before response.completed.',
};

/** The error a `response.failed` or an `error` event ends the stream with. */
export function terminalError(event: WireObject, response: WireObject): IRError {
	if (event.type === 'response.failed') return decodeResponsesError(200, {error: asObject(response.error) ?? {message: 'The upstream response failed.'}});
	return decodeResponsesError(200, isWireObject(event.error) ? event : {error: event});
}

/** One event → IR events; `done` when it ended the stream. */
function* eventsFor(state: State, event: WireObject): Generator<IRStreamEvent, boolean> {
	const response = asObject(event.response) ?? {};
	if (!state.started && event.type !== 'error') {
		state.started = true;
		yield {type: 'start', id: asString(response.id) ?? '', model: asString(response.model) ?? ''};
	}
	const index = asNumber(event.output_index) ?? -1;
	const item = asObject(event.item);
	switch (event.type) {
		case 'response.output_item.added':
			if (item) yield* open(state, index, item);
			return false;
		case 'response.output_item.done':
			if (item) yield* itemDone(state, index, item);
			return false;
		case 'response.reasoning_summary_part.added': {
			const slot = state.slots.get(index);
			if (slot && (asNumber(event.summary_index) ?? 0) > 0) yield {type: 'reasoning-delta', index: slot.block, text: '\n\n'};
			return false;
		}
		case 'response.completed':
		case 'response.incomplete':
			yield* finish(state, response);
			return true;
		case 'response.failed':
		case 'error':
			yield {type: 'error', error: terminalError(event, response)};
			return true;
		default:
			yield* deltaEvent(state, event);
			return false;
	}
}

/** SSE messages → IR events, ending with the terminal event's finish or error; a stream that just stops is an error. */
export async function* decodeResponsesStream(messages: AsyncIterable<SseMessage>, _ctx: TranslationContext): AsyncGenerator<IRStreamEvent> {
	const state: State = {started: false, nextBlock: 0, slots: new Map(), calls: 0};
	for await (const message of messages) {
		if (message.data.trim() === '[DONE]') continue;
		const event = parseJsonObject(message.data);
		if (!event) {
			yield {type: 'error', error: {kind: 'upstream', status: 502, message: responsesStreamProblems.notJson(message.data)}};
			return;
		}
		if (yield* eventsFor(state, event)) return;
	}
	yield {type: 'error', error: {kind: 'upstream', status: 502, message: responsesStreamProblems.cutOff}};
}
