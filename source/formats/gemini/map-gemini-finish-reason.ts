/**
 * Gemini `finishReason` ↔ IR finish reason.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
import {assertNever, type IRFinishReason} from '../../base/ir.js';

/**
 * Gemini says STOP when the model called functions, so the caller tells us whether the answer
 * holds function calls. MAX_TOKENS stays `length` even then: a call cut off by the limit is not a
 * finished tool call.
 */
export function mapGeminiFinishReason(reason: string | undefined, hasFunctionCalls: boolean): IRFinishReason {
	switch (reason) {
		case 'STOP':
		case undefined:
			return hasFunctionCalls ? 'tool_calls' : 'stop';
		case 'MAX_TOKENS':
		// CONTINUATION: the per-request token limit was hit and the answer is not complete.
		case 'CONTINUATION':
			return 'length';
		case 'SAFETY':
		case 'RECITATION':
		case 'BLOCKLIST':
		case 'PROHIBITED_CONTENT':
		case 'SPII':
		case 'IMAGE_SAFETY':
		case 'IMAGE_PROHIBITED_CONTENT':
		case 'IMAGE_RECITATION':
			return 'content_filter';
		default:
			// LANGUAGE, MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, TOO_MANY_TOOL_CALLS, OTHER, …
			return 'other';
	}
}

export function toGeminiFinishReason(reason: IRFinishReason): string {
	switch (reason) {
		case 'stop':
		case 'stop_sequence':
		case 'tool_calls':
			return 'STOP';
		case 'length':
			return 'MAX_TOKENS';
		case 'content_filter':
		case 'refusal':
			return 'SAFETY';
		case 'error':
		case 'other':
			return 'OTHER';
		default:
			return assertNever(reason, 'finish reason');
	}
}
