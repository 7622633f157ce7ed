/**
 * A small proto3-JSON parser for the fake Gemini API: it knows the v1beta message shapes (field names
 * from the REST reference / @google/genai converters), accepts camelCase and snake_case names like the
 * real transcoder, and reports the real transcoder's errors:
 *   Invalid JSON payload received. Unknown name "x" at 'tools[0].function_declarations[0].parameters': Cannot find field.
 *   Invalid JSON payload received. Unknown name "type" at '…': Proto field is not repeating, cannot start list.
 *   Invalid value at 'generation_config.temperature' (TYPE_FLOAT), "hot"
 * Paths use snake_case and map entries are `properties[i].value`, as in real error bodies.
 * It returns the body normalised to camelCase so the semantic checks can read it.
 */
import {isBase64, isRecord} from './common.js';

type Spec =
	| {k: 'msg'; name: string; fields: () => Record<string, Spec>}
	| {k: 'rep'; of: Spec}
	| {k: 'map'; of: Spec}
	| {k: 'str'}
	| {k: 'num'; type: string}
	| {k: 'bool'}
	| {k: 'bytes'}
	| {k: 'enum'; name: string; values: string[]}
	| {k: 'struct'}
	| {k: 'any'};

export type Violation = {field?: string; description: string};

const PKG = 'type.googleapis.com/google.ai.generativelanguage.v1beta.';
const msg = (name: string, fields: () => Record<string, Spec>): Spec => ({k: 'msg', name, fields});
const rep = (of: Spec): Spec => ({k: 'rep', of});
const str: Spec = {k: 'str'};
const bool: Spec = {k: 'bool'};
const any: Spec = {k: 'any'};
const float: Spec = {k: 'num', type: 'TYPE_FLOAT'};
const int32: Spec = {k: 'num', type: 'TYPE_INT32'};
const int64: Spec = {k: 'num', type: 'TYPE_INT64'};
const double: Spec = {k: 'num', type: 'TYPE_DOUBLE'};
const enumOf = (name: string, values: string[]): Spec => ({k: 'enum', name, values});

export const SCHEMA_TYPES = ['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'];

const SCHEMA: Spec = msg('Schema', () => ({
	type: enumOf('Type', SCHEMA_TYPES),
	format: str,
	title: str,
	description: str,
	nullable: bool,
	enum: rep(str),
	maxItems: int64,
	minItems: int64,
	properties: {k: 'map', of: SCHEMA},
	required: rep(str),
	minProperties: int64,
	maxProperties: int64,
	minLength: int64,
	maxLength: int64,
	pattern: str,
	example: any,
	anyOf: rep(SCHEMA),
	propertyOrdering: rep(str),
	default: any,
	items: SCHEMA,
	minimum: double,
	maximum: double,
}));

const PART: Spec = msg('Part', () => ({
	text: str,
	inlineData: msg('Blob', () => ({mimeType: str, data: {k: 'bytes'}, displayName: str})),
	fileData: msg('FileData', () => ({mimeType: str, fileUri: str, displayName: str})),
	functionCall: msg('FunctionCall', () => ({id: str, name: str, args: {k: 'struct'}})),
	functionResponse: msg('FunctionResponse', () => ({
		id: str,
		name: str,
		response: {k: 'struct'},
		parts: any,
		willContinue: bool,
		scheduling: enumOf('FunctionResponse.Scheduling', ['SCHEDULING_UNSPECIFIED', 'SILENT', 'WHEN_IDLE', 'INTERRUPT']),
	})),
	executableCode: any,
	codeExecutionResult: any,
	toolCall: any,
	toolResponse: any,
	thought: bool,
	thoughtSignature: {k: 'bytes'},
	videoMetadata: any,
	mediaResolution: any,
	partMetadata: any,
}));

const CONTENT: Spec = msg('Content', () => ({parts: rep(PART), role: str}));

const TOOL: Spec = msg('Tool', () => ({
	functionDeclarations: rep(
		msg('FunctionDeclaration', () => ({
			name: str,
			description: str,
			parameters: SCHEMA,
			parametersJsonSchema: any,
			response: SCHEMA,
			responseJsonSchema: any,
			behavior: enumOf('FunctionDeclaration.Behavior', ['UNSPECIFIED', 'BLOCKING', 'NON_BLOCKING']),
		})),
	),
	googleSearch: any,
	googleSearchRetrieval: any,
	codeExecution: any,
	urlContext: any,
	computerUse: any,
	fileSearch: any,
	googleMaps: any,
	mcpServers: any,
}));

const GENERATION_CONFIG: Spec = msg('GenerationConfig', () => ({
	stopSequences: rep(str),
	responseMimeType: str,
	responseSchema: SCHEMA,
	responseJsonSchema: any,
	responseModalities: rep(str),
	candidateCount: int32,
	maxOutputTokens: int32,
	temperature: float,
	topP: float,
	topK: int32,
	seed: int32,
	presencePenalty: float,
	frequencyPenalty: float,
	responseLogprobs: bool,
	logprobs: int32,
	enableEnhancedCivicAnswers: bool,
	speechConfig: any,
	imageConfig: any,
	mediaResolution: any,
	audioTranscriptionConfig: any,
	thinkingConfig: msg('ThinkingConfig', () => ({
		includeThoughts: bool,
		thinkingBudget: int32,
		thinkingLevel: enumOf('ThinkingConfig.ThinkingLevel', ['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH']),
	})),
}));

