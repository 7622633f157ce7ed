/**
 * The Gemini (Google AI `generativelanguage` v1beta) wire format.
 * @see https://ai.google.dev/api/generate-content
 */
import type {FormatAdapter} from '../adapter.js';
import {geminiEmbeddings, geminiUpstreamEmbeddings} from './gemini-embeddings.js';
import {geminiHttp} from './gemini-http.js';
import {decodeGeminiCountTokensRequest, decodeGeminiCountTokensResponse, encodeGeminiCountTokensRequest, encodeGeminiCountTokensResponse} from './count-tokens.js';
import {decodeGeminiError, renderGeminiError} from './errors.js';
import {decodeGeminiRequest, encodeGeminiRequest} from './request.js';
import {decodeGeminiResponse, encodeGeminiResponse} from './response.js';
import {decodeGeminiStream, encodeGeminiStream, GeminiStreamDecoder, geminiStreamEncoder} from './stream.js';
import {GeminiStreamReader} from './read-gemini-stream.js';
import {decodeGeminiUsage} from './map-gemini-usage.js';

export const geminiAdapter: FormatAdapter = {
	format: 'gemini',
	...geminiHttp,
	embeddings: geminiEmbeddings,
	upstreamEmbeddings: geminiUpstreamEmbeddings,
	decodeRequest: decodeGeminiRequest,
	encodeRequest: encodeGeminiRequest,
	decodeResponse: decodeGeminiResponse,
	encodeResponse: encodeGeminiResponse,
	decodeStream: decodeGeminiStream,
	streamDecoder: ctx => new GeminiStreamDecoder(ctx),
	readStream: () => new GeminiStreamReader(),
	answerUsage: {keys: ['usageMetadata', 'usage_metadata'], decode: decodeGeminiUsage},
	encodeStream: encodeGeminiStream,
	streamEncoder: geminiStreamEncoder,
	decodeError: decodeGeminiError,
	renderError: renderGeminiError,
	counting: {decodeRequest: (body, call, ctx) => decodeGeminiCountTokensRequest(body, call.model, ctx), encodeResponse: encodeGeminiCountTokensResponse},
	upstreamCounting: {encodeRequest: encodeGeminiCountTokensRequest, decodeResponse: decodeGeminiCountTokensResponse},
};

export {
	decodeGeminiCountTokensRequest,
	decodeGeminiCountTokensResponse,
	encodeGeminiCountTokensRequest,
	encodeGeminiCountTokensResponse,
} from './count-tokens.js';
export {decodeGeminiError, renderGeminiError} from './errors.js';
