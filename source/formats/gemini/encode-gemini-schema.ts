/**
 * JSON Schema (as OpenAI / Anthropic clients send tool parameters) → the OpenAPI-3.0 subset that
 * Gemini's `FunctionDeclaration.parameters` accepts. The proto parser rejects the whole request on
 * the first unknown keyword ("Invalid JSON payload received. Unknown name \"additionalProperties\""),
 * so this is an allowlist, not a denylist.
 *
 * We clean into `parameters` rather than sending `parametersJsonSchema`: `parameters` is accepted by
 * every Gemini model and by the OpenAI-compatible Gemini front-ends channels may point at, while
 * `parametersJsonSchema` is newer and still rejects `$ref` with siblings.
 * @see https://ai.google.dev/api/caching#Schema
 * @see https://ai.google.dev/gemini-api/docs/function-calling#function_declarations
 */
import type {JsonObject, JsonValue} from '../../base/ir.js';
import {asJsonObject, compact, isWireObject} from '../wire.js';

const copied = [
	'title', 'description', 'default', 'example', 'pattern', 'minimum', 'maximum',
	'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'propertyOrdering',
] as const;

/** The only `format` values the Schema proto documents, per type; others are rejected. */
const formatsByType: Record<string, readonly string[]> = {STRING: ['enum', 'date-time'], NUMBER: ['float', 'double'], INTEGER: ['int32', 'int64']};

type Context = {readonly definitions: JsonObject; readonly resolving: readonly string[]};

export function encodeGeminiSchema(schema: JsonObject): JsonObject {
	const definitions = {...asObject(schema.definitions), ...asObject(schema.$defs)};
	return cleanRoot(schema, {definitions, resolving: []});
}

/** True when an object schema declares no properties: Gemini wants `parameters` left out then ("properties: should be non-empty for OBJECT type"). */
export function hasNoProperties(schema: JsonObject): boolean {
	return Object.keys(asObject(schema.properties)).length === 0 && schema.anyOf === undefined;
}

function asObject(value: JsonValue | undefined): JsonObject {
	return asJsonObject(value) ?? {};
}

/**
 * The root keeps `type: OBJECT` even with no properties (the caller then leaves `parameters` out).
 * Below it, an object with no properties of its own — a free-form map such as
 * `{type: "object", additionalProperties: {type: "string"}}` (Claude Code's AskUserQuestion
 * `answers`), a bare `{type: "object"}` or a recursive reference — has no OpenAPI-subset form:
 * Gemini rejects `type: OBJECT` without properties ("properties[answers].properties: should be
 * non-empty for OBJECT type") and so the whole request. It is sent untyped instead, which Gemini
 * accepts and which leaves the model free to fill it.
 */
function cleanNode(value: JsonValue, context: Context): JsonObject {
	const out = cleanRoot(value, context);
	if (out.type === 'OBJECT' && !isWireObject(out.properties)) delete out.type;
	return out;
}

function cleanRoot(value: JsonValue, context: Context): JsonObject {
	if (!isWireObject(value)) return {};
	const node = value as JsonObject;
	if (typeof node.$ref === 'string') return cleanReference(node, node.$ref, context);
	const merged = mergeAllOf(node);
	const out: JsonObject = {};
	for (const key of copied) if (merged[key] !== undefined) out[key] = merged[key];
	applyType(merged, out, context);
	applyExclusiveBounds(merged, out);
	applyEnum(merged, out);
	applyFormat(merged, out);
	applyChildren(merged, out, context);
	return out;
}

/** `$ref` is inlined from `$defs`/`definitions`; a recursive or unknown reference degrades to an untyped schema. */
function cleanReference(node: JsonObject, reference: string, context: Context): JsonObject {
	const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(reference)?.[1];
	const target = name === undefined ? undefined : context.definitions[name];
	const description: JsonObject = typeof node.description === 'string' ? {description: node.description} : {};
	if (target === undefined || context.resolving.includes(reference)) return {type: 'OBJECT', ...description};
	return {...cleanRoot(target, {...context, resolving: [...context.resolving, reference]}), ...description};
}

/** allOf members are merged into one node: Gemini has no allOf. */
function mergeAllOf(node: JsonObject): JsonObject {
	if (!Array.isArray(node.allOf)) return node;
	let merged: JsonObject = {...node, allOf: null};
	for (const member of node.allOf) {
		if (!isWireObject(member)) continue;
		const part = member as JsonObject;
		merged = {
			...part,
			...merged,
			properties: {...asObject(part.properties), ...asObject(merged.properties)},
			required: [...(Array.isArray(part.required) ? part.required : []), ...(Array.isArray(merged.required) ? merged.required : [])],
		};
	}
	return merged;
}

