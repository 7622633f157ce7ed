/**
 * The Fastify app. `createServer` builds it and never listens; the caller (serve, the TUI, tests)
 * decides where. One encapsulated plugin per inbound format, each rendering errors in its format.
 */
import Fastify, {type FastifyInstance, type FastifyRequest} from 'fastify';
import {GatewayError} from '../base/errors.js';
import type {InboundFormat} from '../base/ir.js';
import {beginExchange} from './exchange.js';
import {bodyLimitBytes, sendError} from './errors.js';
import {anthropicRoutes} from './routes/anthropic.js';
import {geminiRoutes} from './routes/gemini.js';
import {openaiRoutes} from './routes/openai.js';
import {responsesRoutes} from './routes/responses.js';
import type {ProxyDeps} from './routes/shared.js';

export type {ProxyDeps} from './routes/shared.js';


/** The format a path implies, for answers outside any route (404s). */
export function formatOfPath(request: FastifyRequest): InboundFormat {
	if (request.url.startsWith('/v1beta')) return 'gemini';
	if (request.url.startsWith('/v1/responses')) return 'responses';
	if (request.url.startsWith('/v1/messages') || request.headers['anthropic-version'] !== undefined) return 'anthropic';
	return 'openai';
}

export function createServer(options: ProxyDeps): FastifyInstance {
	const app = Fastify({
		bodyLimit: bodyLimitBytes,
		// Requests are logged from the event bus (serve's lines, the TUI's log file); in TUI mode nothing
		// but Ink may write to the terminal, so Fastify's own logger stays off.
		logger: false,
		forceCloseConnections: true,
		return503OnClosing: false,
	});
	app.decorateRequest('exchange', null);

	// Claude Code probes these without credentials; a 405 or 404 makes it report the gateway as down.
	app.get('/', async () => ({name: 'gateway-tui', status: 'ok'}));
	app.get('/api/hello', async () => ({status: 'ok'}));
	app.post('/api/event_logging/batch', async (_request, reply) => reply.code(204).send());

	app.register(openaiRoutes(options));
	app.register(anthropicRoutes(options));
	app.register(geminiRoutes(options));
	app.register(responsesRoutes(options));

	app.setNotFoundHandler((request, reply) => {
		const format = formatOfPath(request);
		beginExchange(request, reply, format, options.events);
		const path = request.url.split('?')[0];
		return sendError(
			reply,
			format,
			new GatewayError('not_found', 404, `gateway-tui has no route ${request.method} ${path}. It serves POST /v1/chat/completions, POST /v1/responses, POST /v1/messages and POST /v1beta/models/{model}:generateContent.`, {code: 'not_found'}),
		);
	});
	app.setErrorHandler((error, request, reply) => sendError(reply, formatOfPath(request), error));
	return app;
}
