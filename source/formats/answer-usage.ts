/**
 * The usage of a whole answer passed through, read from its end. Every provider writes its usage
 * object last or nearly last (`usage`, Gemini's `usageMetadata`); finding it from the tail and
 * parsing that object alone spares parsing the whole answer — which the client parses itself — on
 * every passed-through request. Anything unusual (the key missing, not an object, not provably at
 * the top level, text that is not the outline of a JSON object) returns undefined, and the caller
 * parses the whole answer as before.
 */
import type {JsonObject} from '../base/ir.js';
import {asJsonObject, isJsonSpace, looksLikeJsonObject} from './wire.js';

/** Where a format's answer keeps its usage, and how it reads. */
export type AnswerUsage<U> = {readonly keys: readonly string[]; readonly decode: (value: JsonObject) => U};

export function usageFromTail<U>(text: string, usage: AnswerUsage<U>): U | undefined {
	if (!looksLikeJsonObject(text)) return undefined;
	for (const key of usage.keys) {
		const value = topLevelObjectFromEnd(text, key);
		if (value) return usage.decode(value);
	}
	return undefined;
}

/**
 * The object value of the last `"key"` in `text`, if that key belongs to the outermost object: the
 * text after the value must close exactly one level, at the very end. (Inside JSON strings quotes
 * are escaped, so `"key"` followed by a colon can only be a key.)
 */
function topLevelObjectFromEnd(text: string, key: string): JsonObject | undefined {
	const quoted = `"${key}"`;
	// A few occurrences from the end (a string value spelled like the key, or a nested key, may come after it); past that, give up.
	for (let at = text.lastIndexOf(quoted), tries = 0; at >= 0 && tries < maxTries; at = at === 0 ? -1 : text.lastIndexOf(quoted, at - 1), tries++) {
		let index = skipSpace(text, at + quoted.length);
		if (text.charCodeAt(index) !== 0x3a) continue;
		index = skipSpace(text, index + 1);
		if (text.charCodeAt(index) !== 0x7b) return undefined;
		const valueEnd = scan(text, index, 0);
		if (valueEnd < 0) return undefined;
		// What follows must close the containing object and end the text: then that object is the outermost.
		const closing = scan(text, valueEnd, -1);
		if (closing < 0 || skipSpace(text, closing) !== text.length) continue;
		try {
			return asJsonObject(JSON.parse(text.slice(index, valueEnd)) as unknown);
		} catch {
			return undefined;
		}
	}
	return undefined;
}

const maxTries = 4;

function skipSpace(text: string, index: number): number {
	while (index < text.length && isJsonSpace(text.charCodeAt(index))) index++;
	return index;
}

/**
 * From `index`, the position just past where the nesting depth (starting at 0) first drops to
 * `until`: `until` 0 from an opening brace gives the end of that value; -1 from after a value gives
 * the end of the object around it. -1 when the text ends first.
 */
function scan(text: string, index: number, until: number): number {
	let depth = 0;
	for (let position = index; position < text.length; position++) {
		const code = text.charCodeAt(position);
		if (code === 0x22) {
			// A string: skip to its closing quote, past escapes.
			for (position++; position < text.length; position++) {
				const inner = text.charCodeAt(position);
				if (inner === 0x5c) position++;
				else if (inner === 0x22) break;
			}
		} else if (code === 0x7b || code === 0x5b) {
			depth++;
		} else if (code === 0x7d || code === 0x5d) {
			depth--;
			if (depth === until) return position + 1;
		}
	}
	return -1;
}
