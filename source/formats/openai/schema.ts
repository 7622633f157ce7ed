/**
 * Loose wire types for OpenAI chat completions: only the fields we read, all optional and
 * nullable, because OpenAI-compatible servers (DeepSeek, vLLM, SGLang, Ollama…) send `null` where
 * OpenAI omits a field. Narrow with the guards below; never trust a cast.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import {invalidRequest} from '../../base/errors.js';
import type {JsonObject, JsonValue} from '../../base/ir.js';

export type WireObject = {readonly [key: string]: unknown};

export function isObject(value: unknown): value is WireObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For values of a parsed JSON body, whose leaves can only be JSON values. */
export function isJsonObject(value: unknown): value is JsonObject {
	return isObject(value);
}

/** A string field, or undefined when absent or of another type (for upstream bodies, which we read leniently). */
export function stringField(object: WireObject, key: string): string | undefined {
	const value = object[key];
	return typeof value === 'string' ? value : undefined;
}

export function numberField(object: WireObject, key: string): number | undefined {
	const value = object[key];
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function objectField(object: WireObject, key: string): WireObject | undefined {
	const value = object[key];
	return isObject(value) ? value : undefined;
}

export function arrayField(object: WireObject, key: string): readonly unknown[] | undefined {
	const value = object[key];
	return Array.isArray(value) ? value : undefined;
}

/* Strict readers for client requests: a present field of the wrong type is a 400 naming the field. */

export function requireString(object: WireObject, key: string, path: string): string {
	const value = object[key];
	if (typeof value !== 'string') throw invalidRequest(`\`${path}\` is required and must be a string.`, path);
	return value;
}

export function optionalString(object: WireObject, key: string, path: string): string | undefined {
	const value = object[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') throw invalidRequest(`\`${path}\` must be a string.`, path);
	return value;
}

export function optionalNumber(object: WireObject, key: string, path: string): number | undefined {
	const value = object[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidRequest(`\`${path}\` must be a number.`, path);
	return value;
}

export function optionalBoolean(object: WireObject, key: string, path: string): boolean | undefined {
	const value = object[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'boolean') throw invalidRequest(`\`${path}\` must be true or false.`, path);
	return value;
}

export function optionalObject(object: WireObject, key: string, path: string): WireObject | undefined {
	const value = object[key];
	if (value === undefined || value === null) return undefined;
	if (!isObject(value)) throw invalidRequest(`\`${path}\` must be an object.`, path);
	return value;
}

export function optionalArray(object: WireObject, key: string, path: string): readonly unknown[] | undefined {
	const value = object[key];
	if (value === undefined || value === null) return undefined;
	if (!Array.isArray(value)) throw invalidRequest(`\`${path}\` must be an array.`, path);
	return value;
}

/** Build a JSON object from entries, leaving out the undefined ones (so no `undefined` reaches the wire). */
export function compact(entries: {readonly [key: string]: JsonValue | undefined}): JsonObject {
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(entries)) {
		if (value !== undefined) out[key] = value;
	}
	return out;
}

/** Tool-call arguments are JSON text; some compatible servers send an object instead. */
export function argumentsText(value: unknown): string {
	if (typeof value === 'string') return value.trim() === '' ? '{}' : value;
	if (value === undefined || value === null) return '{}';
	return JSON.stringify(value);
}
