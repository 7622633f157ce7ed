/**
 * PostgreSQL through @keyv/postgres, over a pool this backend owns. The adapter as published keeps
 * one pool per process in a module variable (a second store on another URL replaces it, and
 * closing either store ends it for both) and ends an iteration silently on a failed query; the
 * subclass below gives it this store's pool, leaves closing to the store, and lets a failed
 * iteration throw, so `list()` never returns a partial list as if it were complete.
 *
 * All namespaces share the table `gateway_tui` (key = `<namespace>:<id>`), so the gateway can live
 * in an existing database without touching keyv's default `keyv` table.
 */
import {KeyvPostgres} from '@keyv/postgres';
import type {KeyvStoreAdapter} from 'keyv';
import pg from 'pg';
import type {Backend} from './backend.js';
import type {SharedCounters} from './counters.js';
import {isConcurrentCreate, postgresCounters} from './counters-postgres.js';
import type {StoreLocation} from './store-url.js';

export const postgresTable = 'gateway_tui';
/** The adapter always names its table with a schema (default `public`), so these queries do too. */
const qualified = `public.${postgresTable}`;
const keySize = 1024;
const pageSize = 500;

type Row = {key: string; value: string};
type Query = (sql: string, values?: readonly unknown[]) => Promise<Row[]>;

function adapterClass(query: Query) {
	return class GatewayPostgres extends KeyvPostgres {
		override async connect() {
			return query;
		}

		override async disconnect(): Promise<void> {
			// The pool belongs to the store (see openPostgres); it ends it once, on close.
		}

		// As published, a delete reads the row whole first (see backend-sqlite.ts): one statement instead.
		override async delete(key: string): Promise<boolean> {
			return ((await this.query(`DELETE FROM ${qualified} WHERE key = $1 RETURNING key`, [key])) as unknown[]).length > 0;
		}

		override async deleteMany(keys: string[]): Promise<boolean> {
			return ((await this.query(`DELETE FROM ${qualified} WHERE key = ANY($1) RETURNING key`, [keys])) as unknown[]).length > 0;
		}

		override async *iterator(namespace?: string): AsyncGenerator<string[], void, unknown> {
			const pattern = `${namespace ? `${namespace.replace(/[%_\\]/g, '\\$&')}:` : ''}%`;
			let last: string | null = null;
			for (;;) {
				const rows: Row[] =
					last === null
						? await query(`SELECT key, value FROM ${qualified} WHERE key LIKE $1 ORDER BY key LIMIT $2`, [pattern, pageSize])
						: await query(`SELECT key, value FROM ${qualified} WHERE key LIKE $1 AND key > $2 ORDER BY key LIMIT $3`, [pattern, last, pageSize]);
				for (const row of rows) yield [row.key, row.value];
				if (rows.length < pageSize) return;
				last = rows[rows.length - 1]!.key;
			}
		}
	};
}

export async function openPostgres(location: StoreLocation): Promise<Backend> {
	const pool = new pg.Pool({connectionString: location.url, max: 4, connectionTimeoutMillis: 5000, query_timeout: 15_000, idleTimeoutMillis: 10_000});
	// An idle connection whose server went away is reported here, and an unhandled 'error' would crash
	// the process; the next query opens a new connection and reports the failure to its caller.
	pool.on('error', () => {});
	const query: Query = async (sql, values) => (await pool.query<Row>(sql, values ? [...values] : undefined)).rows;
	try {
		await query(`CREATE TABLE IF NOT EXISTS ${qualified} (key VARCHAR(${keySize}) PRIMARY KEY, value TEXT)`);
	} catch (error) {
		// Two processes creating the table at the same moment: the later one fails, and the table exists.
		if (!isConcurrentCreate(error)) {
			await pool.end().catch(() => {});
			throw error;
		}
	}
	const Adapter = adapterClass(query);
	// Created on first use: only a gateway with limited keys needs them (see counters-postgres.ts).
	let counters: SharedCounters | undefined;
	return {
		location,
		adapter(): KeyvStoreAdapter {
			// The table exists already, so the adapter's own CREATE TABLE IF NOT EXISTS is a no-op; the
			// masked URL keeps the password out of the adapter's options.
			return new Adapter({uri: location.masked, table: postgresTable, keySize});
		},
		counters(timeoutMs) {
			return (counters ??= postgresCounters(location.url, timeoutMs));
		},
		async close() {
			await Promise.all([pool.end().catch(() => {}), counters?.close()]);
		},
	};
}
