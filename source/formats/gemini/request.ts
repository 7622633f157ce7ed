/**
 * A Gemini `GenerateContentRequest` ↔ the IR request. The model and streaming live in the URL
 * (`/v1beta/models/{model}:generateContent` or `:streamGenerateContent?alt=sse`), not in the body.
 * @see https://ai.google.dev/api/generate-content#method:-models.generatecontent
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import type {DecodeRequestOptions, EncodedRequest, TranslationContext, UpstreamTarget} from '../adapter.js';
import type {IRRequest, IRSystemBlock, JsonObject} from '../../base/ir.js';
import {invalidRequest} from '../../base/errors.js';
import {decodeGeminiContents} from './decode-gemini-contents.js';
import {encodeGeminiContents} from './encode-gemini-contents.js';
import {decodeGeminiGenerationConfig, encodeGeminiGenerationConfig} from './map-gemini-generation-config.js';
import {decodeGeminiToolConfig, decodeGeminiTools, encodeGeminiToolConfig, encodeGeminiTools} from './map-gemini-tools.js';
import {bareName} from './model-family.js';
import {compact, isWireObject, type WireObject} from '../wire.js';
import {pick, pickArray, pickRecord, pickString, readParts} from './schema.js';

/** `systemInstruction` is a Content; clients also send a bare string, which the API accepts too. */
function decodeSystem(value: unknown): IRSystemBlock[] {
	if (typeof value === 'string') return value === '' ? [] : [{text: value}];
	if (!isWireObject(value)) return [];
	return readParts(value).flatMap(part => (part.text ? [{text: part.text}] : []));
}

/** The parts of a request that countTokens shares with generateContent. */
export function decodeGeminiRequestBody(body: WireObject, model: string, stream: boolean, ctx: TranslationContext): IRRequest {
	const contents = pickArray(body, 'contents');
	if (!contents) throw invalidRequest('contents is required: an array of {"role", "parts"} turns.', 'contents');
	const {toolChoice, tools} = decodeGeminiToolConfig(pickRecord(body, 'toolConfig'), decodeGeminiTools(pick(body, 'tools'), ctx));
	if (pick(body, 'cachedContent') !== undefined) ctx.warn('cachedContent refers to a Gemini cache and cannot be translated; it was ignored.');
	return {
		model,
		system: decodeSystem(pick(body, 'systemInstruction')),
		messages: decodeGeminiContents(contents, ctx),
		tools,
		...(toolChoice ? {toolChoice} : {}),
		...decodeGeminiGenerationConfig(pickRecord(body, 'generationConfig'), ctx),
		stream,
	};
}

export function decodeGeminiRequest(body: unknown, options: DecodeRequestOptions, ctx: TranslationContext): IRRequest {
	if (!isWireObject(body)) throw invalidRequest('The request body must be a JSON object (a GenerateContentRequest).');
	const model = options.model ?? pickString(body, 'model');
	if (!model) throw invalidRequest('No model given: call /v1beta/models/{model}:generateContent.');
	return decodeGeminiRequestBody(body, bareName(model), options.stream ?? false, ctx);
}

/** The GenerateContentRequest body without the model: generateContent and countTokens share it. */
export async function encodeGeminiRequestBody(request: IRRequest, model: string, ctx: TranslationContext): Promise<JsonObject> {
	const tools = encodeGeminiTools(request.tools);
	if (request.parallelToolCalls === false && tools) ctx.warn('Gemini has no switch for parallel tool calls; parallel_tool_calls=false was not applied.');
	const system = request.system.filter(block => block.text !== '').map(block => ({text: block.text}));
	return compact({
		contents: await encodeGeminiContents(request.messages, model, ctx),
		systemInstruction: system.length > 0 ? {parts: system} : undefined,
		tools,
		toolConfig: encodeGeminiToolConfig(request.toolChoice, tools !== undefined),
		generationConfig: encodeGeminiGenerationConfig(request, model, ctx),
	});
}

export async function encodeGeminiRequest(request: IRRequest, target: UpstreamTarget, ctx: TranslationContext): Promise<EncodedRequest> {
	const model = bareName(target.model);
	const body = await encodeGeminiRequestBody(request, model, ctx);
	if (target.stream) return {path: `/v1beta/models/${model}:streamGenerateContent`, query: {alt: 'sse'}, body};
	return {path: `/v1beta/models/${model}:generateContent`, body};
}
