import {invalidRequest} from '../../base/errors.js';
import {assertNever, type IRResponseFormat, type JsonObject} from '../../base/ir.js';
import {isWireObject, isJsonObject, asString, compact} from '../wire.js';
import {optionalBoolean} from './schema.js';

/**
 * OpenAI `response_format` → IR: text, JSON mode, or Structured Outputs with a schema.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-response_format
 */
export function decodeOpenaiResponseFormat(value: unknown): IRResponseFormat | undefined {
	if (value === undefined || value === null) return undefined;
	const type = isWireObject(value) ? asString(value.type) : undefined;
	if (isWireObject(value) && type === 'text') return {type: 'text'};
	if (isWireObject(value) && type === 'json_object') return {type: 'json_object'};
	if (isWireObject(value) && type === 'json_schema') {
		const spec = value.json_schema;
		if (!isWireObject(spec) || !isJsonObject(spec.schema)) {
			throw invalidRequest('`response_format.json_schema.schema` must be a JSON Schema object.', 'response_format.json_schema.schema');
		}
		const name = asString(spec.name);
		const strict = optionalBoolean(spec.strict, 'response_format.json_schema.strict');
		return {type: 'json_schema', schema: spec.schema, ...(name ? {name} : {}), ...(strict === undefined ? {} : {strict})};
	}
	throw invalidRequest('`response_format.type` must be "text", "json_object" or "json_schema".', 'response_format.type');
}

/**
 * IR → OpenAI `response_format`. `json_schema.name` is required by the API; formats without a name
 * (Gemini's responseSchema) get "response".
 * @see https://platform.openai.com/docs/guides/structured-outputs
 */
export function encodeOpenaiResponseFormat(format: IRResponseFormat): JsonObject {
	switch (format.type) {
		case 'text':
		case 'json_object':
			return {type: format.type};
		case 'json_schema':
			return {type: 'json_schema', json_schema: compact({name: format.name ?? 'response', schema: format.schema, strict: format.strict})};
		default:
			return assertNever(format, 'response format');
	}
}
