/**
 * The OpenAI Responses API: POST /v1/responses, for Codex CLI and `client.responses.create`.
 * Authenticated like OpenAI (`Authorization: Bearer`), errors in OpenAI's shape. The gateway stores
 * no responses, so the endpoints that read stored ones answer a 404 that says so.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
import type {FastifyInstance} from 'fastify';
import {GatewayError} from '../../base/errors.js';
import {relay} from '../relay.js';
import {authenticated, objectBody, requireModel, useFormat, type ProxyDeps} from './shared.js';

const notStored = (id: string) =>
	new GatewayError('not_found', 404, `Response "${id}" was not found: gateway-tui keeps no responses (every request is answered as it arrives, as with store: false). Send the whole conversation in \`input\` instead of referring to an earlier response.`, {code: 'not_found', param: 'response_id'});

export function responsesRoutes(deps: ProxyDeps) {
	return async (app: FastifyInstance) => {
		useFormat(app, deps, () => 'responses');

		app.post('/v1/responses', async (request, reply) => {
			const {exchange, key} = authenticated(request);
			const body = objectBody(request);
			exchange.model = requireModel(body);
			exchange.stream = body.stream === true;
			await relay(deps, {inbound: 'responses', operation: 'generate', model: exchange.model, stream: exchange.stream, sse: true, body, key, exchange, request, reply});
			return reply;
		});

		app.route<{Params: {id: string}}>({
			method: ['GET', 'DELETE'],
			url: '/v1/responses/:id',
			handler: async request => {
				authenticated(request);
				throw notStored(request.params.id);
			},
		});

		app.route<{Params: {id: string; '*': string}}>({
			method: ['GET', 'POST'],
			url: '/v1/responses/:id/*',
			handler: async request => {
				authenticated(request);
				throw notStored(request.params.id);
			},
		});
	};
}
