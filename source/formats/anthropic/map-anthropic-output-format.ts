/**
 * JSON output. Anthropic's structured outputs are GA as `output_config.format` (no beta header);
 * the older beta spelling was a top-level `output_format` behind `structured-outputs-2025-11-13`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs
 */
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRResponseFormat, type IRSystemBlock, type JsonObject, type JsonValue} from '../../base/ir.js';
import {isJsonObject, isWireObject} from '../wire.js';
import type {AnthropicOutputConfig} from './schema.js';

export function decodeAnthropicOutputFormat(outputConfig: unknown, betaOutputFormat: unknown): IRResponseFormat | undefined {
	const format = isWireObject(outputConfig) ? outputConfig.format : betaOutputFormat;
	if (!isWireObject(format) || format.type !== 'json_schema' || !isJsonObject(format.schema)) return undefined;
	return {type: 'json_schema', schema: format.schema};
}

/**
 * `output_config.format` needs a schema, and its schemas must close every object
 * (`additionalProperties: false`), so schema-less JSON mode becomes an instruction instead.
 */
export function encodeAnthropicOutputFormat(
	format: IRResponseFormat | undefined,
	ctx: TranslationContext,
): {outputConfig?: AnthropicOutputConfig; instruction?: IRSystemBlock} {
	if (!format) return {};
	switch (format.type) {
		case 'text':
			return {};
		case 'json_schema':
			return {outputConfig: {format: {type: 'json_schema', schema: closeObjects(format.schema)}}};
		case 'json_object':
			ctx.warn('JSON mode (json_object) has no Anthropic equivalent without a schema: asked for JSON in the system prompt instead.');
			return {instruction: {text: 'Respond with a single valid JSON object and nothing else: no prose, no code fences.'}};
		default:
			return assertNever(format, 'response format');
	}
}

/** Non-strict OpenAI schemas often leave objects open, which Anthropic's structured outputs refuse. */
function closeObjects(schema: JsonObject): JsonObject {
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(schema)) out[key] = closeValue(value);
	if (schema.type === 'object' && schema.additionalProperties === undefined) out.additionalProperties = false;
	return out;
}

function closeValue(value: JsonValue): JsonValue {
	if (Array.isArray(value)) return value.map(item => closeValue(item));
	return isJsonObject(value) ? closeObjects(value) : value;
}
