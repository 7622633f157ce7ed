import {invalidRequest} from '../../base/errors.js';
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRTool, type IRToolChoice, type JsonObject} from '../../base/ir.js';
import {isJsonObject, isObject, objectField, optionalString, requireString, stringField, type WireObject} from './schema.js';

const emptyParameters: JsonObject = {type: 'object', properties: {}};

function decodeTool(tool: unknown, path: string): IRTool {
	if (!isObject(tool)) throw invalidRequest(`\`${path}\` must be a tool object.`, path);
	const type = stringField(tool, 'type');
	if (type !== 'function') {
		throw invalidRequest(`\`${path}.type\` "${String(type)}" cannot be translated for this model; only "function" tools are supported.`, `${path}.type`);
	}
	const fn = tool.function;
	if (!isObject(fn)) throw invalidRequest(`\`${path}.function\` must be an object with a \`name\`.`, `${path}.function`);
	const description = optionalString(fn, 'description', `${path}.function.description`);
	const parameters = fn.parameters;
	if (parameters !== undefined && parameters !== null && !isJsonObject(parameters)) {
		throw invalidRequest(`\`${path}.function.parameters\` must be a JSON Schema object.`, `${path}.function.parameters`);
	}
	return {
		name: requireString(fn, 'name', `${path}.function.name`),
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
	const allowed = objectField(choice, 'allowed_tools');
	const tools = allowed?.tools;
	if (!Array.isArray(tools)) return [];
	return tools.flatMap(tool => {
		const fn = isObject(tool) ? objectField(tool, 'function') : undefined;
		const name = fn && stringField(fn, 'name');
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
	if (isObject(value)) {
		const type = stringField(value, 'type');
		const fn = objectField(value, 'function');
		if (type === 'function' && fn) return {choice: {type: 'tool', name: requireString(fn, 'name', 'tool_choice.function.name')}};
		const mode = objectField(value, 'allowed_tools')?.mode;
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

/** Narrow the tools to the names `allowed_tools` permits, warning about the ones left out. */
export function narrowTools(tools: IRTool[], onlyTools: readonly string[] | undefined, ctx: TranslationContext): IRTool[] {
	if (!onlyTools) return tools;
	const kept = tools.filter(tool => onlyTools.includes(tool.name));
	if (kept.length < tools.length) ctx.warn(`tool_choice.allowed_tools: sent only ${kept.length} of ${tools.length} tools to the model.`);
	return kept;
}
