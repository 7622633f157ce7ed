import {assertNever, type IRFinishReason} from '../../base/ir.js';

/**
 * OpenAI `finish_reason` → IR. OpenAI never says which stop sequence matched, so `stop` stays `stop`;
 * the deprecated `function_call` is a tool call; `null` or a value we don't know (some compatible
 * servers send `eos`, `abort`…) is `other`.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
export function mapOpenaiFinishReason(reason: unknown): IRFinishReason {
	switch (reason) {
		case 'stop':
			return 'stop';
		case 'length':
			return 'length';
		case 'tool_calls':
		case 'function_call':
			return 'tool_calls';
		case 'content_filter':
			return 'content_filter';
		default:
			return 'other';
	}
}

/**
 * IR → OpenAI `finish_reason`. OpenAI has no `refusal`: Anthropic's refusal stop reason is its
 * safety classifier stepping in, which is what `content_filter` means. A tool call cut off by the
 * token limit stays `length` (the client must not run half a call).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
export function toOpenaiFinishReason(reason: IRFinishReason, hasToolCalls: boolean): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
	switch (reason) {
		case 'length':
			return 'length';
		case 'tool_calls':
			return 'tool_calls';
		case 'content_filter':
		case 'refusal':
			return 'content_filter';
		case 'stop':
		case 'stop_sequence':
		case 'error':
		case 'other':
			// Gemini answers STOP even when it called a function; OpenAI clients loop on `tool_calls`.
			return hasToolCalls ? 'tool_calls' : 'stop';
		default:
			return assertNever(reason, 'finish reason');
	}
}