/** Array-valued `type` and `{type: "null"}` members become `nullable: true` (OpenAPI 3.0 has no null type). */
function applyType(node: JsonObject, out: JsonObject, context: Context): void {
	const listed = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
	const types = listed.filter((type): type is string => typeof type === 'string' && type !== 'null');
	if (listed.includes('null') || node.nullable === true) out.nullable = true;
	if (types.length === 1) out.type = types[0].toUpperCase();
	else if (types.length > 1) out.anyOf = types.map(type => ({type: type.toUpperCase()}));
	const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
	if (!union) return;
	const members = union.filter(member => !(isWireObject(member) && member.type === 'null'));
	if (members.length < union.length) out.nullable = true;
	const cleaned = members.map(member => cleanNode(member, context)).flatMap(flattenUnion);
	if (cleaned.length === 1) Object.assign(out, {...cleaned[0], ...compact({description: out.description, nullable: out.nullable})});
	else if (cleaned.length > 1) out.anyOf = cleaned;
}

/** A member that is only a union (`anyOf` inside `anyOf`) gives its members to the parent: one level of anyOf is what Gemini takes. */
function flattenUnion(member: JsonObject): JsonObject[] {
	const keys = Object.keys(member).filter(key => key !== 'nullable');
	if (keys.length !== 1 || !Array.isArray(member.anyOf)) return [member];
	return member.anyOf.flatMap(inner => (isWireObject(inner) ? flattenUnion(asObject(inner)) : []));
}

/**
 * Draft 2019+ numeric `exclusiveMinimum`/`exclusiveMaximum` have no Schema field: they become the
 * inclusive bound (one value looser), which is the nearest Gemini accepts; a boolean (draft 4) is dropped.
 */
function applyExclusiveBounds(node: JsonObject, out: JsonObject): void {
	if (typeof node.exclusiveMinimum === 'number' && out.minimum === undefined) out.minimum = node.exclusiveMinimum;
	if (typeof node.exclusiveMaximum === 'number' && out.maximum === undefined) out.maximum = node.exclusiveMaximum;
}

/** Gemini's `enum` holds strings only; `const` becomes an enum of one. Other literals survive as a hint in the description. */
function applyEnum(node: JsonObject, out: JsonObject): void {
	const values = Array.isArray(node.enum) ? node.enum : node.const === undefined ? undefined : [node.const];
	if (!values) return;
	if (values.every(item => typeof item === 'string')) {
		out.enum = values;
		out.type ??= 'STRING';
		return;
	}
	const hint = `Allowed values: ${values.map(item => JSON.stringify(item)).join(', ')}.`;
	out.description = typeof out.description === 'string' ? `${out.description} ${hint}` : hint;
}

function applyFormat(node: JsonObject, out: JsonObject): void {
	if (typeof node.format !== 'string' || typeof out.type !== 'string') return;
	if (formatsByType[out.type]?.includes(node.format)) out.format = node.format;
}

/** `properties`/`required` only on objects, `items` only on arrays; `required` may name only declared properties. */
function applyChildren(node: JsonObject, out: JsonObject, context: Context): void {
	const isObject = out.type === 'OBJECT' || (out.type === undefined && isWireObject(node.properties));
	if (isObject && isWireObject(node.properties)) {
		out.type ??= 'OBJECT';
		const properties: JsonObject = {};
		for (const [name, child] of Object.entries(node.properties)) properties[name] = cleanNode(child, context);
		if (Object.keys(properties).length > 0) out.properties = properties;
		const required = (Array.isArray(node.required) ? node.required : []).filter(
			(name): name is string => typeof name === 'string' && name in properties,
		);
		if (required.length > 0) out.required = [...new Set(required)];
	}
	const isArray = out.type === 'ARRAY' || (out.type === undefined && node.items !== undefined);
	if (isArray && node.items !== undefined) {
		out.type ??= 'ARRAY';
		// Tuple-style `items: [a, b]` has no Gemini form; the first member is the closest single schema.
		const items = Array.isArray(node.items) ? node.items[0] : node.items;
		out.items = items === undefined ? {} : cleanNode(items, context);
	}
}
