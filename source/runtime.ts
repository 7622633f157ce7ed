/**
 * Starting and stopping the gateway in this process: store, registry (live keys and channels),
 * event bus and the Fastify proxy. `serve` and the TUI both use it.
 */
import type {FastifyInstance} from 'fastify';
import {EventBus} from './events.js';
import {UserError} from './errors.js';
import {Registry} from './proxy/registry.js';
import type {RelayOptions} from './proxy/relay.js';
import {createServer} from './proxy/server.js';
import {closeUpstreamPools} from './proxy/upstream.js';
import {Store} from './store/index.js';
import {gatewayUrl} from './services/endpoints.js';

export const defaultRelayOptions: RelayOptions = {
	defaultMaxTokens: 8192,
	imageFetch: {maxBytes: 20 * 1024 * 1024, timeoutMs: 15_000},
};

export type Gateway = {
	readonly store: Store;
	readonly events: EventBus;
	readonly registry: Registry;
	readonly app: FastifyInstance;
	readonly url: string;
	close(): Promise<void>;
};

export function isLoopback(host: string): boolean {
	return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Open the store and listen. A port in use is a UserError that names the port and the --port flag. */
export async function startGateway(options: {home: string; host: string; port: number; relay?: RelayOptions; store?: Store; events?: EventBus}): Promise<Gateway> {
	const store = options.store ?? (await Store.open(options.home));
	const events = options.events ?? new EventBus();
	const registry = new Registry(store, events);
	await registry.start();
	const app = createServer({registry, events, relay: options.relay ?? defaultRelayOptions});
	try {
		await app.listen({host: options.host, port: options.port});
	} catch (error) {
		await registry.stop();
		if (!options.store) await store.close();
		const code = (error as {code?: string}).code;
		if (code === 'EADDRINUSE') throw new UserError(`Port ${options.port} is already in use (another gateway-tui?). Stop that process or choose another port with --port.`);
		if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UserError(`Cannot listen on ${options.host}: no such local address. Use --host 127.0.0.1 or an address of this machine.`);
		if (code === 'EACCES') throw new UserError(`Not allowed to listen on port ${options.port}. Choose a port above 1024 with --port.`);
		throw error;
	}
	const address = app.server.address();
	const port = typeof address === 'object' && address ? address.port : options.port;
	let closed = false;
	return {
		store,
		events,
		registry,
		app,
		url: gatewayUrl(options.host, port),
		async close() {
			if (closed) return;
			closed = true;
			await app.close();
			await registry.stop();
			await closeUpstreamPools();
			if (!options.store) await store.close();
		},
	};
}
