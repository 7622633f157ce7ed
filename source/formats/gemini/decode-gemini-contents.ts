/**
 * Gemini request `contents` (a client's conversation) → IR messages.
 *
 * Gemini pairs a `functionResponse` with its call by `name` (and by `id` only when the client kept
 * one), while the IR pairs by id. Calls without an id get a generated one, and a response without
 * an id takes the id of the oldest unanswered call of the same name, so the pairs stay intact.
 * @see https://ai.google.dev/api/caching#Content
 * @see https://ai.google.dev/gemini-api/docs/function-calling#parallel_function_calling
 */
import type {TranslationContext} from '../adapter.js';
import type {IRImagePart, IRMessage, IRPart, IRTextPart, JsonObject} from '../../base/ir.js';
import {unwrapSignature} from '../signature.js';
import {invalidRequest} from '../../base/errors.js';
import {historyToolCallId} from './ids.js';
import {isWireObject} from '../wire.js';
import {pickArray, pickString, readPart, type GeminiFunctionResponse, type GeminiPartIn} from './schema.js';

/** Ids of calls not answered yet, per function name, oldest first. */
type PendingCalls = Map<string, string[]>;

export function decodeGeminiContents(contents: readonly unknown[], ctx: TranslationContext): IRMessage[] {
	const pending: PendingCalls = new Map();
	const messages: IRMessage[] = [];
	contents.forEach((content, index) => {
		const message = convertContent(content, `contents[${index}]`, pending, ctx);
		if (message.parts.length > 0) messages.push(message);
	});
	return messages;
}

function convertContent(content: unknown, where: string, pending: PendingCalls, ctx: TranslationContext): IRMessage {
	if (!isWireObject(content)) throw invalidRequest(`${where} must be a Content object: {"role": "user" | "model", "parts": [...]}.`, where);
	const rawRole = pickString(content, 'role') ?? 'user';
	// "function" is the role older SDKs gave to turns of functionResponse parts.
	if (rawRole !== 'user' && rawRole !== 'model' && rawRole !== 'function') {
		throw invalidRequest(`${where}.role is "${rawRole}"; Gemini roles are "user" and "model".`, `${where}.role`);
	}
	const role = rawRole === 'model' ? 'assistant' : 'user';
	const rawParts = pickArray(content, 'parts');
	if (!rawParts) throw invalidRequest(`${where}.parts must be an array of parts.`, `${where}.parts`);
	const parts: IRPart[] = [];
	rawParts.forEach((raw, index) => {
		const part = readPart(raw);
		if (part) parts.push(...convertPart(part, `${where}.parts[${index}]`, role, pending, ctx));
	});
	return {role, parts};
}

function convertPart(part: GeminiPartIn, where: string, role: IRMessage['role'], pending: PendingCalls, ctx: TranslationContext): IRPart[] {
	const signature = part.thoughtSignature === undefined ? undefined : unwrapSignature(part.thoughtSignature, 'gemini');
	const signed = signature ? {signature} : {};
	if (part.functionCall) {
		if (role !== 'assistant') throw invalidRequest(`${where}: functionCall parts belong in "model" turns.`, where);
		const {name, args} = part.functionCall;
		if (!name) throw invalidRequest(`${where}.functionCall.name is required.`, `${where}.functionCall.name`);
		const id = part.functionCall.id ?? historyToolCallId(`${where}:${name}:${JSON.stringify(args)}`);
		pending.set(name, [...(pending.get(name) ?? []), id]);
		return [{type: 'tool_call', id, name, arguments: JSON.stringify(args), ...signed}];
	}
	if (part.functionResponse) {
		if (role !== 'user') throw invalidRequest(`${where}: functionResponse parts belong in "user" turns.`, where);
		return [convertFunctionResponse(part.functionResponse, where, pending, ctx)];
	}
	if (part.text !== undefined) {
		return [part.thought ? {type: 'reasoning', text: part.text, ...signed} : {type: 'text', text: part.text, ...signed}];
	}
	const image = convertMedia(part, where, ctx);
	return image ? [image] : [];
}

function takePendingId(pending: PendingCalls, name: string, id: string | undefined, where: string): string {
	const ids = pending.get(name) ?? [];
	const at = id === undefined ? 0 : ids.indexOf(id);
	if (at >= 0 && ids.length > 0) {
		const [taken] = ids.splice(at, 1);
		return id ?? taken;
	}
	return id ?? historyToolCallId(`${where}:${name}`);
}

function convertFunctionResponse(response: GeminiFunctionResponse, where: string, pending: PendingCalls, ctx: TranslationContext): IRPart {
	const {name} = response;
	if (!name) throw invalidRequest(`${where}.functionResponse.name is required: it names the function that was called.`, `${where}.functionResponse.name`);
	const {text, isError} = readResponseObject(response.response);
	const images = response.parts
		.map((media, index) => convertMedia({thought: false, ...media}, `${where}.functionResponse.parts[${index}]`, ctx))
		.filter((image): image is IRImagePart => image !== undefined);
	const content: Array<IRTextPart | IRImagePart> = text === '' && images.length > 0 ? images : [{type: 'text', text}, ...images];
	return {type: 'tool_result', toolCallId: takePendingId(pending, name, response.id, where), name, content, ...(isError ? {isError} : {})};
}

/**
 * Google's convention: `{"output": …}` for a result, `{"error": …}` for a failure; any other object
 * is the output as a whole.
 * @see https://ai.google.dev/api/caching#FunctionResponse
 */
function readResponseObject(response: JsonObject): {text: string; isError: boolean} {
	const keys = Object.keys(response);
	const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
	if (response.error !== undefined && response.error !== null) return {text: asText(response.error), isError: true};
	if (keys.length === 1 && (keys[0] === 'output' || keys[0] === 'result')) return {text: asText(response[keys[0]]), isError: false};
	return {text: keys.length === 0 ? '' : JSON.stringify(response), isError: false};
}

/** inlineData → base64 image, fileData → url image. Other media (PDF, audio) have no IR part and are dropped, with a warning. */
function convertMedia(part: GeminiPartIn, where: string, ctx: TranslationContext): IRImagePart | undefined {
	if (part.inlineData) {
		const {mimeType, data} = part.inlineData;
		if (mimeType.startsWith('image/')) return {type: 'image', source: {kind: 'base64', mediaType: mimeType, data}};
		ctx.warn(`Dropped ${where}: inline ${mimeType} data has no equivalent outside Gemini (only images translate).`);
		return undefined;
	}
	if (part.fileData) {
		const {fileUri, mimeType} = part.fileData;
		if (mimeType === undefined || mimeType.startsWith('image/')) {
			return {type: 'image', source: mimeType === undefined ? {kind: 'url', url: fileUri} : {kind: 'url', url: fileUri, mediaType: mimeType}};
		}
		ctx.warn(`Dropped ${where}: file ${fileUri} (${mimeType}) has no equivalent outside Gemini (only images translate).`);
	}
	return undefined;
}
