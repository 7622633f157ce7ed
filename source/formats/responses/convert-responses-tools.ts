import {invalidRequest} from '../../base/errors.js';
import type {TranslationContext} from '../adapter.js';
import type {IRTool, IRToolChoice, JsonObject} from '../../base/ir.js';
import {arrayField, isJsonObject, isObject, objectField, optionalString, requireString, stringField, type WireObject} from './schema.js';

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
	const name = requireString(tool, 'name', `${path}.name`);
	const format = objectField(tool, 'format');
	const grammar = format && stringField(format, 'type') === 'grammar' ? stringField(format, 'definition') : undefined;
	const syntax = (format && stringField(format, 'syntax')) ?? 'lark';
	const description = [
		optionalString(tool, 'description', `${path}.description`),
		'Call it with {"input": "<raw text>"}; the text is passed on exactly as written.',
		grammar ? `The text must follow this ${syntax} grammar:\n${grammar}` : undefined,
	].filter(Boolean).join('\n\n');
	return {name, description, parameters: {type: 'object', properties: {input: {type: 'string', description: 'The raw text input.'}}, required: ['input']}};
}

function functionTool(tool: WireObject, path: string): IRTool {
	const description = optionalString(tool, 'description', `${path}.description`);
	const parameters = tool.parameters;
	if (parameters !== undefined && parameters !== null && !isJsonObject(parameters)) {
		throw invalidRequest(`\`${path}.parameters\` must be a JSON Schema object.`, `${path}.parameters`);
	}
	return {name: requireString(tool, 'name', `${path}.name`), ...(description ? {description} : {}), parameters: parameters ?? emptyParameters};
}

/** A `namespace` groups function and custom tools; flattened, each keeps the group's description. */
function namespaceTools(tool: WireObject, path: string, ctx: TranslationContext): IRTool[] {
	const namespace = requireString(tool, 'name', `${path}.name`);
	const about = optionalString(tool, 'description', `${path}.description`);
	return (arrayField(tool, 'tools') ?? []).flatMap((inner, index) =>
		decodeTool(inner, `${path}.tools[${index}]`, ctx).map(decoded => {
			const description = [about, decoded.description].filter(Boolean).join('\n\n');
			return {...decoded, name: namespacedName(namespace, decoded.name), ...(description ? {description} : {})};
		}),
	);
}

function decodeTool(tool: unknown, path: string, ctx: TranslationContext): IRTool[] {
	if (!isObject(tool)) throw invalidRequest(`\`${path}\` must be a tool object.`, path);
	const type = stringField(tool, 'type');
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
	return (tools ?? []).flatMap((tool, index) => decodeTool(tool, `tools[${index}]`, ctx));
}

export type DecodedToolChoice = {readonly choice?: IRToolChoice; readonly onlyTools?: readonly string[]};

function namedTool(value: WireObject): string | undefined {
	const type = stringField(value, 'type');
	if (type === 'local_shell') return localShellTool;
	const name = stringField(value, 'name');
	return (type === 'function' || type === 'custom') && name ? namespacedName(stringField(value, 'namespace'), name) : undefined;
}

/**
 * Responses `tool_choice` → IR: a mode, a named function or custom tool, or `allowed_tools` (its mode,
 * with the tool list narrowed). A hosted tool that was dropped cannot be forced: `auto`, with a warning.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tool_choice
 */
export function decodeResponsesToolChoice(value: unknown, ctx: TranslationContext): DecodedToolChoice {
	if (value === undefined || value === null) return {};
	if (value === 'auto' || value === 'none' || value === 'required') return {choice: {type: value}};
	if (!isObject(value)) throw invalidRequest('`tool_choice` must be "auto", "none", "required" or a tool choice object.', 'tool_choice');
	const named = namedTool(value);
	if (named) return {choice: {type: 'tool', name: named}};
	const type = stringField(value, 'type');
	if (type === 'allowed_tools' && (value.mode === 'auto' || value.mode === 'required')) {
		const names = (arrayField(value, 'tools') ?? []).flatMap(tool => (isObject(tool) && namedTool(tool)) || []);
		return {choice: {type: value.mode}, onlyTools: names};
	}
	ctx.warn(`tool_choice "${String(type)}" names a tool this channel does not have; sent as "auto".`);
	return {choice: {type: 'auto'}};
}

/** Narrow the tools to the names `allowed_tools` permits, warning about the ones left out. */
export function narrowTools(tools: IRTool[], onlyTools: readonly string[] | undefined, ctx: TranslationContext): IRTool[] {
	if (!onlyTools) return tools;
	const kept = tools.filter(tool => onlyTools.includes(tool.name));
	if (kept.length < tools.length) ctx.warn(`tool_choice.allowed_tools: sent only ${kept.length} of ${tools.length} tools to the model.`);
	return kept;
}

/** How the client declared a tool: a call to it comes back as the item that tool produces, under its own name and namespace. */
export type DeclaredTool = {readonly kind: 'function' | 'custom' | 'local_shell'; readonly name: string; readonly namespace?: string};

/** Declared tools by IR name; plain top-level functions need no entry. */
export type ToolKinds = ReadonlyMap<string, DeclaredTool>;

function declare(kinds: Map<string, DeclaredTool>, tool: unknown, namespace: string | undefined): void {
	if (!isObject(tool)) return;
	const name = stringField(tool, 'name');
	if (tool.type === 'local_shell') kinds.set(localShellTool, {kind: 'local_shell', name: localShellTool});
	if ((tool.type === 'custom' || (tool.type === 'function' && namespace)) && name) {
		kinds.set(namespacedName(namespace, name), {kind: tool.type === 'custom' ? 'custom' : 'function', name, ...(namespace ? {namespace} : {})});
	}
	if (tool.type === 'namespace' && name && !namespace) for (const inner of arrayField(tool, 'tools') ?? []) declare(kinds, inner, name);
}

export function toolKinds(request: unknown): ToolKinds {
	const kinds = new Map<string, DeclaredTool>();
	for (const tool of isObject(request) ? arrayField(request, 'tools') ?? [] : []) declare(kinds, tool, undefined);
	return kinds;
}
