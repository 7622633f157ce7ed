/**
 * Format C, Gemini: POST /v1beta/models/{model}:generateContent | :streamGenerateContent | :countTokens,
 * GET /v1beta/models and /v1beta/models/{model}. The model and the method are in the path.
 * @see https://ai.google.dev/api/generate-content
 */
import type {FastifyInstance} from 'fastify';
import {GatewayError, invalidRequest} from '../../base/errors.js';
import {relay} from '../relay.js';
import {modelsForKey} from '../routing.js';
import type {ChannelRecord} from '../../base/records.js';
import {authenticated, objectBody, useFormat, type ProxyDeps} from './shared.js';

const methods = {generateContent: 'generate', streamGenerateContent: 'generate', countTokens: 'count_tokens'} as const;

function describeModel(id: string, channel: ChannelRecord) {
	return {
		name: `models/${id}`,
		version: '001',
		displayName: id,
		description: `Served by gateway-tui channel "${channel.name}" (${channel.format}).`,
		supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
	};
}

function stripModelsPrefix(path: string): string {
	return decodeURIComponent(path).replace(/^models\//, '');
}

export function geminiRoutes(deps: ProxyDeps) {
	return async (app: FastifyInstance) => {
		useFormat(app, deps, () => 'gemini');

		app.post<{Params: {'*': string}; Querystring: {alt?: string}}>('/v1beta/models/*', async (request, reply) => {
			const {exchange, key} = authenticated(request);
			const target = request.params['*'];
			const colon = target.lastIndexOf(':');
			const method = colon > 0 ? target.slice(colon + 1) : '';
			if (!(method in methods)) {
				throw new GatewayError('not_implemented', 501, `The Gemini method "${method || target}" is not supported by gateway-tui; it serves generateContent, streamGenerateContent and countTokens.`);
			}
			const body = objectBody(request);
			exchange.model = stripModelsPrefix(target.slice(0, colon));
			if (!exchange.model) throw invalidRequest('The URL names no model: use /v1beta/models/{model}:generateContent.');
			exchange.stream = method === 'streamGenerateContent';
			const operation = methods[method as keyof typeof methods];
			await relay(deps, {inbound: 'gemini', operation, model: exchange.model, stream: exchange.stream, sse: request.query.alt === 'sse', body, key, exchange, request, reply});
			return reply;
		});

		app.get('/v1beta/models', async request => {
			const {key} = authenticated(request);
			return {models: modelsForKey(deps.registry.snapshot, key).map(({id, channel}) => describeModel(id, channel))};
		});

		app.get<{Params: {'*': string}}>('/v1beta/models/*', async request => {
			const {key} = authenticated(request);
			const id = stripModelsPrefix(request.params['*']);
			const found = modelsForKey(deps.registry.snapshot, key).find(model => model.id === id);
			if (!found) throw new GatewayError('not_found', 404, `The model "models/${id}" is not available to this key. GET /v1beta/models lists the models it may use.`);
			return describeModel(found.id, found.channel);
		});
	};
}
