/**
 * Request bodies as JSON, refused with a 400 (never a 500) when they cannot be used: not JSON, a
 * `__proto__` key (prototype poisoning, as Fastify's own parser refuses it), or nested deeper than
 * the limit — a body nested 10,000 deep parses, but every recursive step after it (re-encoding it
 * for the provider, validating it) would overflow the stack.
 */
import type {FastifyInstance, FastifyRequest} from 'fastify';
import {invalidRequest} from '../base/errors.js';
import {isJsonSpace} from '../formats/wire.js';

declare module 'fastify' {
	interface FastifyRequest {
		/** The JSON body's text as it arrived (for `clientBytes`). */
		jsonText: string | null;
	}
}

/** Whether `value` nests arrays and objects deeper than `limit`. Recursion is safe: it stops one level past the limit. */
export function exceedsDepth(value: unknown, limit: number): boolean {
	if (typeof value !== 'object' || value === null) return false;
	if (limit === 0) return true;
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) if (exceedsDepth(value[index], limit - 1)) return true;
		return false;
	}
	// A parsed body: plain objects with only their own keys.
	for (const name in value) if (exceedsDepth((value as Record<string, unknown>)[name], limit - 1)) return true;
	return false;
}

function refuseProto(key: string, child: unknown): unknown {
	if (key === '__proto__') throw new SyntaxError('the key "__proto__" is not allowed');
	return child;
}

export function parseJsonBody(text: string, maxDepth: number): unknown {
	if (text.trim() === '') throw invalidRequest('The request body is empty: send a JSON object.');
	let value: unknown;
	try {
		// The reviver costs a second pass: only a body that mentions the key pays for it. (Searched
		// without its quotes: a pattern that starts with `"`, JSON's commonest character, is found
		// fifty times slower — 57 against 1 µs in a 180 KB body.)
		value = text.includes('__proto__') ? JSON.parse(text, refuseProto) : JSON.parse(text);
	} catch (error) {
		throw invalidRequest(`The request body is not valid JSON (${error instanceof Error ? error.message : String(error)}). Send a JSON object.`);
	}
	if (exceedsDepth(value, maxDepth)) throw invalidRequest(`The request body is nested deeper than ${maxDepth} levels. Flatten it; no API this gateway serves needs that depth.`);
	return value;
}

/** Replace Fastify's JSON parser with one that refuses what the gateway cannot handle, as a 400. */
export function useJsonBodies(app: FastifyInstance, maxDepth: number): void {
	app.decorateRequest('jsonText', null);
	app.removeContentTypeParser('application/json');
	app.addContentTypeParser('application/json', {parseAs: 'string'}, (request, body, done) => {
		try {
			const value = parseJsonBody(body as string, maxDepth);
			request.jsonText = body as string;
			done(null, value);
		} catch (error) {
			done(error as Error, undefined);
		}
	});
}

/**
 * Whether `text` has an escaped letter, digit or underscore (`\u0041`–`\u007f`): no JSON writer
 * needs one, and one can spell a key the plain search misses. (A scan for `\u00`, then its two
 * digits: a case-blind pattern cannot be searched for quickly, 18 against 1 µs in a 180 KB body.)
 */
function hasEscapedAscii(text: string): boolean {
	for (let at = text.indexOf('\\u00'); at !== -1; at = text.indexOf('\\u00', at + 4)) {
		const high = text.charCodeAt(at + 4);
		const low = text.charCodeAt(at + 5) | 0x20; // a hex digit's letter in lower case; digits stay digits
		if (high >= 0x34 && high <= 0x37 && ((low >= 0x30 && low <= 0x39) || (low >= 0x61 && low <= 0x66))) return true;
	}
	return false;
}

/**
 * Whether any of `keys` is a key of `text` (a JSON text) twice, at any depth: `"key"`, whitespace,
 * `:`. Found from the colons, which are rare beside the quotes and letters a search for `"key"`
 * stops at all the time (V8 looks for a pattern's first character, then compares): one pass for
 * every key, 29 µs over a 177 KB conversation where a search for each key took 15 to 94. A key
 * spelled with an escape is not seen here; `hasEscapedAscii` refuses those texts first.
 */
function keyTwice(text: string, keys: readonly string[]): boolean {
	const seen = keys.map(() => 0);
	for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
		let end = colon - 1;
		let code = text.charCodeAt(end);
		while (isJsonSpace(code)) code = text.charCodeAt(--end);
		if (code !== 0x22) continue;
		for (let index = 0; index < keys.length; index++) {
			const key = keys[index]!;
			const start = end - key.length;
			if (text.charCodeAt(start - 1) === 0x22 && text.startsWith(key, start) && ++seen[index]! === 2) return true;
		}
	}
	return false;
}

/**
 * The bytes the client sent, to forward instead of re-encoding `body` — when `body` is still the
 * object parsed from them, and each of `once` is a key in them at most once (so no key the
 * gateway routes or meters by is duplicated: JSON.parse keeps a duplicate's last value, a provider
 * may keep its first). A body that escapes an ASCII character with `\u` could spell a key in a way
 * the search cannot see, so it is re-encoded. Null when the body must be re-encoded.
 */
export function clientBytes(request: FastifyRequest, body: unknown, once: readonly string[]): string | null {
	const text = request.jsonText;
	if (text === null || request.body !== body) return null;
	if (once.length === 0) return text;
	if (hasEscapedAscii(text)) return null;
	if (keyTwice(text, once)) return null;
	return text;
}

/**
 * Drop the client's text from its request: no attempt will forward it again. It is as large as the
 * request, and it would otherwise live as long as the answer does (minutes, for a stream) beside
 * the parsed body and the bytes undici is sending. `clientBytes` gives null after it.
 */
export function forgetClientBytes(request: FastifyRequest): void {
	request.jsonText = null;
}
