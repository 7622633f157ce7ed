import {invalidRequest} from '../../base/errors.js';
import type {TranslationContext} from '../adapter.js';
import type {IRTool, IRToolChoice, JsonObject} from '../../base/ir.js';
import {isWireObject, isJsonObject, asString, asObject, asArray, type WireObject} from '../wire.js';
import {requireString, optionalString} from './schema.js';

/** The function that stands in for the `local_shell` tool on channels that only know functions. */
export const localShellTool = 'local_shell';

/**
 * The IR name of a tool inside a `namespace` (Codex groups its sub-agent tools so). Other formats have
 * no namespaces: the tools are flattened, `__` joining the names (valid in every format's tool names).
 */
export function namespacedName(namespace: string | undefined, name: string): string {
	return namespace ? `${namespace}__${name}` : name;
}

const emptyParameters: JsonObject = {type: 'object', properties: {}};

const localShellParameters: JsonObject = {
	type: 'object',
	properties: {
		command: {type: 'array', items: {type: 'string'}, description: 'The command to run, as an argv list (e.g. ["ls", "-la"]).'},
		working_directory: {type: 'string', description: 'The directory to run it in.'},
		timeout_ms: {type: 'integer', description: 'A time limit in milliseconds.'},
	},
	required: ['command'],
};

/**
 * A `custom` (freeform) tool takes raw text, optionally constrained by a grammar; Codex declares
 * `apply_patch` this way. Other formats only know JSON functions: it becomes a function with one
 * string argument `input`, its grammar quoted in the description.
 * @see https://platform.openai.com/docs/guides/function-calling#custom-tools
 */
function customTool(tool: WireObject, path: string): IRTool {
	const name = requireString(tool.name, `${path}.name`);
	const format = asObject(tool.format);
	const grammar = format && asString(format.type) === 'grammar' ? asString(format.definition) : undefined;
	const syntax = (format && asString(format.syntax)) ?? 'lark';
	const description = [
		optionalString(tool.description, `${path}.description`),
		'Call it with {"input": "<raw text>"}; the text is passed on exactly as written.',
		grammar ? `The text must follow this ${syntax} grammar:\n${grammar}` : undefined,
	].filter(Boolean).join('\n\n');
	return {name, description, parameters: {type: 'object', properties: {input: {type: 'string', description: 'The raw text input.'}}, required: ['input']}};
}

function functionTool(tool: WireObject, path: string): IRTool {
	const description = optionalString(tool.description, `${path}.description`);
	const parameters = tool.parameters;
	if (parameters !== undefined && parameters !== null && !isJsonObject(parameters)) {
		throw invalidRequest(`\`${path}.parameters\` must be a JSON Schema object.`, `${path}.parameters`);
	}
	return {name: requireString(tool.name, `${path}.name`), ...(description ? {description} : {}), parameters: parameters ?? emptyParameters};
}

/** A `namespace` groups function and custom tools; flattened, each keeps the group's description. */
function namespaceTools(tool: WireObject, path: string, ctx: TranslationContext): IRTool[] {
	const namespace = requireString(tool.name, `${path}.name`);
	const about = optionalString(tool.description, `${path}.description`);
	return (asArray(tool.tools) ?? []).flatMap((inner, index) =>
		decodeTool(inner, `${path}.tools[${index}]`, ctx).map(decoded => {
			const description = [about, decoded.description].filter(Boolean).join('\n\n');
			return {...decoded, name: namespacedName(namespace, decoded.name), ...(description ? {description} : {})};
		}),
	);
}

function decodeTool(tool: unknown, path: string, ctx: TranslationContext): IRTool[] {
	if (!isWireObject(tool)) throw invalidRequest(`\`${path}\` must be a tool object.`, path);
	const type = asString(tool.type);
	switch (type) {
		case 'function':
			return [functionTool(tool, path)];
		case 'custom':
			return [customTool(tool, path)];
		case 'namespace':
			return namespaceTools(tool, path, ctx);
		case 'local_shell':
			return [{name: localShellTool, description: 'Run a shell command on the user\'s machine and get its output.', parameters: localShellParameters}];
		default:
			ctx.warn(`Dropped the ${String(type)} tool: it runs on OpenAI's servers and has no equivalent on this channel.`);
			return [];
	}
}

