import {invalidRequest} from '../../base/errors.js';
import type {IRResponseFormat} from '../../base/ir.js';
import {isWireObject, isJsonObject, asString} from '../wire.js';
import {optionalBoolean} from './schema.js';

/**
 * Responses `text.format` → IR: plain text, JSON mode, or Structured Outputs. Unlike chat
 * completions' `response_format`, the schema sits flat in the format object (`name`, `schema`, `strict`).
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-text
 */
export function decodeResponsesTextFormat(text: unknown): IRResponseFormat | undefined {
	const format = isWireObject(text) ? text.format : undefined;
	if (format === undefined || format === null) return undefined;
	const type = isWireObject(format) ? asString(format.type) : undefined;
	if (!isWireObject(format) || type === 'text') return type === 'text' ? {type: 'text'} : invalidFormat();
	if (type === 'json_object') return {type: 'json_object'};
	if (type !== 'json_schema') return invalidFormat();
	if (!isJsonObject(format.schema)) throw invalidRequest('`text.format.schema` must be a JSON Schema object.', 'text.format.schema');
	const name = asString(format.name);
	const strict = optionalBoolean(format.strict, 'text.format.strict');
	return {type: 'json_schema', schema: format.schema, ...(name ? {name} : {}), ...(strict === undefined ? {} : {strict})};
}

function invalidFormat(): never {
	throw invalidRequest('`text.format.type` must be "text", "json_object" or "json_schema".', 'text.format.type');
}
