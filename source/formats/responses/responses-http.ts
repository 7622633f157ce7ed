/**
 * The Responses API over HTTP: POST /v1/responses, authenticated like OpenAI, and the responses the
 * gateway kept (GET and DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items). Cancelling
 * and other routes of state kept at OpenAI answer a 404 that says so.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
import {GatewayError} from '../../base/errors.js';
import {speaksResponsesApi} from '../../base/responses-api.js';
import type {InboundAdapter, WireRequest} from '../adapter.js';
import {readBearer, requireModel, sseContentType} from '../http.js';
import {encodeOpenaiModel, encodeOpenaiModelList} from '../openai/openai-http.js';
import {responsesStreamFailure} from './encode-responses-stream.js';

const notStored = (request: WireRequest) =>
	new GatewayError('not_found', 404, `${request.method} ${request.url.split('?')[0]}: gateway-tui keeps responses only to retrieve, list the input items of, delete and continue them (background responses cannot be cancelled: it runs none).`, {code: 'not_found', param: 'response_id'});

/**
 * Codex (0.1xx) first asks for the Responses API over a WebSocket (a GET with `Upgrade: websocket`).
 * Only a 426 makes it fall back to HTTP at once; anything else goes through its retry budget first
 * (a 5–7 s stall per turn).
 * @see https://github.com/openai/codex/blob/main/codex-rs/core/src/client.rs
 */
const noWebsocket = (): GatewayError =>
	new GatewayError('invalid_request', 426, 'gateway-tui serves the Responses API over HTTP only (POST /v1/responses), not over a WebSocket.', {code: 'websocket_not_supported'});

export const responsesHttp = {
	routes: [
		{kind: 'refuse', method: 'GET', url: '/v1/responses', error: noWebsocket},
		{kind: 'call', method: 'POST', url: '/v1/responses', read: (_request, body) => ({operation: 'generate', model: requireModel(body), stream: body.stream === true, sse: true})},
		{kind: 'stored', method: 'GET', url: '/v1/responses/:id', action: 'retrieve'},
		{kind: 'stored', method: 'DELETE', url: '/v1/responses/:id', action: 'delete'},
		{kind: 'stored', method: 'GET', url: '/v1/responses/:id/input_items', action: 'input_items'},
		{kind: 'refuse', method: 'GET', url: '/v1/responses/:id/*', error: notStored},
		{kind: 'refuse', method: 'POST', url: '/v1/responses/:id/*', error: notStored},
	],
	ownsPath: request => request.url.startsWith('/v1/responses'),
	presentedKey: readBearer,
	// An OpenAI channel that speaks the Responses API takes it as it is; other OpenAI channels are the nearest translation.
	affinity: channel => (speaksResponsesApi(channel) ? 2 : channel.format === 'openai' ? 1 : 0),
	passthrough: (body, {upstreamModel}) =>
		body.model === upstreamModel ? {path: '/responses', body, headers: {}, verbatim: ['model', 'stream', 'previous_response_id', 'conversation']} : {path: '/responses', body: {...body, model: upstreamModel}, headers: {}},
	encodeModelList: encodeOpenaiModelList,
	encodeModel: encodeOpenaiModel,
	// `error`, then the `response.failed` Codex waits for (else it retries the turn).
	renderStreamError: error => responsesStreamFailure(error),
	streamContentType: () => sseContentType,
} satisfies Partial<InboundAdapter>;
