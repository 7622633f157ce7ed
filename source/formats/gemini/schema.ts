/**
 * Loose Gemini wire types: only the fields this adapter reads, normalised from either spelling.
 * Google's proto-JSON parser accepts both lowerCamelCase and the original snake_case field names
 * (@google/genai sends camelCase, hand-written clients and Python dumps often send snake_case), so
 * every read goes through `pick`, which tries both.
 * @see https://ai.google.dev/api/generate-content
 * @see https://protobuf.dev/programming-guides/json/#json-options
 */
import type {JsonObject, JsonValue} from '../../base/ir.js';

export type UnknownRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is UnknownRecord {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, letter => `_${letter.toLowerCase()}`);

/** A field by its camelCase name, else by its snake_case twin. */
export function pick(object: UnknownRecord, camel: string): unknown {
	const value = object[camel];
	return value === undefined ? object[snakeCase(camel)] : value;
}

export function pickString(object: UnknownRecord, camel: string): string | undefined {
	const value = pick(object, camel);
	return typeof value === 'string' ? value : undefined;
}

export function pickNumber(object: UnknownRecord, camel: string): number | undefined {
	const value = pick(object, camel);
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	// int64 fields (token counts, minItems) may arrive as decimal strings in proto JSON.
	if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
	return undefined;
}

export function pickRecord(object: UnknownRecord, camel: string): UnknownRecord | undefined {
	const value = pick(object, camel);
	return isRecord(value) ? value : undefined;
}

export function pickArray(object: UnknownRecord, camel: string): unknown[] | undefined {
	const value = pick(object, camel);
	return Array.isArray(value) ? value : undefined;
}

/** Bodies come from JSON.parse, so a plain object is a JSON object. */
export function asJsonObject(value: unknown): JsonObject | undefined {
	return isRecord(value) ? (value as JsonObject) : undefined;
}

/** Build a wire object, leaving out the fields that are undefined. */
export function compact(fields: Record<string, JsonValue | undefined>): JsonObject {
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
	return out;
}

export type GeminiBlob = {readonly mimeType: string; readonly data: string};
export type GeminiFileData = {readonly mimeType?: string; readonly fileUri: string};

export type GeminiFunctionCall = {readonly id?: string; readonly name?: string; readonly args: JsonObject};

export type GeminiFunctionResponse = {
	readonly id?: string;
	readonly name?: string;
	readonly response: JsonObject;
	/** Gemini 3 multimodal function responses: media nested in the response. */
	readonly parts: ReadonlyArray<{readonly inlineData?: GeminiBlob; readonly fileData?: GeminiFileData}>;
};

/** One `Part`, normalised. Exactly one of the data fields is set on a valid part. */
export type GeminiPartIn = {
	readonly text?: string;
	readonly thought: boolean;
	readonly thoughtSignature?: string;
	readonly inlineData?: GeminiBlob;
	readonly fileData?: GeminiFileData;
	readonly functionCall?: GeminiFunctionCall;
	readonly functionResponse?: GeminiFunctionResponse;
};

function readBlob(value: unknown): GeminiBlob | undefined {
	if (!isRecord(value)) return undefined;
	const mimeType = pickString(value, 'mimeType');
	const data = pickString(value, 'data');
	return mimeType !== undefined && data !== undefined ? {mimeType, data} : undefined;
}

function readFileData(value: unknown): GeminiFileData | undefined {
	if (!isRecord(value)) return undefined;
	const fileUri = pickString(value, 'fileUri');
	return fileUri === undefined ? undefined : {fileUri, mimeType: pickString(value, 'mimeType')};
}

function readFunctionCall(value: unknown): GeminiFunctionCall | undefined {
	if (!isRecord(value)) return undefined;
	return {id: pickString(value, 'id'), name: pickString(value, 'name'), args: asJsonObject(pick(value, 'args')) ?? {}};
}

function readFunctionResponse(value: unknown): GeminiFunctionResponse | undefined {
	if (!isRecord(value)) return undefined;
	const parts = (pickArray(value, 'parts') ?? []).filter(isRecord).map(part => ({
		inlineData: readBlob(pick(part, 'inlineData')),
		fileData: readFileData(pick(part, 'fileData')),
	}));
	return {id: pickString(value, 'id'), name: pickString(value, 'name'), response: asJsonObject(pick(value, 'response')) ?? {}, parts};
}

export function readPart(value: unknown): GeminiPartIn | undefined {
	if (!isRecord(value)) return undefined;
	return {
		text: pickString(value, 'text'),
		thought: pick(value, 'thought') === true,
		thoughtSignature: pickString(value, 'thoughtSignature'),
		inlineData: readBlob(pick(value, 'inlineData')),
		fileData: readFileData(pick(value, 'fileData')),
		functionCall: readFunctionCall(pick(value, 'functionCall')),
		functionResponse: readFunctionResponse(pick(value, 'functionResponse')),
	};
}

/** The parts of a `Content` (a missing or malformed list reads as empty). */
export function readParts(content: unknown): GeminiPartIn[] {
	if (!isRecord(content)) return [];
	return (pickArray(content, 'parts') ?? []).map(readPart).filter((part): part is GeminiPartIn => part !== undefined);
}
