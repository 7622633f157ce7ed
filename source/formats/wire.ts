/**
 * The one place formats/ reads wire JSON.
 *
 * - Lenient readers (`asString`, `asObject` …) for what providers answer: a field of the wrong type
 *   reads as absent, because OpenAI-compatible servers send `null` where OpenAI omits a field.
 * - Strict, path-aware readers (`wireReaders(wording)`) for what clients send: a present field of the
 *   wrong type is a 400 that names its path, worded the way the client's own provider words it, so
 *   an SDK user finds the field. Each format binds them once, with its provider's wording.
 * - JSON text: `parseJson` / `parseJsonObject` (undefined when the text is not JSON, never a throw),
 *   and `compact` / `toJsonValue` to build bodies without `undefined` keys.
 */
import {invalidRequest} from '../base/errors.js';
import type {JsonObject, JsonValue} from '../base/ir.js';

/** A JSON object as read off the wire: its values are unknown until narrowed. */
export type WireObject = {readonly [key: string]: unknown};

export function isWireObject(value: unknown): value is WireObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For values that came out of JSON.parse: a plain object's values are JSON already. */
export function isJsonObject(value: unknown): value is JsonObject {
	return isWireObject(value);
}

/* Lenient readers: a value of another type reads as undefined. */

export const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const asNumber = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export const asObject = (value: unknown): WireObject | undefined => (isWireObject(value) ? value : undefined);

export const asJsonObject = (value: unknown): JsonObject | undefined => (isJsonObject(value) ? value : undefined);

export const asArray = (value: unknown): readonly unknown[] | undefined => (Array.isArray(value) ? value : undefined);

/** JSON's whitespace: space, line feed, carriage return, tab (character codes). */
export const isJsonSpace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** A number as JSON.stringify writes it (finite numbers as String() does; NaN and the infinities as null), for JSON written as text. */
export const jsonNumber = (value: number): string => (Number.isFinite(value) ? String(value) : 'null');

/** Whether `text` has the outline of a JSON object (`{` … `}`, whitespace around): a cheap check where a parse is not needed. */
export function looksLikeJsonObject(text: string): boolean {
	let start = 0;
	let end = text.length - 1;
	while (start <= end && isJsonSpace(text.charCodeAt(start))) start++;
	while (end > start && isJsonSpace(text.charCodeAt(end))) end--;
	return end > start && text.charCodeAt(start) === 0x7b && text.charCodeAt(end) === 0x7d;
}

/** JSON text → its value, or undefined when it is not JSON (JSON itself has no undefined). */
export function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/** JSON text → an object, or undefined when it is not JSON or not an object. */
export function parseJsonObject(text: string): JsonObject | undefined {
	return asJsonObject(parseJson(text));
}

/** Tool-call arguments are JSON text on the OpenAI platform; some compatible servers send an object instead. */
export function argumentsText(value: unknown): string {
	if (typeof value === 'string') return value.trim() === '' ? '{}' : value;
	if (value === undefined || value === null) return '{}';
	return JSON.stringify(value);
}

/* Building bodies. */

/** A JSON object from entries, leaving out the undefined ones (so no `undefined` reaches the wire). */
export function compact(entries: {readonly [key: string]: JsonValue | undefined}): JsonObject {
	return definedOnly(entries) as JsonObject;
}

/**
 * The object without its `undefined` fields, so IR objects compare and log cleanly. A loop, not
 * fromEntries(entries().filter()): every Anthropic and Gemini request is decoded through here, and
 * answers and stream frames are built through compact().
 */
export function definedOnly<T extends object>(value: T): T {
	const out: Record<string, unknown> = {};
	for (const key in value) if (Object.hasOwn(value, key) && value[key] !== undefined) out[key] = value[key];
	return out as T;
}

/**
 * Typed wire objects carry optional keys as `undefined`; drop them so the body is plain JSON. Copy on
 * change: an object or array with nothing to drop is returned as it is (a request's messages, when
 * their encoder left no `undefined` in them), so a long conversation is not copied once more for
 * every request translated. What it returns shares those parts with its argument: neither is
 * changed afterwards (bodies are serialised, never edited).
 */
export function toJsonValue(value: unknown): JsonValue {
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
	if (Array.isArray(value)) {
		let out: JsonValue[] | null = null;
		for (let index = 0; index < value.length; index++) {
			const item: unknown = value[index];
			const json = toJsonValue(item);
			if (out) out.push(json);
			else if (json !== item) {
				out = (value as JsonValue[]).slice(0, index);
				out.push(json);
			}
		}
		return out ?? (value as JsonValue[]);
	}
	if (isWireObject(value)) {
		// for…in without entry arrays: every request body a translation encodes goes through here.
		let out: JsonObject | null = null;
		for (const key in value) {
			if (!Object.hasOwn(value, key)) continue;
			const item = value[key];
			const json = item === undefined ? undefined : toJsonValue(item);
			if (out) {
				if (json !== undefined) out[key] = json;
			} else if (json !== item || item === undefined) {
				out = copyBefore(value, key);
				if (json !== undefined) out[key] = json;
			}
		}
		return out ?? (value as JsonObject);
	}
	return null;
}

/** The keys of `value` before `stop`, which were JSON already. */
function copyBefore(value: WireObject, stop: string): JsonObject {
	const out: JsonObject = {};
	for (const key in value) {
		if (key === stop) break;
		if (Object.hasOwn(value, key)) out[key] = value[key] as JsonValue;
	}
	return out;
}

