/**
 * Every format's routes, registered from the adapter table: the proxy knows no format by name.
 * Where formats share a route (GET /v1/models), the adapter whose `claims` matches serves it.
 * The key is checked when the request arrives, before its body is read (a key the registry does not
 * know is checked against the store once more before it is refused).
 */
import type {FastifyInstance, FastifyRequest} from 'fastify';
import type {EventBus} from '../base/events.js';
import {GatewayError, invalidRequest} from '../base/errors.js';
import type {JsonObject} from '../base/ir.js';
import type {IsoTime} from '../base/iso-time.js';
import type {InboundAdapter, InboundRoute, WireRequest} from '../formats/adapter.js';
import {inboundAdapterList} from '../formats/index.js';
import {authenticateExchange, beginExchange, identify, settle, type OpenExchanges} from './exchange.js';
import type {BodyCapture} from './bodies.js';
import {sendError} from './errors.js';
import type {RelayDeps} from './relay.js';
import {answerStored, relayStoring, type StoringDeps} from './stored-answers.js';
import {modelsForKey} from './routing.js';
import {UnknownKeyError, type Registry} from './registry.js';
import type {SurfaceOptions} from './surface.js';

export type ProxyDeps = RelayDeps & StoringDeps & {readonly events: EventBus; readonly surface: SurfaceOptions; readonly bodies?: BodyCapture; readonly isoTime: IsoTime; readonly exchanges: OpenExchanges};

type Entry = {readonly adapter: InboundAdapter; readonly route: InboundRoute};

declare module 'fastify' {
	interface FastifyRequest {
		gatewayRoute: Entry | null;
	}
}

export function wireOf(request: FastifyRequest): WireRequest {
	return {method: request.method, url: request.url, headers: request.headers, query: (request.query ?? {}) as Record<string, unknown>, params: (request.params ?? {}) as Record<string, string | undefined>};
}

/** The adapter whose format an unrouted path belongs to (its 404 is rendered in that format). */
export function adapterForPath(request: FastifyRequest): InboundAdapter {
	const wire = wireOf(request);
	return inboundAdapterList.find(adapter => adapter.ownsPath(wire)) ?? inboundAdapterList.at(-1)!;
}

function objectBody(request: FastifyRequest): JsonObject {
	const body = request.body;
	if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.');
	return body as JsonObject;
}

const claimsOf = (route: InboundRoute) => ('claims' in route ? route.claims : undefined);

function claimed(entries: readonly Entry[], wire: WireRequest): Entry {
	return entries.find(entry => claimsOf(entry.route)?.(wire) === true) ?? entries.find(entry => !claimsOf(entry.route)) ?? entries[0]!;
}

async function handle(deps: ProxyDeps, {adapter, route}: Entry, request: FastifyRequest, reply: Parameters<typeof sendError>[0]): Promise<unknown> {
	const wire = wireOf(request);
	const key = request.exchange!.key!;
	switch (route.kind) {
		case 'call': {
			const body = objectBody(request);
			const call = route.read(wire, body);
			identify(request, {call});
			const running = relayStoring(deps, {inbound: adapter, call, body, headers: request.headers, key, reply}).then(result => {
				settle(request, result);
				return result;
			});
			identify(request, {busy: running});
			const result = await running;
			if (result.failure) return sendError(reply, adapter, result.failure);
			return reply;
		}
		case 'models':
			return adapter.encodeModelList(modelsForKey(deps.registry.snapshot, key), wire);
		case 'model': {
			const id = route.id(wire);
			const found = modelsForKey(deps.registry.snapshot, key).find(model => model.id === id);
			if (!found) throw new GatewayError('not_found', 404, `The model "${id}" is not available to this key. List the models it may use with a GET on the model list (${route.url.replace(/\/(:id|\*)$/, '')}).`, {code: 'model_not_found', param: 'model'});
			return adapter.encodeModel(found);
		}
		case 'refuse':
			throw GatewayError.from(route.error(wire));
		case 'stored':
			return answerStored(deps, adapter, route.action, wire, key);
	}
}

/**
 * A secret the registry's view does not know may be a key created a moment ago in another process
 * (the CLI, a second gateway on the store): the store is read once more before the 401 is sent.
 * When the store cannot be read, the first refusal stands.
 */
function authenticateAfterRecheck(request: FastifyRequest, registry: Registry, presented: string | undefined, refusal: UnknownKeyError, done: (error?: Error) => void): void {
	const again = () => {
		try {
			authenticateExchange(request, registry, presented);
		} catch (error) {
			return done(error as Error);
		}
		done();
	};
	registry.recheck().then(again, () => done(refusal));
}

export function registerFormatRoutes(app: FastifyInstance, deps: ProxyDeps): void {
	const groups = new Map<string, Entry[]>();
	for (const adapter of inboundAdapterList) {
		for (const route of adapter.routes) groups.set(`${route.method} ${route.url}`, [...(groups.get(`${route.method} ${route.url}`) ?? []), {adapter, route}]);
	}
	for (const entries of groups.values()) {
		const {method, url} = entries[0]!.route;
		const only = entries.length === 1 ? entries[0]! : null;
		app.route({
			method,
			url,
			// Fastify's callback form: an async hook would cost every request a promise and a microtask turn.
			onRequest: (request, reply, done) => {
				let presented: string | undefined;
				try {
					const wire = wireOf(request);
					const entry = only ?? claimed(entries, wire);
					request.gatewayRoute = entry;
					beginExchange(request, reply, entry.adapter, deps);
					presented = entry.adapter.presentedKey(wire);
					authenticateExchange(request, deps.registry, presented);
				} catch (error) {
					if (error instanceof UnknownKeyError) return authenticateAfterRecheck(request, deps.registry, presented, error, done);
					return done(error as Error);
				}
				done();
			},
			// handle's own promise, not one more around it.
			handler: (request, reply) => handle(deps, request.gatewayRoute!, request, reply),
		});
	}
}
