/**
 * The store: keyv over a database named by a URL, one namespace per entity.
 *
 * - `sqlite:///path` (the default: `<home>/gateway.sqlite`), `redis://` / `rediss://` through
 *   @keyv/redis, `postgres://` / `postgresql://` through @keyv/postgres — the same namespaces and
 *   the same validation on read everywhere (see backend-*.ts for what differs underneath).
 * - A store that cannot be opened or reached is a StoreError naming it (password masked); nothing
 *   is ever reset. A failure later (the server went away) is a StoreError too, at once, not a hang.
 * - Each write resolves after the database acknowledged it, so a command that reports success is durable.
 * - Every change of keys or channels also writes a new `meta:revision`, which running proxies poll
 *   to pick up changes made by other processes — on one machine or, with Redis/PostgreSQL, many.
 */
import Keyv from 'keyv';
import {closeSync, openSync, readSync} from 'node:fs';
import {dirname, resolve} from 'node:path';
import {randomUUID} from 'node:crypto';
import type * as z from 'zod/mini';
import {isFileAt, resolveHome} from '../base/paths.js';
import {reasonOf, type Backend} from './backend.js';
import {Collection} from './collection.js';
import {parseStored, storeText} from './json-text.js';
import {loadSealer, type Sealer} from './sealing.js';
import {guardCounters, type SharedCounters} from './counters.js';
import {StoreError} from './errors.js';
import {defaultStoreUrl, isStoreUrl, parseStoreUrl, scrubSecrets, type StoreKind, type StoreLocation} from './store-url.js';

export {Collection} from './collection.js';
export {StoreError} from './errors.js';
export {defaultStoreUrl, maskStoreUrl} from './store-url.js';

/** The first bytes of every sqlite database file. */
const sqliteHeader = 'SQLite format 3\u0000';

/**
 * A path given where a data directory is expected (--home, --store, `store migrate --from/--to`)
 * that names a file: the store itself when it is a sqlite database (`…/gateway.sqlite`, as people
 * pass it), its absolute path; any other file is refused with what to pass instead — taken as a
 * directory, it failed with "Cannot create the store …/gateway.sqlite/gateway.sqlite: EEXIST". Null
 * for a directory or a path that does not exist yet.
 */
function sqliteFileAt(path: string): string | null {
	if (!isFileAt(path)) return null;
	const header = Buffer.alloc(sqliteHeader.length);
	let read = 0;
	try {
		const fd = openSync(path, 'r');
		try {
			read = readSync(fd, header, 0, header.length, 0);
		} finally {
			closeSync(fd);
		}
	} catch (error) {
		throw new StoreError(`Cannot read ${path}: ${reasonOf(error)}. Check its permissions, or pass the directory that holds gateway.sqlite.`, {cause: error});
	}
	// An empty file is an empty database to sqlite (the gateway creates the file before sqlite writes to it).
	if (read === 0 || header.toString('latin1') === sqliteHeader) return resolve(path);
	throw new StoreError(`${path} is a file but not a sqlite database: pass the data directory that holds gateway.sqlite (e.g. ${dirname(resolve(path))}), or a store URL (sqlite:///path/to/gateway.sqlite, redis://…, postgres://…).`);
}

export const namespaces = ['keys', 'channels', 'meta', 'activity', 'usage', 'usage-months', 'usage-months-merged', 'requests', 'journals', 'responses', 'response-index'] as const;
export type Namespace = (typeof namespaces)[number];

const serverNames: Readonly<Record<StoreKind, string>> = {sqlite: 'sqlite file', redis: 'Redis server', postgres: 'PostgreSQL server'};

async function connect(location: StoreLocation): Promise<Backend> {
	// Each backend's driver loads only when its store is opened: a CLI command on sqlite never pays for Redis or PostgreSQL.
	if (location.kind === 'sqlite') return (await import('./backend-sqlite.js')).openSqlite({...location, file: location.file!});
	try {
		return location.kind === 'redis' ? await (await import('./backend-redis.js')).openRedis(location) : await (await import('./backend-postgres.js')).openPostgres(location);
	} catch (error) {
		throw new StoreError(
			`Cannot reach the store ${location.masked} (${scrubSecrets(reasonOf(error), location.url)}). ` +
				`Check that the ${serverNames[location.kind]} is running and that the URL given to --store or GATEWAY_TUI_STORE is right (host, port, user, password, database); ` +
				'without either, gateway-tui uses its local sqlite store.',
			{cause: error},
		);
	}
}


export class Store {
	/** The local data directory (log file, takeover backups), whichever database holds the records. */
	readonly home: string;
	readonly kind: StoreKind;
	/** Where the records live, for messages: the sqlite file, or the store URL with its password masked. */
	readonly file: string;
	/** Warnings from opening it (a data directory that could not be made private); `serve` prints them. */
	readonly warnings: readonly string[];
	private readonly stores = new Map<Namespace, Keyv>();
	private closed = false;
	private sealerCache: Sealer | undefined;

