/**
 * Redis through @keyv/redis: every namespace's adapter shares one client (one connection per
 * process, not one per namespace). Keys are `<namespace>::<namespace>:<id>` (the adapter's prefix,
 * then keyv's); give the gateway a database of its own (`redis://host:6379/2`) on a shared server.
 *
 * Failure behaviour, chosen so that nothing hangs:
 * - the first connection is tried once, with a 5 s timeout: an unreachable server fails `open`;
 * - afterwards the client reconnects forever (a restarted Redis is picked up again), and commands
 *   sent while it is disconnected fail at once (`disableOfflineQueue`) instead of queueing;
 * - the adapter throws on errors (its default returns `undefined`, which would read as "no key").
 */
import {createRequire} from 'node:module';
import type {KeyvStoreAdapter} from 'keyv';
import type {Backend} from './backend.js';
import {redisCounters} from './counters-redis.js';
import type {StoreLocation} from './store-url.js';

// Required, not imported: the commands' bundle is CommonJS (dist/commands.cjs), where an import of
// this package's default export would be its whole `module.exports`, as in Node's own interop; its
// CommonJS build, required, gives the same class to both bundles.
const {default: KeyvRedis, createClient} = createRequire(import.meta.url)('@keyv/redis') as typeof import('@keyv/redis');

const connectTimeoutMs = 5000;

export async function openRedis(location: StoreLocation): Promise<Backend> {
	let connected = false;
	const client = createClient({
		url: location.url,
		disableOfflineQueue: true,
		socket: {
			connectTimeout: connectTimeoutMs,
			reconnectStrategy: (retries, cause) => (connected ? Math.min(100 * 2 ** retries, 2000) : cause),
		},
	});
	// node-redis emits every failed (re)connection as an 'error' event, and an unhandled one would
	// crash the process; failures reach the caller as rejected commands instead.
	// The first of them is also the useful reason when the first connection fails (the rejection
	// itself only says "The client is closed").
	let firstError: unknown;
	client.on('error', (error: unknown) => (firstError ??= error));
	try {
		await client.connect();
		connected = true;
	} catch (error) {
		if (client.isOpen) client.destroy();
		throw firstError ?? error;
	}
	return {
		location,
		adapter(): KeyvStoreAdapter {
			return new KeyvRedis(client, {throwOnErrors: true, throwOnConnectError: true, useUnlink: true});
		},
		counters: () => redisCounters(client),
		async close() {
			if (!client.isOpen) return;
			// A clean QUIT when the server answers; otherwise drop the socket rather than wait.
			await (client.isReady ? client.close().catch(() => client.destroy()) : client.destroy());
		},
	};
}