export const GENERATE_REQUEST: Spec = msg('GenerateContentRequest', () => ({
	model: str,
	contents: rep(CONTENT),
	tools: rep(TOOL),
	toolConfig: msg('ToolConfig', () => ({
		functionCallingConfig: msg('FunctionCallingConfig', () => ({
			mode: enumOf('FunctionCallingConfig.Mode', ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED']),
			allowedFunctionNames: rep(str),
		})),
		retrievalConfig: any,
		includeServerSideToolInvocations: bool,
	})),
	safetySettings: rep(msg('SafetySetting', () => ({category: str, threshold: str, method: str}))),
	systemInstruction: CONTENT,
	generationConfig: GENERATION_CONFIG,
	cachedContent: str,
	serviceTier: any,
	store: bool,
}));

export const COUNT_REQUEST: Spec = msg('CountTokensRequest', () => ({contents: rep(CONTENT), generateContentRequest: GENERATE_REQUEST}));

export const toCamel = (key: string): string => key.replace(/_([a-z0-9])/g, (_m: string, c: string) => c.toUpperCase());
export const toSnake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function typeName(spec: Spec): string {
	switch (spec.k) {
		case 'msg':
			return `${PKG}${spec.name}`;
		case 'enum':
			return `${PKG}${spec.name}`;
		case 'num':
			return spec.type;
		case 'bool':
			return 'TYPE_BOOL';
		case 'bytes':
			return 'TYPE_BYTES';
		case 'struct':
			return 'type.googleapis.com/google.protobuf.Struct';
		case 'rep':
		case 'map':
			return typeName(spec.of);
		default:
			return 'TYPE_STRING';
	}
}

function invalidValue(path: string, spec: Spec, value: unknown): Violation {
	return {field: path, description: `Invalid value at '${path}' (${typeName(spec)}), ${JSON.stringify(value)}`};
}

function walkFields(value: unknown, spec: Spec & {k: 'msg'}, path: string, out: Violation[]): Record<string, unknown> | undefined {
	if (!isRecord(value)) {
		out.push(invalidValue(path, spec, value));
		return undefined;
	}
	const result: Record<string, unknown> = {};
	const fields = spec.fields();
	for (const [key, child] of Object.entries(value)) {
		const name = toCamel(key);
		const childSpec = fields[name];
		if (!childSpec) {
			out.push({...(path ? {field: path} : {}), description: `Invalid JSON payload received. Unknown name "${key}"${path ? ` at '${path}'` : ''}: Cannot find field.`});
			continue;
		}
		if (child === null) continue;
		if (Array.isArray(child) && childSpec.k !== 'rep' && childSpec.k !== 'any') {
			out.push({...(path ? {field: path} : {}), description: `Invalid JSON payload received. Unknown name "${key}"${path ? ` at '${path}'` : ''}: Proto field is not repeating, cannot start list.`});
			continue;
		}
		result[name] = walk(child, childSpec, path ? `${path}.${toSnake(name)}` : toSnake(name), out);
	}
	return result;
}

function walk(value: unknown, spec: Spec, path: string, out: Violation[]): unknown {
	switch (spec.k) {
		case 'msg':
			return walkFields(value, spec, path, out);
		case 'rep':
			if (!Array.isArray(value)) {
				out.push(invalidValue(path, spec, value));
				return undefined;
			}
			return value.map((item, i) => walk(item, spec.of, `${path}[${i}]`, out));
		case 'map': {
			if (!isRecord(value)) {
				out.push(invalidValue(path, spec, value));
				return undefined;
			}
			const result: Record<string, unknown> = {};
			for (const [i, [key, child]] of Object.entries(value).entries()) result[key] = walk(child, spec.of, `${path}[${i}].value`, out);
			return result;
		}
		case 'str':
			if (typeof value !== 'string') out.push(invalidValue(path, spec, value));
			return value;
		case 'num':
			if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))) return Number(value);
			out.push(invalidValue(path, spec, value));
			return undefined;
		case 'bool':
			if (typeof value !== 'boolean') out.push(invalidValue(path, spec, value));
			return value;
		case 'bytes':
			if (typeof value !== 'string' || !isBase64(value)) {
				out.push({field: path, description: `Invalid value at '${path}' (TYPE_BYTES), Base64 decoding failed for ${JSON.stringify(value)}`});
			}
			return value;
		case 'enum': {
			const match = typeof value === 'string' ? spec.values.find((v) => v === value.toUpperCase()) : undefined;
			if (match === undefined) out.push(invalidValue(path, spec, value));
			return match;
		}
		case 'struct':
			if (!isRecord(value)) out.push(invalidValue(path, spec, value));
			return value;
		default:
			return value;
	}
}

/** Parse a body against a request message spec; violations empty means the JSON transcoder would accept it. */
export function parseProto(body: unknown, spec: Spec): {value: Record<string, unknown>; violations: Violation[]} {
	const violations: Violation[] = [];
	const value = spec.k === 'msg' ? walkFields(body, spec, '', violations) : undefined;
	return {value: value ?? {}, violations};
}
