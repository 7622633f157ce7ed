import {invalidRequest} from '../../base/errors.js';
import {assertNever, type IRTool, type IRToolChoice, type JsonObject} from '../../base/ir.js';
import {isWireObject, isJsonObject, asString, asObject, type WireObject} from '../wire.js';
import {requireString, optionalString} from './schema.js';

const emptyParameters: JsonObject = {type: 'object', properties: {}};

function decodeTool(tool: unknown, path: string): IRTool {
	if (!isWireObject(tool)) throw invalidRequest(`\`${path}\` must be a tool object.`, path);
	const type = asString(tool.type);
	if (type !== 'function') {
		throw invalidRequest(`\`${path}.type\` "${String(type)}" cannot be translated for this model; only "function" tools are supported.`, `${path}.type`);
	}
	const fn = tool.function;
	if (!isWireObject(fn)) throw invalidRequest(`\`${path}.function\` must be an object with a \`name\`.`, `${path}.function`);
	const description = optionalString(fn.description, `${path}.function.description`);
	const parameters = fn.parameters;
	if (parameters !== undefined && parameters !== null && !isJsonObject(parameters)) {
		throw invalidRequest(`\`${path}.function.parameters\` must be a JSON Schema object.`, `${path}.function.parameters`);
	}
	return {
		name: requireString(fn.name, `${path}.function.name`),
		...(description ? {description} : {}),
		parameters: parameters ?? emptyParameters,
	};
}

/**
 * OpenAI `tools` → IR. Only function tools translate; custom (grammar) tools have no equivalent.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
 */
export function decodeOpenaiTools(tools: readonly unknown[] | undefined): IRTool[] {
	return (tools ?? []).map((tool, index) => decodeTool(tool, `tools[${index}]`));
}

function allowedToolNames(choice: WireObject): string[] {
	const allowed = asObject(choice.allowed_tools);
	const tools = allowed?.tools;
	if (!Array.isArray(tools)) return [];
	return tools.flatMap(tool => {
		const fn = isWireObject(tool) ? asObject(tool.function) : undefined;
		const name = fn && asString(fn.name);
		return name ? [name] : [];
	});
}

export type DecodedToolChoice = {readonly choice?: IRToolChoice; readonly onlyTools?: readonly string[]};

/**
 * OpenAI `tool_choice` → IR. `allowed_tools` has no IR form: it becomes its mode (`auto` or
 * `required`) with the tool list narrowed to the allowed names, which the model then sees.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
 */
export function decodeOpenaiToolChoice(value: unknown): DecodedToolChoice {
	if (value === undefined || value === null) return {};
	if (value === 'auto' || value === 'none' || value === 'required') return {choice: {type: value}};
	if (isWireObject(value)) {
		const type = asString(value.type);
		const fn = asObject(value.function);
		if (type === 'function' && fn) return {choice: {type: 'tool', name: requireString(fn.name, 'tool_choice.function.name')}};
		const mode = asObject(value.allowed_tools)?.mode;
		if (type === 'allowed_tools' && (mode === 'auto' || mode === 'required')) {
			return {choice: {type: mode}, onlyTools: allowedToolNames(value)};
		}
	}
	throw invalidRequest(
		'`tool_choice` must be "auto", "none", "required", {"type":"function","function":{"name":…}} or an allowed_tools object.',
		'tool_choice',
	);
}

/**
 * IR tools → OpenAI function tools. Schemas go as the client wrote them: OpenAI accepts any JSON
 * Schema when `strict` is not set.
 * @see https://platform.openai.com/docs/guides/function-calling#defining-functions
 */
export function encodeOpenaiTools(tools: readonly IRTool[]): JsonObject[] {
	return tools.map(tool => ({
		type: 'function',
		function: {name: tool.name, ...(tool.description ? {description: tool.description} : {}), parameters: tool.parameters},
	}));
}

/** @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice */
export function encodeOpenaiToolChoice(choice: IRToolChoice): string | JsonObject {
	switch (choice.type) {
		case 'auto':
		case 'none':
		case 'required':
			return choice.type;
		case 'tool':
			return {type: 'function', function: {name: choice.name}};
		default:
			return assertNever(choice, 'tool choice');
	}
}

