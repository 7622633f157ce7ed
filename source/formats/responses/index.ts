/**
 * The OpenAI Responses API adapter (`POST /v1/responses`), for clients such as Codex CLI and
 * `client.responses.create`. It is an inbound format only: a Responses request goes unchanged to an
 * OpenAI channel that speaks the Responses API, and is translated through the IR for any other
 * channel (chat completions, Anthropic messages, Gemini). Its decoders read a passed-through
 * answer on the side, for usage and errors. Answers of translated channels are kept by the gateway
 * (`store`), so `previous_response_id` and the stored-response routes work on every channel
 * (stored-responses.ts).
 * @see https://platform.openai.com/docs/api-reference/responses
 */
import type {InboundAdapter} from '../adapter.js';
import {responsesHttp} from './responses-http.js';
import {decodeResponsesError, renderResponsesError} from './errors.js';
import {decodeResponsesRequest} from './request.js';
import {decodeResponsesResponse, encodeResponsesResponse} from './response.js';
import {decodeResponsesStream, encodeResponsesStream, responsesStreamEncoder} from './stream.js';
import {responsesStoredAnswers} from './stored-responses.js';
import {ResponsesStreamReader} from './read-responses-stream.js';
import {decodeResponsesUsage} from './map-responses-usage.js';

export const responsesAdapter: InboundAdapter = {
	format: 'responses',
	...responsesHttp,
	decodeRequest: decodeResponsesRequest,
	decodeResponse: body => decodeResponsesResponse(body),
	encodeResponse: encodeResponsesResponse,
	decodeStream: decodeResponsesStream,
	readStream: () => new ResponsesStreamReader(),
	answerUsage: {keys: ['usage'], decode: decodeResponsesUsage},
	encodeStream: encodeResponsesStream,
	streamEncoder: responsesStreamEncoder,
	decodeError: decodeResponsesError,
	renderError: renderResponsesError,
	storedAnswers: responsesStoredAnswers,
};
