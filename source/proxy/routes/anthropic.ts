/**
 * Format B, Anthropic: POST /v1/messages and /v1/messages/count_tokens (`?beta=true`, which the SDK's
 * beta client and Claude Code add, is ignored).
 * @see https://docs.anthropic.com/en/api/messages
 */
import type {FastifyInstance} from 'fastify';
import {relay} from '../relay.js';
import {authenticated, objectBody, requireModel, useFormat, type ProxyDeps} from './shared.js';

export function anthropicRoutes(deps: ProxyDeps) {
	return async (app: FastifyInstance) => {
		useFormat(app, deps, () => 'anthropic');

		for (const [path, operation] of [
			['/v1/messages', 'generate'],
			['/v1/messages/count_tokens', 'count_tokens'],
		] as const) {
			app.post(path, async (request, reply) => {
				const {exchange, key} = authenticated(request);
				const body = objectBody(request);
				exchange.model = requireModel(body);
				exchange.stream = operation === 'generate' && body.stream === true;
				await relay(deps, {inbound: 'anthropic', operation, model: exchange.model, stream: exchange.stream, sse: true, body, key, exchange, request, reply});
				return reply;
			});
		}
	};
}
