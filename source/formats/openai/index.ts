/**
 * The OpenAI chat completions adapter (`POST /v1/chat/completions`). The Responses API is a
 * separate format.
 * @see https://platform.openai.com/docs/api-reference/chat
 */
import type {FormatAdapter} from '../adapter.js';
import {openaiEmbeddings, openaiUpstreamEmbeddings} from './openai-embeddings.js';
import {openaiHttp} from './openai-http.js';
import {decodeOpenaiError, renderOpenAIError} from './errors.js';
import {decodeOpenaiRequest, encodeOpenaiRequest} from './request.js';
import {decodeOpenaiResponse, encodeOpenaiResponse, encodeOpenaiResponseText} from './response.js';
import {decodeOpenaiStream, OpenaiStreamDecoder, encodeOpenaiStream, openaiStreamEncoder} from './stream.js';
import {OpenaiStreamReader} from './read-openai-stream.js';
import {decodeOpenaiUsage} from './map-openai-usage.js';

export const openaiAdapter: FormatAdapter = {
	format: 'openai',
	...openaiHttp,
	embeddings: openaiEmbeddings,
	upstreamEmbeddings: openaiUpstreamEmbeddings,
	decodeRequest: decodeOpenaiRequest,
	encodeRequest: encodeOpenaiRequest,
	decodeResponse: body => decodeOpenaiResponse(body),
	encodeResponse: encodeOpenaiResponse,
	encodeResponseText: encodeOpenaiResponseText,
	decodeStream: decodeOpenaiStream,
	streamDecoder: ctx => new OpenaiStreamDecoder(ctx),
	readStream: () => new OpenaiStreamReader(),
	answerUsage: {keys: ['usage'], decode: decodeOpenaiUsage},
	encodeStream: encodeOpenaiStream,
	streamEncoder: openaiStreamEncoder,
	decodeError: decodeOpenaiError,
	renderError: renderOpenAIError,
};
