/**
 * Gemini's OpenAPI-subset `Schema` (upper-case `type`, `nullable`, int64 counts as strings) → JSON
 * Schema, so tools declared by a Gemini client can be sent to OpenAI or Anthropic, whose strict
 * validators reject `"type": "STRING"`.
 * @see https://ai.google.dev/api/caching#Schema
 */
import type {JsonObject, JsonValue} from '../../base/ir.js';
import {isJsonObject, isWireObject} from '../wire.js';

const counts: ReadonlySet<string> = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);
const copied: ReadonlySet<string> = new Set(['title', 'description', 'default', 'example', 'pattern', 'minimum', 'maximum', 'enum', 'required']);

export function decodeGeminiSchema(value: JsonValue): JsonObject {
	if (!isWireObject(value)) return {};
	const node = value as JsonObject;
	const out: JsonObject = {};
	for (const [rawKey, child] of Object.entries(node)) {
		const key = rawKey.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
		if (copied.has(key)) out[key] = child;
		else if (counts.has(key)) out[key] = typeof child === 'string' ? Number(child) : child;
		else if (key === 'properties' && isJsonObject(child)) out.properties = mapValues(child);
		else if (key === 'items') out.items = decodeGeminiSchema(child);
		else if (key === 'anyOf' && Array.isArray(child)) out.anyOf = child.map(decodeGeminiSchema);
		else if (key === 'format' && child !== 'enum') out.format = child;
	}
	const type = typeof node.type === 'string' ? node.type.toLowerCase() : undefined;
	if (type !== undefined && type !== 'type_unspecified') out.type = node.nullable === true ? [type, 'null'] : type;
	return out;
}

function mapValues(properties: JsonObject): JsonObject {
	const out: JsonObject = {};
	for (const [name, child] of Object.entries(properties)) out[name] = decodeGeminiSchema(child);
	return out;
}
