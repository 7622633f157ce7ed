/**
 * The OpenAI Responses API adapter (`POST /v1/responses`), for clients such as Codex CLI and
 * `client.responses.create`. It is an inbound format only: a Responses request goes unchanged to an
 * OpenAI channel that speaks the Responses API, and is translated through the IR for any other
 * channel (chat completions, Anthropic messages, Gemini). Its decoders read a passed-through
 * answer on the side, for usage and errors.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
import type {InboundAdapter} from '../adapter.js';
import {responsesHttp} from './responses-http.js';
import {decodeResponsesError, renderResponsesError} from './errors.js';
import {decodeResponsesRequest} from './request.js';
import {decodeResponsesResponse, encodeResponsesResponse} from './response.js';
import {decodeResponsesStream, encodeResponsesStream} from './stream.js';

export const responsesAdapter: InboundAdapter = {
	format: 'responses',
	...responsesHttp,
	decodeRequest: decodeResponsesRequest,
	decodeResponse: body => decodeResponsesResponse(body),
	encodeResponse: encodeResponsesResponse,
	decodeStream: decodeResponsesStream,
	encodeStream: encodeResponsesStream,
	decodeError: decodeResponsesError,
	renderError: renderResponsesError,
};
