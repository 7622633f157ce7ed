/**
 * Starting and stopping the gateway in this process: store, registry (live keys and channels),
 * event bus and the Fastify proxy. `serve` and the TUI both use it.
 */
import type {FastifyInstance} from 'fastify';
import {EventBus} from '../base/events.js';
import {UserError} from '../base/errors.js';
import {Registry} from './registry.js';
import {ChannelHealth, type HealthOptions} from './health.js';
import {startHealthProbe} from './health-probe.js';
import {KeyLimiter} from './limits.js';
import type {RelayOptions} from './relay.js';
import {createServer} from './server.js';
import {closeUpstreamPools} from './upstream.js';
import {Store} from '../store/index.js';
import {UsageRecorder, type RecorderOptions} from './usage-recorder.js';
import {retentionFromEnv} from '../store/usage-retention.js';
import {countLimitedUse, restoreLimits} from './limit-sync.js';
import {HealthPublisher} from './health-publisher.js';
import {gatewayUrl} from '../base/paths.js';

export const defaultRelayOptions: RelayOptions = {
	defaultMaxTokens: 8192,
	imageFetch: {maxBytes: 20 * 1024 * 1024, timeoutMs: 15_000},
};

export type Gateway = {
	readonly store: Store;
	readonly events: EventBus;
	readonly registry: Registry;
	/** Records every finished request and flushes usage to the store once a second. */
	readonly usage: UsageRecorder;
	readonly health: ChannelHealth;
	readonly limiter: KeyLimiter;
	readonly app: FastifyInstance;
	readonly url: string;
	close(): Promise<void>;
};


/** Open the store and listen. A port in use is a UserError that names the port and the --port flag. */
export async function startGateway(options: {home: string; host: string; port: number; relay?: RelayOptions; health?: HealthOptions; probeEveryMs?: number; clock?: () => number; usage?: Omit<RecorderOptions, 'channels' | 'events'>; store?: Store; events?: EventBus}): Promise<Gateway> {
	const retention = options.usage?.retention ?? retentionFromEnv();
	const store = options.store ?? (await Store.open(options.home));
	const events = options.events ?? new EventBus();
	const registry = new Registry(store, events);
	await registry.start();
	const usage = new UsageRecorder(store, {...options.usage, retention, events, channels: () => registry.snapshot.channels});
	const stopRecording = usage.listen(events);
	const health = new ChannelHealth(events, options.health);
	const publisher = new HealthPublisher(store, events);
	const limiter = new KeyLimiter(events, options.clock);
	await restoreLimits(limiter, store, [...registry.snapshot.keysById.values()]);
	const stopLimits = countLimitedUse(limiter, registry, events);
	const app = createServer({registry, health, limiter, events, relay: options.relay ?? defaultRelayOptions});
	const stopProbe = options.probeEveryMs ? startHealthProbe(registry, health, options.probeEveryMs) : () => {};
	try {
		await app.listen({host: options.host, port: options.port});
	} catch (error) {
		stopRecording();
		await registry.stop();
		stopProbe();
		stopLimits();
		publisher.stop();
		if (!options.store) await store.close();
		const code = (error as {code?: string}).code;
		if (code === 'EADDRINUSE') throw new UserError(`Port ${options.port} is already in use (another gateway-tui?). Stop that process or choose another port with --port.`);
		if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UserError(`Cannot listen on ${options.host}: no such local address. Use --host 127.0.0.1 or an address of this machine.`);
		if (code === 'EACCES') throw new UserError(`Not allowed to listen on port ${options.port}. Choose a port above 1024 with --port.`);
		throw error;
	}
	const address = app.server.address();
	const port = typeof address === 'object' && address ? address.port : options.port;
	usage.start();
	let closed = false;
	return {
		store,
		events,
		registry,
		usage,
		health,
		limiter,
		app,
		url: gatewayUrl(options.host, port),
		async close() {
			if (closed) return;
			closed = true;
			stopProbe();
			stopLimits();
			await app.close();
			await usage.close();
			await registry.stop();
			await publisher.close();
			await closeUpstreamPools();
			if (!options.store) await store.close();
		},
	};
}
