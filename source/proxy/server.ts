/**
 * The Fastify app. `createServer` builds it and never listens; the caller (serve, the TUI's worker,
 * tests) decides where. The routes come from the adapter table; errors are rendered by the adapter
 * of the format the client speaks, and every error body leaves through the scrubber.
 */
import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify';
import {GatewayError, invalidRequest} from '../base/errors.js';
import {beginExchange} from './exchange.js';
import {sendError} from './errors.js';
import {useJsonBodies} from './json-body.js';
import {useRequestEncodings} from './request-encoding.js';
import {adapterForPath, registerFormatRoutes, type ProxyDeps} from './routes.js';
import {ConnectionCap, refusedOrigin} from './surface.js';
import {Fastify} from './stack.js';

export type {ProxyDeps} from './routes.js';

/** The compilers of a server whose routes have no schemas: they say so if a route ever gets one. */
function noSchemas(): () => never {
	return () => {
		throw new Error('The gateway\'s routes take no JSON schema: requests are checked by their format\'s decoder.');
	};
}

/** `connections`: the counter of open client connections, given when the caller reads it too (the gateway's memory trim). */
export function createServer(deps: ProxyDeps, connections = new ConnectionCap(deps.surface.maxConnections)): FastifyInstance {
	const {surface} = deps;
	const app = Fastify({
		bodyLimit: surface.bodyLimitBytes,
		// Requests are logged from the event bus (serve's lines, the TUI's log file); in TUI mode nothing
		// but Ink may write to the terminal, so Fastify's own logger stays off.
		logger: false,
		forceCloseConnections: true,
		return503OnClosing: false,
		// A client has this long to send its whole request; a streamed answer may take as long as it needs.
		requestTimeout: surface.requestTimeoutMs,
		keepAliveTimeout: surface.keepAliveTimeoutMs,
		// Node checks the two time-outs above every 30 s unless told otherwise: a slow client would get up to 30 s more.
		http: {headersTimeout: surface.headersTimeoutMs, connectionsCheckingInterval: 1000},
		frameworkErrors: (error, request, reply) => refuse(deps, request, reply, invalidRequest(`The request URL could not be read (${error.message}). Percent-encode the path correctly.`)),
		// No route declares a JSON schema (bodies are checked by each format's decoder), so Fastify's
		// default compilers — Ajv and fast-json-stringify's, built with every instance — are not loaded.
		schemaController: {compilersFactory: {buildValidator: noSchemas, buildSerializer: noSchemas}},
	});
	app.decorateRequest('exchange', null);
	app.decorateRequest('gatewayRoute', null);
	const cap = connections;
	cap.watch(app.server);
	useJsonBodies(app, surface.maxDepth);
	useRequestEncodings(app);

	// The hooks every request runs take Fastify's callback form: an async hook costs each request a promise and a turn of the microtask queue.
	// A Host seen allowed a moment ago (every client sends the same one) is not parsed again.
	let allowedHost: string | undefined;
	app.addHook('onRequest', (request, reply, done) => {
		if (cap.isOver(request.raw.socket)) {
			void reply.header('connection', 'close');
			return refuse(deps, request, reply, new GatewayError('overloaded', 503, `The gateway is serving its maximum of ${cap.limit} connections. Retry in a second; close idle connections if this persists.`, {code: 'too_many_connections', retryAfter: '1'}));
		}
		const {host, origin} = request.raw.headers;
		if (origin === undefined && host !== undefined && host === allowedHost) return done();
		const refused = refusedOrigin(request.raw, surface);
		if (refused) {
			return refuse(deps, request, reply, new GatewayError('permission', 403, `${refused} gateway-tui answers only requests addressed to ${surface.host} or localhost; to reach it under another name, start it with --allow-host NAME.`, {code: 'host_not_allowed'}));
		}
		if (origin === undefined) allowedHost = host;
		done();
	});
	// Every error body is scrubbed once, here: whatever produced it, no key leaves in it.
	app.addHook('onSend', (request, reply, payload, done) => {
		if (reply.statusCode < 400 || typeof payload !== 'string') return done(null, payload);
		done(null, deps.registry.snapshot.scrubber.scrub(payload, request.exchange?.key?.secret));
	});

	// Claude Code probes these without credentials; a 405 or 404 makes it report the gateway as down.
	const open = {bodyLimit: surface.openBodyLimitBytes};
	app.get('/', open, async () => ({name: 'gateway-tui', status: 'ok'}));
	app.get('/api/hello', open, async () => ({status: 'ok'}));
	app.post('/api/event_logging/batch', open, async (_request, reply) => reply.code(204).send());

	registerFormatRoutes(app, deps);

	app.setNotFoundHandler((request, reply) => {
		const path = request.url.split('?')[0];
		return refuse(deps, request, reply, new GatewayError('not_found', 404, `gateway-tui has no route ${request.method} ${path}. It serves POST /v1/chat/completions, POST /v1/responses, POST /v1/messages and POST /v1beta/models/{model}:generateContent.`, {code: 'not_found'}));
	});
	app.setErrorHandler((error, request, reply) => sendError(reply, request.exchange?.inbound ?? adapterForPath(request), error, request.routeOptions.bodyLimit ?? surface.bodyLimitBytes));
	return app;
}

/** Answer before any route ran: in the format the path belongs to, recorded on the request log. */
function refuse(deps: ProxyDeps, request: FastifyRequest, reply: FastifyReply, error: GatewayError): FastifyReply {
	const adapter = adapterForPath(request);
	if (!request.exchange) beginExchange(request, reply, adapter, deps);
	return sendError(reply, adapter, error);
}
