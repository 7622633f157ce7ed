/**
 * The Anthropic Messages adapter.
 * @see https://docs.anthropic.com/en/api/messages
 */
import type {FormatAdapter} from '../adapter.js';
import {anthropicHttp} from './anthropic-http.js';
import {decodeAnthropicCountTokensRequest, decodeAnthropicCountTokensResponse, encodeAnthropicCountTokensRequest, encodeAnthropicCountTokensResponse} from './count-tokens.js';
import {decodeAnthropicError, renderAnthropicError} from './errors.js';
import {decodeAnthropicRequest, encodeAnthropicRequest} from './request.js';
import {decodeAnthropicResponse, encodeAnthropicResponse, encodeAnthropicResponseText} from './response.js';
import {decodeAnthropicStream, AnthropicStreamDecoder, encodeAnthropicStream, anthropicStreamEncoder} from './stream.js';
import {AnthropicStreamReader} from './read-anthropic-stream.js';
import {decodeAnthropicUsage} from './map-anthropic-usage.js';

export const anthropicAdapter: FormatAdapter = {
	format: 'anthropic',
	...anthropicHttp,
	decodeRequest: decodeAnthropicRequest,
	encodeRequest: encodeAnthropicRequest,
	decodeResponse: decodeAnthropicResponse,
	encodeResponse: encodeAnthropicResponse,
	encodeResponseText: encodeAnthropicResponseText,
	decodeStream: decodeAnthropicStream,
	streamDecoder: ctx => new AnthropicStreamDecoder(ctx),
	readStream: () => new AnthropicStreamReader(),
	answerUsage: {keys: ['usage'], decode: decodeAnthropicUsage},
	encodeStream: encodeAnthropicStream,
	streamEncoder: anthropicStreamEncoder,
	decodeError: decodeAnthropicError,
	renderError: renderAnthropicError,
	counting: {decodeRequest: (body, _call, ctx) => decodeAnthropicCountTokensRequest(body, ctx), encodeResponse: encodeAnthropicCountTokensResponse},
	upstreamCounting: {encodeRequest: async (request, target, ctx) => encodeAnthropicCountTokensRequest(request, target, ctx), decodeResponse: decodeAnthropicCountTokensResponse},
};

export {
	decodeAnthropicCountTokensRequest,
	decodeAnthropicCountTokensResponse,
	encodeAnthropicCountTokensRequest,
	encodeAnthropicCountTokensResponse,
} from './count-tokens.js';
export {decodeAnthropicError, renderAnthropicError} from './errors.js';
