/**
 * The Fastify app. `createServer` builds it and never listens; the caller (serve, the TUI's worker,
 * tests) decides where. The routes come from the adapter table; errors are rendered by the adapter
 * of the format the client speaks.
 */
import Fastify, {type FastifyInstance} from 'fastify';
import {GatewayError} from '../base/errors.js';
import {beginExchange} from './exchange.js';
import {bodyLimitBytes, sendError} from './errors.js';
import {adapterForPath, registerFormatRoutes, type ProxyDeps} from './routes.js';

export type {ProxyDeps} from './routes.js';

export function createServer(deps: ProxyDeps): FastifyInstance {
	const app = Fastify({
		bodyLimit: bodyLimitBytes,
		// Requests are logged from the event bus (serve's lines, the TUI's log file); in TUI mode nothing
		// but Ink may write to the terminal, so Fastify's own logger stays off.
		logger: false,
		forceCloseConnections: true,
		return503OnClosing: false,
	});
	app.decorateRequest('exchange', null);
	app.decorateRequest('gatewayRoute', null);

	// Claude Code probes these without credentials; a 405 or 404 makes it report the gateway as down.
	app.get('/', async () => ({name: 'gateway-tui', status: 'ok'}));
	app.get('/api/hello', async () => ({status: 'ok'}));
	app.post('/api/event_logging/batch', async (_request, reply) => reply.code(204).send());

	registerFormatRoutes(app, deps);

	app.setNotFoundHandler((request, reply) => {
		const adapter = adapterForPath(request);
		beginExchange(request, reply, adapter, deps.events);
		const path = request.url.split('?')[0];
		return sendError(
			reply,
			adapter,
			new GatewayError('not_found', 404, `gateway-tui has no route ${request.method} ${path}. It serves POST /v1/chat/completions, POST /v1/responses, POST /v1/messages and POST /v1beta/models/{model}:generateContent.`, {code: 'not_found'}),
		);
	});
	app.setErrorHandler((error, request, reply) => sendError(reply, request.exchange?.inbound ?? adapterForPath(request), error));
	return app;
}
