/**
 * `stop_reason` ↔ IR finish reason.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
import {assertNever, type IRFinishReason} from '../../base/ir.js';
import type {AnthropicStopReason} from './schema.js';

export function decodeAnthropicStopReason(reason: unknown): IRFinishReason {
	switch (reason) {
		case 'end_turn':
			return 'stop';
		// A tool call cut off by the limit also ends here, never with `tool_use`.
		case 'max_tokens':
		case 'model_context_window_exceeded':
			return 'length';
		case 'stop_sequence':
			return 'stop_sequence';
		case 'tool_use':
			return 'tool_calls';
		case 'refusal':
			return 'refusal';
		default:
			// `pause_turn` (a server-tool loop paused) and anything newer have no neutral meaning.
			return 'other';
	}
}

export function encodeAnthropicStopReason(reason: IRFinishReason): AnthropicStopReason {
	switch (reason) {
		case 'stop':
		case 'error':
		case 'other':
			return 'end_turn';
		case 'length':
			return 'max_tokens';
		case 'tool_calls':
			return 'tool_use';
		case 'stop_sequence':
			return 'stop_sequence';
		case 'content_filter':
		case 'refusal':
			return 'refusal';
		default:
			return assertNever(reason, 'finish reason');
	}
}
