/**
 * The store: keyv over @keyv/sqlite in `<home>/gateway.sqlite`, one namespace per entity.
 *
 * - The directory is created 0700 and the database file 0600 before sqlite opens it (sqlite gives its
 *   journal files the database file's mode).
 * - A file that cannot be opened or read is a StoreError naming the file; nothing is ever reset.
 * - Each write resolves after sqlite committed it, so a command that reports success is durable.
 * - Every change of keys or channels also writes a new `meta:revision`, which running proxies poll
 *   to pick up changes made by other processes.
 */
import Keyv from 'keyv';
import KeyvSqlite from '@keyv/sqlite';
import {chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {randomUUID} from 'node:crypto';
import type {z} from 'zod';

export class StoreError extends Error {
	constructor(message: string, options?: {cause?: unknown}) {
		super(message, options);
		this.name = 'StoreError';
	}
}

export const namespaces = ['keys', 'channels', 'meta', 'activity', 'usage', 'requests', 'journals'] as const;
export type Namespace = (typeof namespaces)[number];

/** One entity collection: values are validated against `schema` on every read. */
export class Collection<T> {
	constructor(
		private readonly keyv: Keyv,
		private readonly schema: z.ZodType<T>,
		private readonly describe: (id: string) => string,
	) {}

	async get(id: string): Promise<T | undefined> {
		return this.parse(id, await this.keyv.get(id));
	}

	async set(id: string, value: T): Promise<void> {
		await this.keyv.set(id, value);
	}

	async delete(id: string): Promise<boolean> {
		return this.keyv.delete(id);
	}

	async list(): Promise<T[]> {
		const out: T[] = [];
		if (!this.keyv.iterator) return out;
		for await (const [id, raw] of this.keyv.iterator(undefined)) {
			const value = this.parse(String(id), raw);
			if (value !== undefined) out.push(value);
		}
		return out;
	}

	private parse(id: string, raw: unknown): T | undefined {
		if (raw === undefined || raw === null) return undefined;
		const result = this.schema.safeParse(raw);
		if (!result.success) {
			const issue = result.error.issues[0];
			throw new StoreError(
				`${this.describe(id)} in the store is not valid (${issue?.path.join('.') || 'value'}: ${issue?.message}). ` +
					'The file was written by another version or edited by hand; restore a backup or remove that entry.',
			);
		}
		return result.data;
	}
}

export class Store {
	readonly file: string;
	private readonly stores = new Map<Namespace, Keyv>();
	private closed = false;

	private constructor(readonly home: string) {
		this.file = join(home, 'gateway.sqlite');
	}

	/** Open (creating if needed) the store in `home`. Throws StoreError naming the file on failure. */
	static async open(home: string): Promise<Store> {
		const store = new Store(home);
		store.prepareFiles();
		try {
			// Touch the database once so an unreadable file fails here, with its name, not later.
			await store.raw('meta').get('revision');
		} catch (error) {
			await store.close().catch(() => {});
			throw new StoreError(`Cannot read the store ${store.file}: ${(error as Error).message}. Fix or move the file; it was left untouched.`, {cause: error});
		}
		return store;
	}

	/** The keyv of one namespace; each opens its own sqlite connection, on first use. */
	raw(namespace: Namespace): Keyv {
		if (this.closed) throw new StoreError(`The store ${this.file} is closed.`);
		let keyv = this.stores.get(namespace);
		if (!keyv) {
			keyv = this.connect(namespace);
			this.stores.set(namespace, keyv);
		}
		return keyv;
	}

	collection<T>(namespace: Namespace, schema: z.ZodType<T>, what: string): Collection<T> {
		return new Collection(this.raw(namespace), schema, id => `${what} "${id}"`);
	}

	/** The store revision: changes whenever keys or channels change, in any process. */
	async revision(): Promise<string> {
		const value: unknown = await this.raw('meta').get('revision');
		return typeof value === 'string' ? value : '';
	}

	async bumpRevision(): Promise<void> {
		await this.raw('meta').set('revision', `${Date.now()}-${randomUUID()}`);
	}

	async close(): Promise<void> {
		this.closed = true;
		const all = [...this.stores.values()];
		this.stores.clear();
		await Promise.all(all.map(keyv => keyv.disconnect().catch(() => {})));
	}

	private prepareFiles(): void {
		try {
			mkdirSync(this.home, {recursive: true, mode: 0o700});
			if (!existsSync(this.file)) closeSync(openSync(this.file, 'a', 0o600));
			chmodSync(this.file, 0o600);
		} catch (error) {
			throw new StoreError(`Cannot create the store ${this.file}: ${(error as Error).message}. Check the permissions of ${this.home} or pass another --home.`, {cause: error});
		}
		if (!statSync(this.home).isDirectory()) throw new StoreError(`${this.home} is not a directory; pass another --home.`);
	}

	private connect(namespace: Namespace): Keyv {
		const adapter = new KeyvSqlite({uri: `sqlite://${this.file}`, busyTimeout: 5000});
		// The adapter connects eagerly and keeps the failure in a promise that is only awaited by the
		// next query; this probe gives it a handler, so an unreadable file is reported by `open`, not as
		// an unhandled rejection.
		void adapter.query('SELECT 1').catch(() => {});
		const keyv = new Keyv({store: adapter, namespace, throwOnErrors: true});
		// keyv re-emits adapter errors; failures surface as rejected calls (throwOnErrors), so the event needs no handler of its own.
		keyv.on('error', () => {});
		return keyv;
	}
}