/**
 * Responses `tools` → IR. Function tools translate as they are; `custom` and `local_shell` become
 * functions (their calls come back as `custom_tool_call` and `local_shell_call` items); a
 * `namespace`'s tools are flattened; hosted tools (web_search, file_search, code_interpreter…) are
 * dropped, with a warning.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 */
export function decodeResponsesTools(tools: readonly unknown[] | undefined, ctx: TranslationContext): IRTool[] {
	const decoded = (tools ?? []).flatMap((tool, index) => decodeTool(tool, `tools[${index}]`, ctx));
	// Every provider rejects a function without a name ("tools.0.name: String should have at least 1 character").
	const named = decoded.filter(tool => tool.name !== '' && !tool.name.endsWith('__'));
	if (named.length < decoded.length) ctx.warn(`Dropped ${decoded.length - named.length} tool(s) without a name: no provider accepts them.`);
	return named;
}

export type DecodedToolChoice = {readonly choice?: IRToolChoice; readonly onlyTools?: readonly string[]};

function namedTool(value: WireObject): string | undefined {
	const type = asString(value.type);
	if (type === 'local_shell') return localShellTool;
	const name = asString(value.name);
	return (type === 'function' || type === 'custom') && name ? namespacedName(asString(value.namespace), name) : undefined;
}

/**
 * Responses `tool_choice` → IR: a mode, a named function or custom tool, or `allowed_tools` (its mode,
 * with the tool list narrowed). A hosted tool that was dropped cannot be forced: `auto`, with a warning.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tool_choice
 */
export function decodeResponsesToolChoice(value: unknown, ctx: TranslationContext): DecodedToolChoice {
	if (value === undefined || value === null) return {};
	if (value === 'auto' || value === 'none' || value === 'required') return {choice: {type: value}};
	if (!isWireObject(value)) throw invalidRequest('`tool_choice` must be "auto", "none", "required" or a tool choice object.', 'tool_choice');
	const named = namedTool(value);
	if (named) return {choice: {type: 'tool', name: named}};
	const type = asString(value.type);
	if (type === 'allowed_tools' && (value.mode === 'auto' || value.mode === 'required')) {
		const names = (asArray(value.tools) ?? []).flatMap(tool => (isWireObject(tool) && namedTool(tool)) || []);
		return {choice: {type: value.mode}, onlyTools: names};
	}
	ctx.warn(`tool_choice "${String(type)}" names a tool this channel does not have; sent as "auto".`);
	return {choice: {type: 'auto'}};
}


/** How the client declared a tool: a call to it comes back as the item that tool produces, under its own name and namespace. */
export type DeclaredTool = {readonly kind: 'function' | 'custom' | 'local_shell'; readonly name: string; readonly namespace?: string};

/** Declared tools by IR name; plain top-level functions need no entry. */
export type ToolKinds = ReadonlyMap<string, DeclaredTool>;

function declare(kinds: Map<string, DeclaredTool>, tool: unknown, namespace: string | undefined): void {
	if (!isWireObject(tool)) return;
	const name = asString(tool.name);
	if (tool.type === 'local_shell') kinds.set(localShellTool, {kind: 'local_shell', name: localShellTool});
	if ((tool.type === 'custom' || (tool.type === 'function' && namespace)) && name) {
		kinds.set(namespacedName(namespace, name), {kind: tool.type === 'custom' ? 'custom' : 'function', name, ...(namespace ? {namespace} : {})});
	}
	if (tool.type === 'namespace' && name && !namespace) for (const inner of asArray(tool.tools) ?? []) declare(kinds, inner, name);
}

export function toolKinds(request: unknown): ToolKinds {
	const kinds = new Map<string, DeclaredTool>();
	for (const tool of isWireObject(request) ? asArray(request.tools) ?? [] : []) declare(kinds, tool, undefined);
	return kinds;
}
