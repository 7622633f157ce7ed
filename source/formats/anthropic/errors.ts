/**
 * Anthropic error bodies: `{"type":"error","error":{"type","message"}}`.
 * @see https://docs.anthropic.com/en/api/errors
 */
import {assertNever, type IRError, type IRErrorKind, type JsonObject} from '../../base/ir.js';

export function anthropicErrorType(kind: IRErrorKind): string {
	switch (kind) {
		case 'invalid_request':
			return 'invalid_request_error';
		case 'authentication':
			return 'authentication_error';
		case 'permission':
			return 'permission_error';
		case 'not_found':
			return 'not_found_error';
		case 'payload_too_large':
			return 'request_too_large';
		case 'rate_limit':
		case 'insufficient_quota':
			return 'rate_limit_error';
		case 'overloaded':
			return 'overloaded_error';
		case 'timeout':
			return 'timeout_error';
		case 'upstream':
		case 'not_implemented':
		case 'internal':
			return 'api_error';
		default:
			return assertNever(kind, 'error kind');
	}
}

export function renderAnthropicError(error: IRError): {status: number; body: JsonObject} {
	return {status: error.status, body: {type: 'error', error: {type: anthropicErrorType(error.kind), message: error.message}}};
}

/** Anthropic's error types → IR kinds; the status decides when the type is missing or new. */
function kindFromType(type: unknown): IRErrorKind | undefined {
	switch (type) {
		case 'invalid_request_error':
			return 'invalid_request';
		case 'authentication_error':
			return 'authentication';
		case 'permission_error':
			return 'permission';
		case 'not_found_error':
			return 'not_found';
		case 'request_too_large':
			return 'payload_too_large';
		case 'rate_limit_error':
			return 'rate_limit';
		case 'billing_error':
			return 'insufficient_quota';
		case 'overloaded_error':
			return 'overloaded';
		case 'timeout_error':
			return 'timeout';
		case 'api_error':
			return 'upstream';
		default:
			return undefined;
	}
}

function kindFromStatus(status: number): IRErrorKind {
	if (status === 401) return 'authentication';
	if (status === 402) return 'insufficient_quota';
	if (status === 403) return 'permission';
	if (status === 404) return 'not_found';
	if (status === 413) return 'payload_too_large';
	if (status === 429) return 'rate_limit';
	if (status === 504) return 'timeout';
	if (status === 529) return 'overloaded';
	if (status >= 400 && status < 500) return 'invalid_request';
	return 'upstream';
}

/** Mid-stream errors carry no HTTP status: use the one Anthropic documents for the type. */
const statusOfKind: Partial<Record<IRErrorKind, number>> = {
	invalid_request: 400,
	authentication: 401,
	insufficient_quota: 402,
	permission: 403,
	not_found: 404,
	payload_too_large: 413,
	rate_limit: 429,
	timeout: 504,
	overloaded: 529,
};

/**
 * An upstream Anthropic error body → IR error, keeping Anthropic's message.
 * `status` 0 means "unknown" (a mid-stream `event: error`).
 * @see https://docs.anthropic.com/en/api/errors#http-errors
 */
export function decodeAnthropicError(status: number, body: unknown): IRError {
	const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
	const type = typeof error === 'object' && error !== null && 'type' in error ? error.type : undefined;
	const message = typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : undefined;
	const kind = kindFromType(type) ?? kindFromStatus(status);
	const resolved = status > 0 ? status : statusOfKind[kind] ?? 500;
	const fallback = typeof body === 'string' && body.trim() !== '' ? body.slice(0, 500) : `Anthropic answered with HTTP ${resolved}.`;
	return {kind, status: resolved, message: message ?? fallback};
}