export function toJsonObject(value: object): JsonObject {
	return asJsonObject(toJsonValue(value)) ?? {};
}

/* Strict readers for client requests. */

export type NumberRule = {readonly integer?: boolean; readonly min?: number; readonly max?: number};

/** What a field should have been, for the error message. */
export type Expected = {
	readonly kind: 'string' | 'number' | 'boolean' | 'object' | 'array';
	/** Absent is not allowed. */
	readonly required: boolean;
	readonly rule?: NumberRule;
	readonly got: unknown;
};

/** How a provider words a bad field (the message of the 400), given the field's path. */
export type Wording = (path: string, expected: Expected) => string;

/** The OpenAI platform's wording (chat completions and Responses): "`messages[0].role` must be a string." */
export const backtickWording: Wording = (path, {kind, required}) => {
	const what = {string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', array: 'an array'}[kind];
	return required && kind === 'string' ? `\`${path}\` is required and must be a string.` : `\`${path}\` must be ${what}.`;
};

function describeRule(rule: NumberRule): string {
	const kind = rule.integer ? 'an integer' : 'a number';
	if (rule.min !== undefined && rule.max !== undefined) return `${kind} from ${rule.min} to ${rule.max}`;
	if (rule.min !== undefined) return `${kind} ≥ ${rule.min}`;
	return kind;
}

/** Anthropic's (pydantic) wording, with dotted paths: "messages.0.content.1.text: Field required (a string)." */
export const pydanticWording: Wording = (path, {kind, rule, got}) => {
	switch (kind) {
		case 'string':
			return `${path}: Field required (a string).`;
		case 'number':
			return `${path}: expected ${describeRule(rule ?? {})}, got ${JSON.stringify(got)}.`;
		case 'boolean':
			return `${path}: expected true or false.`;
		case 'object':
			return `${path}: expected an object.`;
		case 'array':
			return `${path}: expected an array.`;
		default:
			return kind satisfies never;
	}
};

export type WireReaders = {
	requireString(value: unknown, path: string): string;
	optionalString(value: unknown, path: string): string | undefined;
	optionalNumber(value: unknown, path: string, rule?: NumberRule): number | undefined;
	optionalBoolean(value: unknown, path: string): boolean | undefined;
	requireObject(value: unknown, path: string): WireObject;
	optionalObject(value: unknown, path: string): WireObject | undefined;
	requireArray(value: unknown, path: string): readonly unknown[];
	optionalArray(value: unknown, path: string): readonly unknown[] | undefined;
	optionalStringArray(value: unknown, path: string): string[] | undefined;
};

const fitsRule = (value: number, rule: NumberRule): boolean =>
	(!rule.integer || Number.isInteger(value)) && (rule.min === undefined || value >= rule.min) && (rule.max === undefined || value <= rule.max);

/** Strict readers that answer a bad field with a 400 in `wording`; absent means undefined or null. */
export function wireReaders(wording: Wording): WireReaders {
	const fail = (path: string, expected: Expected): never => {
		throw invalidRequest(wording(path, expected), path);
	};
	const absent = (value: unknown): value is undefined | null => value === undefined || value === null;
	const requireString = (value: unknown, path: string): string => (typeof value === 'string' ? value : fail(path, {kind: 'string', required: true, got: value}));
	const requireObject = (value: unknown, path: string): WireObject => (isWireObject(value) ? value : fail(path, {kind: 'object', required: true, got: value}));
	const requireArray = (value: unknown, path: string): readonly unknown[] => (Array.isArray(value) ? value : fail(path, {kind: 'array', required: true, got: value}));
	return {
		requireString,
		requireObject,
		requireArray,
		optionalString: (value, path) => (absent(value) ? undefined : typeof value === 'string' ? value : fail(path, {kind: 'string', required: false, got: value})),
		optionalNumber(value, path, rule = {}) {
			if (absent(value)) return undefined;
			return typeof value === 'number' && Number.isFinite(value) && fitsRule(value, rule) ? value : fail(path, {kind: 'number', required: false, rule, got: value});
		},
		optionalBoolean: (value, path) => (absent(value) ? undefined : typeof value === 'boolean' ? value : fail(path, {kind: 'boolean', required: false, got: value})),
		optionalObject: (value, path) => (absent(value) ? undefined : isWireObject(value) ? value : fail(path, {kind: 'object', required: false, got: value})),
		optionalArray: (value, path) => (absent(value) ? undefined : Array.isArray(value) ? value : fail(path, {kind: 'array', required: false, got: value})),
		optionalStringArray: (value, path) => (absent(value) ? undefined : requireArray(value, path).map((item, index) => requireString(item, `${path}.${index}`))),
	};
}

/** A model object's `id` (OpenAI's and Anthropic's lists), or undefined. */
export const idField = (item: unknown): string | undefined => asString(asObject(item)?.id);

/**
 * The ids of a provider's model list (`items`, read by `id`); complete only when `last` says no page
 * follows and the list was there at all.
 */
export function listedIds(items: readonly unknown[] | undefined, id: (item: unknown) => string | undefined, last: boolean): {ids: string[]; complete: boolean; deprecated: ReadonlyMap<string, string | null>} {
	const ids: string[] = [];
	for (const item of items ?? []) {
		const value = id(item);
		if (value !== undefined) ids.push(value);
	}
	return {ids, complete: items !== undefined && last, deprecated: new Map()};
}
