/**
 * OpenAI error bodies: `{"error":{"message","type","param","code"}}`.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import {assertNever, type IRError, type IRErrorKind, type JsonObject} from '../../base/ir.js';

function typeOf(kind: IRErrorKind): string {
	switch (kind) {
		case 'invalid_request':
		case 'not_found':
		case 'payload_too_large':
		case 'authentication':
			return 'invalid_request_error';
		case 'permission':
			return 'permission_error';
		case 'rate_limit':
			return 'rate_limit_error';
		case 'insufficient_quota':
			return 'insufficient_quota';
		case 'overloaded':
		case 'timeout':
		case 'upstream':
		case 'not_implemented':
		case 'internal':
			return 'server_error';
		default:
			return assertNever(kind, 'error kind');
	}
}

export function renderOpenAIError(error: IRError): {status: number; body: JsonObject} {
	return {
		status: error.status,
		body: {error: {message: error.message, type: typeOf(error.kind), param: error.param ?? null, code: error.code ?? null}},
	};
}

/** The kind of an upstream failure: the HTTP status decides; `type`/`code` only split 429 and fill in when the status is 200 (mid-stream). */
function kindOf(status: number, type: string | undefined, code: string | undefined): IRErrorKind {
	if (status === 402) return 'insufficient_quota';
	if (status === 429) return type === 'insufficient_quota' || code === 'insufficient_quota' ? 'insufficient_quota' : 'rate_limit';
	if (status === 401) return 'authentication';
	if (status === 403) return 'permission';
	if (status === 404) return 'not_found';
	if (status === 408 || status === 504) return 'timeout';
	if (status === 413) return 'payload_too_large';
	if (status === 501) return 'not_implemented';
	if (status === 503 || status === 529) return 'overloaded';
	if (status >= 500) return 'upstream';
	if (status >= 400) return 'invalid_request';
	return 'upstream';
}

/** Mid-stream errors arrive under a 200: derive the status their `type` stands for. */
function statusOfType(type: string | undefined, code: string | undefined): number {
	if (code !== undefined && /^[45]\d\d$/.test(code)) return Number(code);
	switch (type) {
		case 'invalid_request_error':
			return 400;
		case 'authentication_error':
			return 401;
		case 'permission_error':
			return 403;
		case 'not_found_error':
			return 404;
		case 'rate_limit_error':
		case 'insufficient_quota':
			return 429;
		default:
			return 500;
	}
}

type WireError = {message?: string; type?: string; code?: string; param?: string};

function text(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return String(value);
	return undefined;
}

/** A message that is not a string (Mistral nests FastAPI's `{detail: […]}` in it) is shown as JSON. */
function described(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	return text(value) ?? JSON.stringify(value);
}

/**
 * Read an error body. OpenAI nests it under `error`; compatible servers also send the fields at the
 * top level (`{"message","type","code"}`), a bare string under `error`, or FastAPI's `detail` (Mistral 422).
 */
function readWireError(body: unknown): WireError {
	if (typeof body === 'string') return {message: body.trim() || undefined};
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
	const record = body as Record<string, unknown>;
	const inner = record.error;
	if (typeof inner === 'string') return {message: inner};
	const source = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : record;
	return {message: described(source.message) ?? described(source.detail), type: text(source.type), code: text(source.code), param: text(source.param)};
}

/**
 * An upstream OpenAI(-compatible) error answer → IR error, keeping the provider's message.
 * `status` 200 means the error came inside a stream.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export function decodeOpenaiError(status: number, body: unknown): IRError {
	const wire = readWireError(body);
	const effectiveStatus = status >= 400 ? status : statusOfType(wire.type, wire.code);
	return {
		kind: kindOf(effectiveStatus, wire.type, wire.code),
		status: effectiveStatus,
		message: wire.message ?? `The OpenAI-compatible upstream answered ${effectiveStatus} without an error message.`,
		code: wire.code,
		param: wire.param,
	};
}
