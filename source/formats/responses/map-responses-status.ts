import {assertNever, type IRFinishReason, type JsonObject} from '../../base/ir.js';
import type {ResponseStatus} from './schema.js';

export type Outcome = {readonly status: Extract<ResponseStatus, 'completed' | 'incomplete'>; readonly incompleteDetails: JsonObject | null};

/**
 * IR finish reason → Responses `status` and `incomplete_details`. The Responses API has no finish
 * reason: an answer is `completed` (tool calls included), or `incomplete` because of the token limit
 * (`max_output_tokens`) or the content filter.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-incomplete_details
 */
export function toResponsesOutcome(reason: IRFinishReason): Outcome {
	switch (reason) {
		case 'length':
			return {status: 'incomplete', incompleteDetails: {reason: 'max_output_tokens'}};
		case 'content_filter':
		case 'refusal':
			return {status: 'incomplete', incompleteDetails: {reason: 'content_filter'}};
		case 'stop':
		case 'stop_sequence':
		case 'tool_calls':
		case 'error':
		case 'other':
			return {status: 'completed', incompleteDetails: null};
		default:
			return assertNever(reason, 'finish reason');
	}
}

/** Responses `status` + `incomplete_details.reason` → IR finish reason; a completed answer with calls finishes with `tool_calls`. */
export function mapResponsesStatus(status: unknown, incompleteReason: unknown, hasToolCalls: boolean): IRFinishReason {
	if (status === 'incomplete') return incompleteReason === 'content_filter' ? 'content_filter' : 'length';
	if (status === 'completed') return hasToolCalls ? 'tool_calls' : 'stop';
	return 'other';
}
