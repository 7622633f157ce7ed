/**
 * OpenAI embeddings: `POST /v1/embeddings`. `input` is a string, an array of strings, an array of
 * token ids or an array of arrays of token ids; `encoding_format` is `float` or `base64` — the
 * openai SDK asks for base64 by default and decodes it as little-endian float32, so that is exactly
 * what the gateway sends; `dimensions` shortens the vectors.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 */
import {GatewayError, invalidRequest} from '../../base/errors.js';
import type {IREmbedInput, IREmbedRequest, IREmbedResponse, JsonObject, JsonValue} from '../../base/ir.js';
import type {InboundEmbeddings, UpstreamEmbeddings} from '../adapter.js';

const isTokenList = (value: unknown): value is number[] => Array.isArray(value) && value.length > 0 && value.every(item => Number.isInteger(item));

function decodeOpenaiEmbedInputs(input: unknown): IREmbedInput[] {
	if (typeof input === 'string') return [{type: 'text', text: input}];
	if (isTokenList(input)) return [{type: 'tokens', tokens: input}];
	if (Array.isArray(input) && input.length > 0) {
		return input.map((item, index) => {
			if (typeof item === 'string') return {type: 'text', text: item};
			if (isTokenList(item)) return {type: 'tokens', tokens: item};
			throw invalidRequest(`input[${index}] must be a string or an array of token ids.`, 'input');
		});
	}
	throw invalidRequest('"input" must be a non-empty string, array of strings, array of token ids or array of arrays of token ids.', 'input');
}

export function decodeOpenaiEmbedRequest(body: JsonObject): IREmbedRequest {
	const format = body.encoding_format;
	if (format !== undefined && format !== 'float' && format !== 'base64') throw invalidRequest(`"encoding_format" must be "float" or "base64", not ${JSON.stringify(format)}.`, 'encoding_format');
	const dimensions = body.dimensions;
	if (dimensions !== undefined && (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1)) throw invalidRequest('"dimensions" must be a positive integer.', 'dimensions');
	return {inputs: decodeOpenaiEmbedInputs(body.input), ...(typeof dimensions === 'number' ? {dimensions} : {})};
}

/** A vector as OpenAI sends it for `encoding_format: "base64"`: float32, little-endian, base64. */
export function encodeFloat32Base64(vector: readonly number[]): string {
	const buffer = Buffer.alloc(vector.length * 4);
	vector.forEach((value, index) => buffer.writeFloatLE(value, index * 4));
	return buffer.toString('base64');
}

export function decodeFloat32Base64(text: string): number[] {
	const buffer = Buffer.from(text, 'base64');
	return Array.from({length: Math.floor(buffer.length / 4)}, (_, index) => buffer.readFloatLE(index * 4));
}

export function encodeOpenaiEmbedResponse(response: IREmbedResponse, options: {readonly model: string; readonly request: JsonObject}): JsonValue {
	const base64 = options.request.encoding_format === 'base64';
	const input = response.usage?.inputTokens ?? 0;
	return {
		object: 'list',
		data: response.vectors.map((vector, index) => ({object: 'embedding', index, embedding: base64 ? encodeFloat32Base64(vector) : [...vector]})),
		model: options.model,
		usage: {prompt_tokens: input, total_tokens: input},
	};
}

export function decodeOpenaiEmbedResponse(body: unknown): IREmbedResponse {
	const data = (body as {data?: unknown} | null)?.data;
	if (!Array.isArray(data)) throw new GatewayError('upstream', 502, 'The provider answered embeddings without a "data" list.');
	const rows = data.map(item => item as {index?: unknown; embedding?: unknown});
	const ordered = [...rows].sort((a, b) => (typeof a.index === 'number' && typeof b.index === 'number' ? a.index - b.index : 0));
	const vectors = ordered.map(row => (typeof row.embedding === 'string' ? decodeFloat32Base64(row.embedding) : Array.isArray(row.embedding) ? row.embedding.map(Number) : []));
	const usage = (body as {usage?: {prompt_tokens?: unknown}}).usage;
	const tokens = typeof usage?.prompt_tokens === 'number' ? usage.prompt_tokens : undefined;
	return {vectors, usage: tokens === undefined ? null : {inputTokens: tokens, outputTokens: 0}};
}

export const openaiEmbeddings: InboundEmbeddings = {
	decodeRequest: body => decodeOpenaiEmbedRequest(body),
	encodeResponse: encodeOpenaiEmbedResponse,
	decodeResponse: decodeOpenaiEmbedResponse,
};

/** Upstream, the gateway always asks for floats: it decodes them anyway to re-encode for the client. */
export const openaiUpstreamEmbeddings: UpstreamEmbeddings = {
	encodeRequest(request, target) {
		const input = request.inputs.every(item => item.type === 'text')
			? request.inputs.map(item => (item.type === 'text' ? item.text : ''))
			: request.inputs.map(item => (item.type === 'tokens' ? [...item.tokens] : item.text));
		return {path: '/embeddings', body: {model: target.model, input, encoding_format: 'float', ...(request.dimensions ? {dimensions: request.dimensions} : {})}};
	},
	decodeResponse: decodeOpenaiEmbedResponse,
};
