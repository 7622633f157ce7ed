import {assertNever, type IRError} from '../../base/ir.js';

/** Words providers use for a prompt over the context window (OpenAI, Anthropic, Gemini, vLLM). */
const contextWindow = /context[ _](length|window)|prompt is too long|too many tokens|input token count .* exceeds|maximum context/i;

/**
 * The `error.code` a Responses client acts on. Codex reads it from `response.failed`:
 * `context_length_exceeded` and `insufficient_quota` stop the turn with a clear message,
 * `rate_limit_exceeded` is retried after the delay the message names ("try again in 7s"),
 * `server_is_overloaded` and everything else are retried.
 * @see https://github.com/openai/codex/blob/main/codex-rs/codex-api/src/sse/responses.rs
 */
export function responsesErrorCode(error: IRError): string {
	if (error.code === 'context_length_exceeded' || contextWindow.test(error.message)) return 'context_length_exceeded';
	switch (error.kind) {
		case 'rate_limit':
			return 'rate_limit_exceeded';
		case 'insufficient_quota':
			return 'insufficient_quota';
		case 'overloaded':
			return 'server_is_overloaded';
		case 'invalid_request':
		case 'authentication':
		case 'permission':
		case 'not_found':
		case 'payload_too_large':
			return error.code ?? 'invalid_request';
		case 'timeout':
		case 'upstream':
		case 'not_implemented':
		case 'internal':
			return 'server_error';
		default:
			return assertNever(error.kind, 'error kind');
	}
}

/** A rate-limit message that names its delay the way Codex parses it, when the provider gave one in `retry-after`. */
export function responsesErrorMessage(error: IRError): string {
	if (error.kind === 'rate_limit' && error.retryAfter && /^\d+(\.\d+)?$/.test(error.retryAfter) && !/try again in/i.test(error.message)) {
		return `${error.message} Please try again in ${error.retryAfter}s.`;
	}
	return error.message;
}
