/**
 * Format A, OpenAI: POST /v1/chat/completions, and GET /v1/models — which answers in Anthropic's
 * list shape when the request looks like an Anthropic client (anthropic-version or x-api-key).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type {FastifyInstance, FastifyRequest} from 'fastify';
import {GatewayError} from '../../base/errors.js';
import {relay} from '../relay.js';
import {modelsForKey} from '../routing.js';
import {authenticated, objectBody, requireModel, useFormat, type ProxyDeps} from './shared.js';

const looksAnthropic = (request: FastifyRequest) => request.headers['anthropic-version'] !== undefined || request.headers['x-api-key'] !== undefined;

const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * Codex asks `GET /v1/models?client_version=…` for its catalog, `{"models": [ModelInfo…]}`, whose
 * entries carry Codex's own system prompt and tool settings per model. The gateway cannot know those:
 * it answers an empty catalog, which Codex reads as "use your built-in metadata" for the configured
 * model. (Codex 0.169 with an `env_key` provider does not ask at all.) The OpenAI list stays beside it.
 * @see https://github.com/openai/codex/blob/main/codex-rs/codex-api/src/endpoint/models.rs
 */
const asksForCodexCatalog = (request: FastifyRequest) => (request.query as Record<string, unknown> | undefined)?.client_version !== undefined;

export function openaiRoutes(deps: ProxyDeps) {
	return async (app: FastifyInstance) => {
		useFormat(app, deps, request => (request.url.startsWith('/v1/models') && looksAnthropic(request) ? 'anthropic' : 'openai'));

		app.post('/v1/chat/completions', async (request, reply) => {
			const {exchange, key} = authenticated(request);
			const body = objectBody(request);
			exchange.model = requireModel(body);
			exchange.stream = body.stream === true;
			await relay(deps, {inbound: 'openai', operation: 'generate', model: exchange.model, stream: exchange.stream, sse: true, body, key, exchange, request, reply});
			return reply;
		});

		app.get('/v1/models', async request => {
			const {exchange, key} = authenticated(request);
			const models = modelsForKey(deps.registry.snapshot, key);
			if (exchange.inbound === 'anthropic') {
				const data = models.map(({id, channel}) => ({type: 'model', id, display_name: id, created_at: channel.createdAt}));
				return {data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null};
			}
			const list = {object: 'list', data: models.map(({id, channel}) => ({id, object: 'model', created: epoch(channel.createdAt), owned_by: channel.name}))};
			return asksForCodexCatalog(request) ? {...list, models: []} : list;
		});

		app.get<{Params: {id: string}}>('/v1/models/:id', async request => {
			const {exchange, key} = authenticated(request);
			const found = modelsForKey(deps.registry.snapshot, key).find(model => model.id === request.params.id);
			if (!found) throw new GatewayError('not_found', 404, `The model "${request.params.id}" is not available to this key. GET /v1/models lists the models it may use.`, {code: 'model_not_found', param: 'model'});
			if (exchange.inbound === 'anthropic') return {type: 'model', id: found.id, display_name: found.id, created_at: found.channel.createdAt};
			return {id: found.id, object: 'model', created: epoch(found.channel.createdAt), owned_by: found.channel.name};
		});
	};
}
