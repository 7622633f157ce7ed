/**
 * Semantic checks of the fake Gemini API, run on the camelCase body produced by gemini-proto.ts.
 * Messages follow the real API where known (`contents is not specified`, `Please use a valid role`,
 * the function call/response turn rules, `should be non-empty for OBJECT type`, `missing field`,
 * `property is not defined`, `Invalid function name`).
 */
import {isRecord} from './common.js';

const FN_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const DATA_FIELDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse'];

const records = (value: unknown): Array<Record<string, unknown>> => (Array.isArray(value) ? value.filter(isRecord) : []);

function checkSchema(schema: unknown, path: string): string | undefined {
	if (!isRecord(schema)) return undefined;
	const properties = isRecord(schema.properties) ? schema.properties : undefined;
	if (schema.type === 'OBJECT' && (!properties || Object.keys(properties).length === 0)) return `* ${path}.properties: should be non-empty for OBJECT type\n`;
	if (schema.type === 'ARRAY' && schema.items === undefined) return `* ${path}.items: missing field.\n`;
	for (const [i, name] of (Array.isArray(schema.required) ? schema.required : []).entries()) {
		if (!properties || typeof name !== 'string' || !(name in properties)) return `* ${path}.required[${i}]: property is not defined\n`;
	}
	for (const [name, child] of Object.entries(properties ?? {})) {
		const error = checkSchema(child, `${path}.properties[${name}]`);
		if (error) return error;
	}
	if (schema.items !== undefined) {
		const error = checkSchema(schema.items, `${path}.items`);
		if (error) return error;
	}
	for (const [i, child] of records(schema.anyOf).entries()) {
		const error = checkSchema(child, `${path}.any_of[${i}]`);
		if (error) return error;
	}
	return undefined;
}

export function checkContents(contents: unknown, prefix: string): string | undefined {
	if (!Array.isArray(contents) || contents.length === 0) return `* ${prefix}.contents: contents is not specified\n`;
	let previous: {role: string; calls: string[]} | undefined;
	for (const [i, content] of records(contents).entries()) {
		const role = content.role ?? 'user';
		if (role !== 'user' && role !== 'model') return 'Please use a valid role: user, model.';
		const parts = records(content.parts);
		if (parts.length === 0) return `* ${prefix}.contents[${i}].parts: contents.parts must not be empty.\n`;
		for (const [j, part] of parts.entries()) {
			const set = DATA_FIELDS.filter((f) => part[f] !== undefined);
			if (set.length === 0) return `* ${prefix}.contents[${i}].parts[${j}].data: required oneof field 'data' must have one initialized field\n`;
			if (set.length > 1) return `Invalid value at 'contents[${i}].parts[${j}].data' (oneof), oneof field 'data' is already set. Cannot set '${set[1]}'`;
			if (isRecord(part.functionCall) && (typeof part.functionCall.name !== 'string' || part.functionCall.name === '')) {
				return `* ${prefix}.contents[${i}].parts[${j}].function_call.name: Name cannot be empty.\n`;
			}
			if (isRecord(part.functionResponse) && (typeof part.functionResponse.name !== 'string' || part.functionResponse.name === '')) {
				return `* ${prefix}.contents[${i}].parts[${j}].function_response.name: Name cannot be empty.\n`;
			}
		}
		const calls = parts.filter((p) => isRecord(p.functionCall)).map((p) => String((p.functionCall as Record<string, unknown>).name));
		const responses = parts.filter((p) => isRecord(p.functionResponse)).map((p) => String((p.functionResponse as Record<string, unknown>).name));
		if (calls.length > 0 && (role !== 'model' || previous?.role !== 'user')) {
			return 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
		}
		if (responses.length > 0) {
			if (role !== 'user' || !previous || previous.role !== 'model' || previous.calls.length === 0) {
				return 'Please ensure that function response turn comes immediately after a function call turn.';
			}
			if (responses.length !== previous.calls.length) {
				return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
			}
			const open = [...previous.calls];
			for (const name of responses) {
				const at = open.indexOf(name);
				if (at === -1) return `Please ensure that each function response part answers a function call of the function call turn: no function call named '${name}' in contents[${i - 1}].`;
				open.splice(at, 1);
			}
		}
		previous = {role, calls};
	}
	return undefined;
}

function checkTools(body: Record<string, unknown>, prefix: string): string | undefined {
	const names: string[] = [];
	for (const [t, tool] of records(body.tools).entries()) {
		for (const [d, decl] of records(tool.functionDeclarations).entries()) {
			const path = `${prefix}.tools[${t}].function_declarations[${d}]`;
			if (typeof decl.name !== 'string' || !FN_NAME.test(decl.name)) {
				return `* ${path}.name: Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64.\n`;
			}
			names.push(decl.name);
			if (decl.parameters !== undefined && decl.parametersJsonSchema !== undefined) {
				return `* ${path}.parameters: parameters and parameters_json_schema cannot both be set.\n`;
			}
			const error = checkSchema(decl.parameters, `${path}.parameters`) ?? checkSchema(decl.response, `${path}.response`);
			if (error) return error;
		}
	}
	const config = isRecord(body.toolConfig) && isRecord(body.toolConfig.functionCallingConfig) ? body.toolConfig.functionCallingConfig : undefined;
	if (config && Array.isArray(config.allowedFunctionNames) && config.allowedFunctionNames.length > 0) {
		if (config.mode !== 'ANY' && config.mode !== 'VALIDATED') {
			return `* ${prefix}.tool_config.function_calling_config.allowed_function_names: allowed_function_names may only be set when mode is ANY or VALIDATED.\n`;
		}
		for (const name of config.allowedFunctionNames) {
			if (!names.includes(String(name))) return `* ${prefix}.tool_config.function_calling_config.allowed_function_names: function '${String(name)}' is not declared in tools.\n`;
		}
	}
	return undefined;
}

function checkGenerationConfig(body: Record<string, unknown>, prefix: string): string | undefined {
	const config = body.generationConfig;
	if (!isRecord(config)) return undefined;
	const thinking = config.thinkingConfig;
	if (isRecord(thinking) && thinking.thinkingBudget !== undefined && thinking.thinkingLevel !== undefined) {
		return 'You can only set only one of thinking budget and thinking level.';
	}
	if (config.responseSchema !== undefined && config.responseJsonSchema !== undefined) {
		return `* ${prefix}.generation_config.response_schema: response_schema and response_json_schema cannot both be set.\n`;
	}
	return checkSchema(config.responseSchema, `${prefix}.generation_config.response_schema`);
}

/** Semantic validation of a (normalised) GenerateContentRequest. */
export function checkGenerateRequest(body: Record<string, unknown>, prefix = 'GenerateContentRequest'): string | undefined {
	const system = body.systemInstruction;
	if (isRecord(system) && records(system.parts).length === 0) return `* ${prefix}.system_instruction.parts: contents.parts must not be empty.\n`;
	return checkContents(body.contents, prefix) ?? checkTools(body, prefix) ?? checkGenerationConfig(body, prefix);
}
