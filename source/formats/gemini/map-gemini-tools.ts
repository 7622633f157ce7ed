/**
 * Gemini `tools[].functionDeclarations` and `toolConfig.functionCallingConfig` ↔ IR tools and tool choice.
 * @see https://ai.google.dev/api/caching#Tool
 * @see https://ai.google.dev/gemini-api/docs/function-calling#function_calling_modes
 */
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRTool, type IRToolChoice, type JsonObject} from '../../base/ir.js';
import {invalidRequest} from '../../base/errors.js';
import {encodeGeminiSchema, hasNoProperties} from './encode-gemini-schema.js';
import {decodeGeminiSchema} from './decode-gemini-schema.js';
import {asJsonObject, compact, isWireObject, type WireObject} from '../wire.js';
import {pick, pickArray, pickRecord, pickString} from './schema.js';

const emptyParameters: JsonObject = {type: 'object', properties: {}};

function decodeDeclaration(declaration: unknown, where: string): IRTool {
	if (!isWireObject(declaration)) throw invalidRequest(`${where} must be an object with a name.`, where);
	const name = pickString(declaration, 'name');
	if (!name) throw invalidRequest(`${where}.name is required: every function declaration needs a name.`, `${where}.name`);
	const jsonSchema = asJsonObject(pick(declaration, 'parametersJsonSchema'));
	const schema = asJsonObject(pick(declaration, 'parameters'));
	const parameters = jsonSchema ?? (schema ? decodeGeminiSchema(schema) : emptyParameters);
	const description = pickString(declaration, 'description');
	return description === undefined ? {name, parameters} : {name, description, parameters};
}

/** Only function declarations translate; built-in tools (googleSearch, codeExecution, urlContext…) run inside Gemini. */
export function decodeGeminiTools(tools: unknown, ctx: TranslationContext): IRTool[] {
	if (tools === undefined) return [];
	if (!Array.isArray(tools)) throw invalidRequest('tools must be an array of Tool objects.', 'tools');
	const out: IRTool[] = [];
	tools.forEach((tool, index) => {
		if (!isWireObject(tool)) throw invalidRequest(`tools[${index}] must be an object.`, `tools[${index}]`);
		const declarations = pickArray(tool, 'functionDeclarations') ?? [];
		declarations.forEach((declaration, at) => out.push(decodeDeclaration(declaration, `tools[${index}].functionDeclarations[${at}]`)));
		const builtIns = Object.keys(tool).filter(key => key !== 'functionDeclarations' && key !== 'function_declarations');
		if (builtIns.length > 0) ctx.warn(`Dropped Gemini built-in tool(s) ${builtIns.join(', ')}: only function declarations can be translated.`);
	});
	return out;
}

/**
 * ANY with exactly one allowed name is a named tool choice. ANY with several names has no IR form,
 * so the tools offered are narrowed to those names instead (same effect: one of them must be called).
 */
export function decodeGeminiToolConfig(toolConfig: WireObject | undefined, tools: IRTool[]): {toolChoice?: IRToolChoice; tools: IRTool[]} {
	const config = toolConfig ? pickRecord(toolConfig, 'functionCallingConfig') : undefined;
	const mode = config ? pickString(config, 'mode')?.toUpperCase() : undefined;
	const allowed = (config ? pickArray(config, 'allowedFunctionNames') ?? [] : []).filter((name): name is string => typeof name === 'string');
	switch (mode) {
		case 'NONE':
			return {toolChoice: {type: 'none'}, tools};
		case 'ANY':
			if (allowed.length === 1) return {toolChoice: {type: 'tool', name: allowed[0]}, tools};
			return {toolChoice: {type: 'required'}, tools: allowed.length > 0 ? tools.filter(tool => allowed.includes(tool.name)) : tools};
		case 'AUTO':
		// VALIDATED: calls or text, with schema adherence; the nearest IR choice is auto.
		case 'VALIDATED':
			return {toolChoice: {type: 'auto'}, tools};
		default:
			return {tools};
	}
}

export function encodeGeminiTools(tools: readonly IRTool[]): JsonObject[] | undefined {
	if (tools.length === 0) return undefined;
	const functionDeclarations = tools.map(tool => {
		const parameters = encodeGeminiSchema(tool.parameters);
		return compact({name: tool.name, description: tool.description, parameters: hasNoProperties(parameters) ? undefined : parameters});
	});
	return [{functionDeclarations}];
}

export function encodeGeminiToolConfig(choice: IRToolChoice | undefined, hasTools: boolean): JsonObject | undefined {
	if (!choice || !hasTools) return undefined;
	switch (choice.type) {
		case 'auto':
			return {functionCallingConfig: {mode: 'AUTO'}};
		case 'none':
			return {functionCallingConfig: {mode: 'NONE'}};
		case 'required':
			return {functionCallingConfig: {mode: 'ANY'}};
		case 'tool':
			return {functionCallingConfig: {mode: 'ANY', allowedFunctionNames: [choice.name]}};
		default:
			return assertNever(choice, 'tool choice');
	}
}
