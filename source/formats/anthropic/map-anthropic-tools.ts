/**
 * Tool definitions and tool_choice, both ways.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 */
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRTool, type IRToolChoice, type JsonObject} from '../../base/ir.js';
import {invalidRequest} from '../../base/errors.js';
import {decodeAnthropicCacheControl, encodeAnthropicCacheControl} from './map-anthropic-cache-control.js';
import {isJsonObject} from '../wire.js';
import {type AnthropicTool, type AnthropicToolChoice, requireArray, requireObject, requireString, optionalBoolean, optionalString} from './schema.js';

/** Custom tools only: server tools (`web_search_20250305`, `bash_20250124` …) run inside Anthropic and have no equivalent elsewhere. */
export function decodeAnthropicTools(value: unknown, ctx: TranslationContext): IRTool[] {
	if (value === undefined || value === null) return [];
	const tools: IRTool[] = [];
	for (const [index, item] of requireArray(value, 'tools').entries()) {
		const path = `tools.${index}`;
		const tool = requireObject(item, path);
		if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
			ctx.warn(`${path}: the Anthropic server tool "${String(tool.type)}" (${String(tool.name)}) cannot run on this channel and was dropped.`);
			continue;
		}
		const schema = requireObject(tool.input_schema, `${path}.input_schema`);
		const description = optionalString(tool.description, `${path}.description`);
		const cache = decodeAnthropicCacheControl(tool.cache_control);
		tools.push({
			name: requireString(tool.name, `${path}.name`),
			...(description === undefined ? {} : {description}),
			parameters: isJsonObject(schema) ? schema : {},
			...(cache ? {cache} : {}),
		});
	}
	return tools;
}

export function decodeAnthropicToolChoice(value: unknown): {toolChoice?: IRToolChoice; parallelToolCalls?: boolean} {
	if (value === undefined || value === null) return {};
	const choice = requireObject(value, 'tool_choice');
	const disabled = optionalBoolean(choice.disable_parallel_tool_use, 'tool_choice.disable_parallel_tool_use');
	const parallel = disabled === true ? {parallelToolCalls: false} : {};
	switch (choice.type) {
		case 'auto':
			return {toolChoice: {type: 'auto'}, ...parallel};
		case 'any':
			return {toolChoice: {type: 'required'}, ...parallel};
		case 'none':
			return {toolChoice: {type: 'none'}};
		case 'tool':
			return {toolChoice: {type: 'tool', name: requireString(choice.name, 'tool_choice.name')}, ...parallel};
		default:
			throw invalidRequest(`tool_choice.type: expected "auto", "any", "tool" or "none", got ${JSON.stringify(choice.type)}.`, 'tool_choice.type');
	}
}

export function encodeAnthropicTools(tools: readonly IRTool[]): AnthropicTool[] {
	return tools.map(tool => ({
		name: tool.name,
		description: tool.description,
		input_schema: objectSchema(tool.parameters),
		cache_control: encodeAnthropicCacheControl(tool.cache),
	}));
}

/** Anthropic requires `input_schema.type` to be "object"; OpenAI clients send `{}` for tools without arguments. */
function objectSchema(parameters: JsonObject): JsonObject {
	if (parameters.type === 'object') return parameters;
	return {properties: {}, ...parameters, type: 'object'};
}

export function encodeAnthropicToolChoice(
	choice: IRToolChoice | undefined,
	parallelToolCalls: boolean | undefined,
	hasTools: boolean,
	ctx: TranslationContext,
): AnthropicToolChoice | undefined {
	// The API refuses tool_choice without tools.
	if (!hasTools) {
		if (choice?.type === 'required' || choice?.type === 'tool') ctx.warn(`tool_choice "${choice.type}" was dropped: the request has no tools.`);
		return undefined;
	}
	const parallel = parallelToolCalls === false ? {disable_parallel_tool_use: true} : {};
	if (!choice) return parallelToolCalls === false ? {type: 'auto', ...parallel} : undefined;
	switch (choice.type) {
		case 'auto':
			return {type: 'auto', ...parallel};
		case 'required':
			return {type: 'any', ...parallel};
		case 'none':
			return {type: 'none'};
		case 'tool':
			return {type: 'tool', name: choice.name, ...parallel};
		default:
			return assertNever(choice, 'tool choice');
	}
}
