/**
 * The streaming life of one output item: the events that open it, carry its deltas and close it,
 * in the order the API sends them (output_item.added → content or summary part → deltas → .done
 * events → output_item.done).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import type {IRCitation, IRSignature, JsonObject} from '../../base/ir.js';
import type {ToolKinds} from './decode-responses-tools.js';
import {callItem, customInput, encodeUrlCitation, messageItem, reasoningItem} from './encode-responses-output.js';
import {newItemId} from './ids.js';
import type {OutputItem} from './schema.js';

export type StreamEvent = {readonly type: string} & JsonObject;

/** An output item being streamed. `text` accumulates the message text, reasoning text or call arguments. */
export type StreamItem = {
	readonly outputIndex: number;
	readonly id: string;
	readonly kind: 'message' | 'reasoning' | 'function' | 'custom' | 'local_shell';
	readonly call?: {readonly id: string; readonly name: string};
	text: string;
	signature?: IRSignature;
	/** Reasoning: the summary part has been announced. */
	partOpen: boolean;
	/** Message: the sources its text cites, annotated when it closes (their ranges are known then). */
	readonly citations: IRCitation[];
	final?: OutputItem;
};

const emptyText = {type: 'output_text', annotations: [], logprobs: [], text: ''};

export function openMessage(outputIndex: number): {item: StreamItem; events: StreamEvent[]} {
	const item: StreamItem = {outputIndex, id: newItemId('msg'), kind: 'message', text: '', partOpen: false, citations: []};
	const events: StreamEvent[] = [
		{type: 'response.output_item.added', output_index: outputIndex, item: {id: item.id, type: 'message', status: 'in_progress', content: [], role: 'assistant'}},
		{type: 'response.content_part.added', item_id: item.id, output_index: outputIndex, content_index: 0, part: emptyText},
	];
	return {item, events};
}

export function openReasoning(outputIndex: number): {item: StreamItem; events: StreamEvent[]} {
	const item: StreamItem = {outputIndex, id: newItemId('rs'), kind: 'reasoning', text: '', partOpen: false, citations: []};
	return {item, events: [{type: 'response.output_item.added', output_index: outputIndex, item: reasoningItem(item.id, '', undefined)}]};
}

export function openCall(outputIndex: number, call: {id: string; name: string}, kinds: ToolKinds): {item: StreamItem; events: StreamEvent[]} {
	const opened = callItem({...call, arguments: ''}, kinds, undefined, 'in_progress');
	const kind = opened.type === 'custom_tool_call' ? 'custom' : opened.type === 'local_shell_call' ? 'local_shell' : 'function';
	const item: StreamItem = {outputIndex, id: opened.id, kind, call, text: '', partOpen: false, citations: []};
	return {item, events: [{type: 'response.output_item.added', output_index: outputIndex, item: opened}]};
}

/** The delta events for a piece of text, reasoning or arguments. Custom and shell calls are sent whole when they close. */
export function deltaEvents(item: StreamItem, delta: string): StreamEvent[] {
	item.text += delta;
	// Written out rather than spread from a shared `at`: keys after a spread take V8's slow path, per delta.
	switch (item.kind) {
		case 'message':
			return [{type: 'response.output_text.delta', item_id: item.id, output_index: item.outputIndex, content_index: 0, delta, logprobs: []}];
		case 'reasoning': {
			const opened: StreamEvent[] = item.partOpen ? [] : [{type: 'response.reasoning_summary_part.added', item_id: item.id, output_index: item.outputIndex, summary_index: 0, part: {type: 'summary_text', text: ''}}];
			item.partOpen = true;
			return [...opened, {type: 'response.reasoning_summary_text.delta', item_id: item.id, output_index: item.outputIndex, summary_index: 0, delta}];
		}
		case 'function':
			return [{type: 'response.function_call_arguments.delta', item_id: item.id, output_index: item.outputIndex, delta}];
		case 'custom':
		case 'local_shell':
			return [];
	}
}

function closingEvents(item: StreamItem): StreamEvent[] {
	const at = {item_id: item.id, output_index: item.outputIndex};
	switch (item.kind) {
		case 'message': {
			const annotations = item.citations.map(citation => encodeUrlCitation(citation, 0, item.text.length));
			return [
				...annotations.map((annotation, index) => ({type: 'response.output_text.annotation.added', ...at, content_index: 0, annotation_index: index, annotation})),
				{type: 'response.output_text.done', ...at, content_index: 0, text: item.text, logprobs: []},
				{type: 'response.content_part.done', ...at, content_index: 0, part: {...emptyText, text: item.text, annotations}},
			];
		}
		case 'reasoning':
			if (!item.partOpen) return [];
			return [
				{type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text: item.text},
				{type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: {type: 'summary_text', text: item.text}},
			];
		case 'function':
			return [{type: 'response.function_call_arguments.done', ...at, arguments: item.text}];
		case 'custom': {
			const input = customInput(item.text);
			return [
				...(input ? [{type: 'response.custom_tool_call_input.delta', ...at, delta: input}] : []),
				{type: 'response.custom_tool_call_input.done', ...at, input},
			];
		}
		case 'local_shell':
			return [];
	}
}

function finalItem(item: StreamItem, kinds: ToolKinds): OutputItem {
	switch (item.kind) {
		case 'message':
			return messageItem(item.id, item.text, 'completed', item.citations.map(citation => encodeUrlCitation(citation, 0, item.text.length)));
		case 'reasoning':
			return reasoningItem(item.id, item.text, item.signature);
		case 'function':
		case 'custom':
		case 'local_shell':
			return callItem({...item.call!, arguments: item.text}, kinds, item.id, 'completed');
	}
}

/** Close an item: its `.done` events, then `output_item.done` with the whole item (what Codex reads). */
export function closeItem(item: StreamItem, kinds: ToolKinds): StreamEvent[] {
	if (item.final) return [];
	// A call without arguments still gets one `.delta` before `.done`, as OpenAI streams it: clients that build arguments from deltas see "{}".
	const filler = item.kind === 'function' && item.text === '' ? deltaEvents(item, '{}') : [];
	if (item.kind !== 'message' && item.kind !== 'reasoning' && item.text === '') item.text = '{}';
	item.final = finalItem(item, kinds);
	return [...filler, ...closingEvents(item), {type: 'response.output_item.done', output_index: item.outputIndex, item: item.final}];
}
