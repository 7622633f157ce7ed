/**
 * What every format's routes share: start the exchange, authenticate with the virtual key, render
 * errors in the client's format.
 */
import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import type {EventBus} from '../../base/events.js';
import {invalidRequest} from '../../base/errors.js';
import type {InboundFormat} from '../../base/ir.js';
import {presentedKey} from '../auth.js';
import {beginExchange, type Exchange} from '../exchange.js';
import {sendError} from '../errors.js';
import type {RelayDeps} from '../relay.js';
import type {KeyRecord} from '../../base/records.js';

export type ProxyDeps = RelayDeps & {
	readonly events: EventBus;
};

/** Hooks for one format's encapsulated plugin. `formatOf` may look at headers (GET /v1/models serves two formats). */
export function useFormat(app: FastifyInstance, deps: ProxyDeps, formatOf: (request: FastifyRequest) => InboundFormat): void {
	app.addHook('onRequest', async (request, reply) => {
		beginExchange(request, reply, formatOf(request), deps.events);
	});
	app.addHook('preHandler', async request => {
		const exchange = request.exchange!;
		exchange.key = deps.registry.authenticate(presentedKey(request, exchange.inbound));
	});
	app.setErrorHandler((error, request, reply) => sendError(reply, request.exchange?.inbound ?? formatOf(request), error));
}

export function authenticated(request: FastifyRequest): {exchange: Exchange; key: KeyRecord} {
	const exchange = request.exchange!;
	return {exchange, key: exchange.key!};
}

/** The JSON object body, with its `model` when the format puts it there. */
export function objectBody(request: FastifyRequest): Record<string, unknown> {
	const body = request.body;
	if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.');
	return body as Record<string, unknown>;
}

export function requireModel(body: Record<string, unknown>): string {
	const model = body.model;
	if (typeof model !== 'string' || !model.trim()) throw invalidRequest('The request has no "model": name the model to use (GET /v1/models lists them).', 'model');
	return model.trim();
}

export type Reply = FastifyReply;
