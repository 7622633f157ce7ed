/** Reading what every format's clients send outside the body: headers and the query string. */
import {invalidRequest} from '../base/errors.js';
import type {JsonObject} from '../base/ir.js';
import type {WireRequest} from './adapter.js';

/** A header's first value, trimmed; undefined when absent or empty. */
export function readHeader(request: Pick<WireRequest, 'headers'>, name: string): string | undefined {
	const value = request.headers[name];
	const first = Array.isArray(value) ? value[0] : value;
	return first?.trim() || undefined;
}

/** The token of `Authorization: Bearer …`. */
export function readBearer(request: Pick<WireRequest, 'headers'>): string | undefined {
	const value = readHeader(request, 'authorization');
	const match = value ? /^Bearer\s+(.+)$/i.exec(value) : null;
	return match?.[1]?.trim() || undefined;
}

export function readQuery(request: Pick<WireRequest, 'query'>, name: string): string | undefined {
	const value = request.query[name];
	return typeof value === 'string' && value ? value : undefined;
}

/** The `model` field every body-carried format requires, trimmed. */
export function requireModel(body: JsonObject): string {
	const model = body.model;
	if (typeof model !== 'string' || !model.trim()) throw invalidRequest('The request has no "model": name the model to use (GET /v1/models lists them).', 'model');
	return model.trim();
}

/** A path segment as the client percent-encoded it; malformed encoding is the client's error, not ours. */
export function decodePathSegment(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		throw invalidRequest(`The URL path "${text.slice(0, 100)}" is not valid percent-encoding.`);
	}
}

export const sseContentType = 'text/event-stream; charset=utf-8';