	private constructor(
		private readonly backend: Backend,
		home: string,
	) {
		this.home = home;
		this.kind = backend.location.kind;
		this.file = backend.location.file ?? backend.location.masked;
		this.warnings = backend.warnings ?? [];
	}

	/**
	 * Open the store at `target`: a store URL, or (as before URLs) a data directory, meaning its
	 * `gateway.sqlite`. `home` is the local data directory; by default the directory given, the sqlite
	 * file's directory, or the usual one (--home, GATEWAY_TUI_HOME, the per-user data directory).
	 * Throws a StoreError naming the store (password masked) when it cannot be opened or reached.
	 */
	static async open(target: string, options: {home?: string} = {}): Promise<Store> {
		const asUrl = isStoreUrl(target);
		const file = asUrl ? null : sqliteFileAt(target);
		const url = asUrl ? target : file !== null ? `sqlite://${file}` : defaultStoreUrl(target);
		const location = parseStoreUrl(url);
		// A data directory given (as before URLs) is the home; else the sqlite file's directory, or the usual one.
		const home = options.home ?? (asUrl || file !== null ? (location.file ? dirname(location.file) : resolveHome()) : target);
		const store = new Store(await connect(location), home);
		try {
			// Touch the database once so an unreadable file fails here, with its name, not later.
			await store.raw('meta').get('revision');
		} catch (error) {
			await store.close().catch(() => {});
			if (location.kind === 'sqlite') throw new StoreError(`Cannot read the store ${store.file}: ${reasonOf(error)}. Fix or move the file; it was left untouched.`, {cause: error});
			throw store.failure('opening it', error);
		}
		return store;
	}

	/** The keyv of one namespace, created on first use. */
	raw(namespace: Namespace): Keyv {
		if (this.closed) throw new StoreError(`The store ${this.file} is closed; this is a bug in gateway-tui, please report it.`);
		let keyv = this.stores.get(namespace);
		if (!keyv) {
			// Native JSON (see storeText): keyv's default walks every value in JS, and the usage flush writes
			// thousands of records a second.
			keyv = new Keyv({store: this.backend.adapter(), namespace, throwOnErrors: true, serialize: storeText, deserialize: parseStored});
			// keyv re-emits adapter errors; failures surface as rejected calls (throwOnErrors), so the event needs no handler of its own.
			keyv.on('error', () => {});
			this.stores.set(namespace, keyv);
		}
		return keyv;
	}

	/** `removal`: the command that removes an unreadable record of it, named in the error about one. */
	collection<T>(namespace: Namespace, schema: z.ZodMiniType<T>, what: string, sealed?: readonly string[], removal?: (id: string) => string): Collection<T> {
		const sealing = sealed ? {fields: sealed, sealer: () => this.sealer()} : undefined;
		return new Collection(this.raw(namespace), schema, what, (action, error) => this.failure(action, error), sealing, removal);
	}

	/** The master key's sealer (loaded on first use: commands that never touch a secret never read it). */
	sealer(): Sealer {
		this.sealerCache ??= loadSealer();
		return this.sealerCache;
	}

	/** Use another master key from now on (`store rotate-key`). */
	useSealer(sealer: Sealer): void {
		this.sealerCache = sealer;
	}

	/**
	 * Atomic key-limit counters shared by every gateway on this store, each call answering within
	 * `timeoutMs` or failing with a StoreError; null for sqlite (one machine: limits count in memory).
	 */
	counters(timeoutMs: number): SharedCounters | null {
		const counters = this.backend.counters?.(timeoutMs);
		return counters ? guardCounters(counters, timeoutMs, (action, error) => this.failure(action, error)) : null;
	}

	/** The store revision: changes whenever keys or channels change (a channel's last test included, a `--probe-every` check only when it found something new), in any process. */
	async revision(): Promise<string> {
		try {
			const value: unknown = await this.raw('meta').get('revision');
			return typeof value === 'string' ? value : '';
		} catch (error) {
			throw error instanceof StoreError ? error : this.failure('reading the revision', error);
		}
	}

	async bumpRevision(): Promise<void> {
		try {
			await this.raw('meta').set('revision', `${Date.now()}-${randomUUID()}`);
		} catch (error) {
			throw error instanceof StoreError ? error : this.failure('writing the revision', error);
		}
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.stores.clear();
		await this.backend.close();
	}

	/** A failure while `action`: which store, what the driver said (secrets scrubbed), what to do. */
	failure(action: string, error: unknown): StoreError {
		const {kind, url} = this.backend.location;
		const reason = scrubSecrets(reasonOf(error), url);
		const next = kind === 'sqlite' ? 'Check the file and the disk it is on, then try again.' : `Check that the ${serverNames[kind]} is running and reachable, then try again.`;
		return new StoreError(`The store ${this.file} failed while ${action} (${reason}). ${next}`, {cause: error});
	}
}
