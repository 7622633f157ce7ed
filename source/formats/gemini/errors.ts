/**
 * Gemini (Google API) error bodies: `{"error":{"code","message","status"}}` with canonical status names.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
import {assertNever, type IRError, type IRErrorKind, type JsonObject} from '../../base/ir.js';
import {isWireObject} from '../wire.js';
import {pick, pickRecord, pickString} from './schema.js';

export function geminiStatus(kind: IRErrorKind): string {
	switch (kind) {
		case 'invalid_request':
		case 'payload_too_large':
			return 'INVALID_ARGUMENT';
		case 'authentication':
			return 'UNAUTHENTICATED';
		case 'permission':
			return 'PERMISSION_DENIED';
		case 'not_found':
			return 'NOT_FOUND';
		case 'rate_limit':
		case 'insufficient_quota':
			return 'RESOURCE_EXHAUSTED';
		case 'overloaded':
		case 'upstream':
			return 'UNAVAILABLE';
		case 'timeout':
			return 'DEADLINE_EXCEEDED';
		case 'not_implemented':
			return 'UNIMPLEMENTED';
		case 'internal':
			return 'INTERNAL';
		default:
			return assertNever(kind, 'error kind');
	}
}

export function renderGeminiError(error: IRError): {status: number; body: JsonObject} {
	return {status: error.status, body: {error: {code: error.status, message: error.message, status: geminiStatus(error.kind)}}};
}

function kindFromStatusName(name: string | undefined): IRErrorKind | undefined {
	switch (name) {
		case 'INVALID_ARGUMENT':
		case 'FAILED_PRECONDITION':
		case 'OUT_OF_RANGE':
			return 'invalid_request';
		case 'UNAUTHENTICATED':
			return 'authentication';
		case 'PERMISSION_DENIED':
			return 'permission';
		case 'NOT_FOUND':
			return 'not_found';
		case 'RESOURCE_EXHAUSTED':
			return 'rate_limit';
		case 'UNAVAILABLE':
			return 'overloaded';
		case 'DEADLINE_EXCEEDED':
			return 'timeout';
		case 'UNIMPLEMENTED':
			return 'not_implemented';
		case 'INTERNAL':
		case 'UNKNOWN':
		case 'ABORTED':
		case 'CANCELLED':
		case 'DATA_LOSS':
			return 'upstream';
		default:
			return undefined;
	}
}

function kindFromHttpStatus(status: number): IRErrorKind {
	if (status === 400 || status === 422) return 'invalid_request';
	if (status === 401) return 'authentication';
	if (status === 403) return 'permission';
	if (status === 404) return 'not_found';
	if (status === 413) return 'payload_too_large';
	if (status === 429) return 'rate_limit';
	if (status === 503) return 'overloaded';
	if (status === 504) return 'timeout';
	if (status === 501) return 'not_implemented';
	return 'upstream';
}

type ErrorDetails = {readonly reason?: string; readonly retryDelay?: string};

/** `details[]` carries google.rpc.ErrorInfo (reason, e.g. API_KEY_INVALID) and RetryInfo (retryDelay "34.4s"). */
function readDetails(details: unknown): ErrorDetails {
	let reason: string | undefined;
	let retryDelay: string | undefined;
	for (const detail of Array.isArray(details) ? details : []) {
		if (!isWireObject(detail)) continue;
		reason ??= pickString(detail, 'reason');
		retryDelay ??= pickString(detail, 'retryDelay');
	}
	return {reason, retryDelay};
}

/** "34.4s" → "35": retry-after takes whole seconds. */
function retryAfterSeconds(delay: string | undefined): string | undefined {
	const match = delay === undefined ? null : /^(\d+(?:\.\d+)?)s$/.exec(delay);
	return match ? String(Math.ceil(Number(match[1]))) : undefined;
}

/**
 * An upstream Gemini error answer → IR error, keeping Google's message. The body may be wrapped in
 * an array when the request was a streamGenerateContent without alt=sse.
 * Gemini answers a bad API key with 400 INVALID_ARGUMENT + reason API_KEY_INVALID: that is an
 * authentication failure, whatever the status says.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export function decodeGeminiError(status: number, body: unknown): IRError {
	const root = Array.isArray(body) ? body[0] : body;
	const error = isWireObject(root) ? pickRecord(root, 'error') : undefined;
	if (!error) {
		const text = typeof body === 'string' && body.trim() !== '' ? body.trim() : `Gemini answered HTTP ${status} without an error body.`;
		return {kind: kindFromHttpStatus(status), status, message: text};
	}
	const statusName = pickString(error, 'status');
	const {reason, retryDelay} = readDetails(pick(error, 'details'));
	const badKey = reason === 'API_KEY_INVALID';
	const kind = badKey ? 'authentication' : (kindFromStatusName(statusName) ?? kindFromHttpStatus(status));
	const code = reason ?? statusName;
	const retryAfter = retryAfterSeconds(retryDelay);
	return {
		kind,
		// 401 like every other provider's refused key, so the proxy says the channel's key is wrong, not the client's.
		status: badKey ? 401 : status,
		message: pickString(error, 'message') ?? `Gemini answered HTTP ${status} (${statusName ?? 'no status'}).`,
		...(code === undefined ? {} : {code}),
		...(retryAfter === undefined ? {} : {retryAfter}),
	};
}
