/**
 * Gemini embeddings: `:embedContent` (one content → `{embedding: {values}}`) and
 * `:batchEmbedContents` (`{requests: [...]}` → `{embeddings: [{values}]}`, what @google/genai's
 * `models.embedContent` sends). Text only; `taskType`, `title` and `outputDimensionality` per request.
 * Gemini reports no token usage for embeddings: the proxy estimates it.
 * @see https://ai.google.dev/api/embeddings
 */
import {GatewayError, invalidRequest} from '../../base/errors.js';
import type {IREmbedRequest, IREmbedResponse, JsonObject, JsonValue} from '../../base/ir.js';
import type {InboundCall, InboundEmbeddings, UpstreamEmbeddings} from '../adapter.js';

type EmbedRequest = {content?: unknown; taskType?: unknown; title?: unknown; outputDimensionality?: unknown};

function contentText(content: unknown, where: string): string {
	const parts = (content as {parts?: unknown} | null)?.parts;
	if (!Array.isArray(parts) || parts.length === 0) throw invalidRequest(`${where}.content.parts must be a non-empty list of text parts.`);
	return parts
		.map((part, index) => {
			const text = (part as {text?: unknown} | null)?.text;
			if (typeof text !== 'string') throw invalidRequest(`${where}.content.parts[${index}] must be a text part: Gemini embeddings take text only.`);
			return text;
		})
		.join('\n');
}

function settings(request: EmbedRequest): Omit<IREmbedRequest, 'inputs'> {
	const dimensions = request.outputDimensionality;
	return {
		...(typeof dimensions === 'number' ? {dimensions} : {}),
		...(typeof request.taskType === 'string' ? {taskType: request.taskType} : {}),
		...(typeof request.title === 'string' ? {title: request.title} : {}),
	};
}

export function decodeGeminiEmbedRequest(body: JsonObject, call: InboundCall): IREmbedRequest {
	if (call.method === 'embedContent') return {inputs: [{type: 'text', text: contentText(body.content, 'body')}], ...settings(body)};
	const requests = body.requests;
	if (!Array.isArray(requests) || requests.length === 0) throw invalidRequest('batchEmbedContents needs a non-empty "requests" list.');
	const inputs = requests.map((request, index) => ({type: 'text' as const, text: contentText((request as EmbedRequest | null)?.content, `requests[${index}]`)}));
	return {inputs, ...settings(requests[0] as EmbedRequest)};
}

export function encodeGeminiEmbedResponse(response: IREmbedResponse, options: {readonly call: InboundCall}): JsonValue {
	if (options.call.method === 'embedContent') return {embedding: {values: [...(response.vectors[0] ?? [])]}};
	return {embeddings: response.vectors.map(values => ({values: [...values]}))};
}

export function decodeGeminiEmbedResponse(body: unknown): IREmbedResponse {
	const record = (body ?? {}) as {embedding?: {values?: unknown}; embeddings?: unknown; usageMetadata?: {promptTokenCount?: unknown}};
	const list = Array.isArray(record.embeddings) ? record.embeddings : record.embedding ? [record.embedding] : undefined;
	if (!list) throw new GatewayError('upstream', 502, 'Gemini answered embeddings without "embeddings" or "embedding".');
	const vectors = list.map(item => {
		const values = (item as {values?: unknown} | null)?.values;
		return Array.isArray(values) ? values.map(Number) : [];
	});
	const tokens = record.usageMetadata?.promptTokenCount;
	return {vectors, usage: typeof tokens === 'number' ? {inputTokens: tokens, outputTokens: 0} : null};
}

export const geminiEmbeddings: InboundEmbeddings = {
	decodeRequest: decodeGeminiEmbedRequest,
	encodeResponse: encodeGeminiEmbedResponse,
	decodeResponse: decodeGeminiEmbedResponse,
};

export const geminiUpstreamEmbeddings: UpstreamEmbeddings = {
	encodeRequest(request, target) {
		const model = `models/${target.model.replace(/^models\//, '')}`;
		const requests = request.inputs.map((input, index) => {
			if (input.type !== 'text') throw invalidRequest(`input[${index}] is token ids, which Gemini embeddings cannot take: send the input as text.`, 'input');
			return {
				model,
				content: {parts: [{text: input.text}]},
				...(request.taskType ? {taskType: request.taskType} : {}),
				...(request.title ? {title: request.title} : {}),
				...(request.dimensions ? {outputDimensionality: request.dimensions} : {}),
			};
		});
		return {path: `/v1beta/${model}:batchEmbedContents`, body: {requests}};
	},
	decodeResponse: decodeGeminiEmbedResponse,
};
