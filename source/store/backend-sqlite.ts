/**
 * sqlite through @keyv/sqlite: the default store, one file. Its directory is created 0700 and the
 * file 0600 before sqlite opens it (sqlite gives its journal files the database file's mode).
 * Each namespace opens its own connection, as before URLs existed.
 */
import KeyvSqlite from '@keyv/sqlite';
import type {KeyvStoreAdapter} from 'keyv';
import {chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync} from 'node:fs';
import {basename, dirname} from 'node:path';
import type {Backend} from './backend.js';
import {StoreError} from './errors.js';
import type {StoreLocation} from './store-url.js';

/**
 * A data directory that already existed with a wider mode (0755 is common) is tightened to 0700 when
 * it is gateway-tui's own (it holds `gateway.sqlite`); a directory named with --store is the user's to
 * set. Returns a warning when it cannot be tightened.
 */
function tightenDirectory(dir: string, file: string): string | null {
	if (basename(file) !== 'gateway.sqlite') return null;
	try {
		if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
		return null;
	} catch (error) {
		return `The data directory ${dir} is readable by other users and could not be made private (${(error as Error).message}). Run \`chmod 700 ${dir}\`.`;
	}
}

function prepareFile(file: string): string | null {
	const dir = dirname(file);
	try {
		mkdirSync(dir, {recursive: true, mode: 0o700});
		if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
		chmodSync(file, 0o600);
	} catch (error) {
		throw new StoreError(`Cannot create the store ${file}: ${(error as Error).message}. Check the permissions of ${dir} or pass another --home (or --store).`, {cause: error});
	}
	if (!statSync(dir).isDirectory()) throw new StoreError(`${dir} is not a directory; pass another --home (or --store).`);
	return tightenDirectory(dir, file);
}

/** Rows per statement of `setMany` (two bound values each; sqlite allows 32,766). */
const rowsPerStatement = 500;
const bytesPerStatement = 1024 * 1024;

/**
 * Two changes to the adapter as published, both for the usage log's writes:
 * - it reads a row whole (`SELECT *`) before it deletes it, only to answer whether it existed: a
 *   usage chunk is about 100 KB of JSON, so pruning the request log read back, and copied into
 *   JavaScript, everything it threw away. `DELETE … RETURNING key` (sqlite ≥ 3.35; node-sqlite3
 *   bundles a newer one) answers the same in one statement without reading the value;
 * - it has no `setMany`, so keyv writes a batch as separate statements: each its own transaction,
 *   each rewriting the pages every transaction touches. One statement writes the batch in one.
 *   `deleteMany` deletes its keys in one statement too: a hundred chunks pruned one by one cost six
 *   times what they cost together.
 * And one to closing: it waits for the statements in flight and refuses new ones (see disconnect).
 */
class GatewaySqlite extends KeyvSqlite {
	/** The connection's settings (see useWal), applied before any other statement runs on it. */
	private readonly ready: Promise<void>;
	/** Statements issued and not answered yet. */
	private readonly inFlight = new Set<Promise<unknown>>();
	private closing = false;

	constructor(options: ConstructorParameters<typeof KeyvSqlite>[0]) {
		super(options);
		const run = this.query;
		// Never rejects: a file that cannot be opened fails the first statement that waits for it, so
		// `open` reports it (and the connect failure has a handler, never an unhandled rejection).
		this.ready = useWal(run).catch(() => {});
		// Every statement waits for the settings: issued one after another, a first write could run
		// between them (a flaky test saw a connection without its journal_size_limit yet).
		this.query = (sql: string, ...parameters: unknown[]) => {
			if (this.closing) return Promise.reject(new Error('the store is closed: the gateway is stopping'));
			const statement = this.ready.then(() => run(sql, ...parameters));
			this.inFlight.add(statement);
			const settled = () => this.inFlight.delete(statement);
			statement.then(settled, settled);
			return statement;
		};
	}

	/**
	 * Close once every statement issued has its answer, and refuse new ones: node-sqlite3
	 * answers a statement from its thread pool, and an answer that arrives while a worker thread is
	 * being torn down (the TUI's core, closed and ended under traffic) calls into JavaScript that is
	 * gone — the whole process aborts (SIGABRT, "napi_throw"). A statement issued after the close
	 * began (a request still finishing) is refused here, before it reaches the driver.
	 */
	override async disconnect(): Promise<void> {
		// What keyv was already on its way to issue (it serialises first, a few microtasks) still runs.
		await new Promise(resolve => setImmediate(resolve));
		this.closing = true;
		await this.ready;
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
		await super.disconnect();
	}

	async setMany(entries: Array<{key: string; value: unknown}>): Promise<void> {
		let start = 0;
		while (start < entries.length) {
			// Up to 500 rows and about 1 MB of values a statement: node-sqlite3 copies a statement's
			// values into memory of its own, and copies of 4 MB at once left the process larger.
			let end = start;
			let bytes = 0;
			while (end < entries.length && end - start < rowsPerStatement && (end === start || bytes < bytesPerStatement)) {
				const value = entries[end]!.value;
				bytes += typeof value === 'string' ? value.length : 0;
				end++;
			}
			const rows = entries.slice(start, end);
			const values = rows.flatMap(({key, value}) => [key, value]);
			await this.query(`INSERT INTO ${this.opts.table!} (key, value) VALUES ${rows.map(() => '(?, ?)').join(', ')} ON CONFLICT(key) DO UPDATE SET value=excluded.value`, ...values);
			start = end;
		}
	}

	override async delete(key: string): Promise<boolean> {
		const rows = (await this.query(`DELETE FROM ${this.opts.table!} WHERE key = ? RETURNING key`, key)) as unknown[];
		return rows.length > 0;
	}

	override async deleteMany(keys: string[]): Promise<boolean> {
		const rows = (await this.query(`DELETE FROM ${this.opts.table!} WHERE key IN (SELECT value FROM json_each(?)) RETURNING key`, JSON.stringify(keys))) as unknown[];
		return rows.length > 0;
	}

	/**
	 * A namespace's entries, read as a range of the primary key's index. As published, each page of ten
	 * is `WHERE key LIKE 'ns:%' LIMIT 10 OFFSET n`: sqlite's LIKE is case-insensitive, so the index
	 * cannot serve it, and every page scanned the whole table — the request log's chunks (~100 KB each,
	 * up to 50 MB) and the kept Responses conversations included. Listing three keys took 2 ms on a
	 * store with a full request log, and each connection that listed something kept the table's pages
	 * in its page cache: `serve` idled 11-13 MB larger on such a store than on a new one. Keys of
	 * namespace `ns` are exactly those from `ns:` (inclusive) to `ns;` (';' follows ':' in every
	 * collation sqlite uses for this column: BINARY), read in key order, a page after the last key.
	 */
	override async *iterator(namespace?: string): AsyncGenerator<[string, string], void, unknown> {
		const table = this.opts.table!;
		const [from, to] = namespace ? [`${namespace}:`, `${namespace};`] : [null, null];
		let last: string | null = null;
		for (;;) {
			const where: Array<readonly [string, string]> = [];
			if (last !== null) where.push(['key > ?', last]);
			else if (from !== null) where.push(['key >= ?', from]);
			if (to !== null) where.push(['key < ?', to]);
			const clause = where.length > 0 ? ` WHERE ${where.map(([condition]) => condition).join(' AND ')}` : '';
			const rows = (await this.query(`SELECT key, value FROM ${table}${clause} ORDER BY key LIMIT ${rowsPerPage}`, ...where.map(([, value]) => value))) as Array<{key: string; value: string}>;
			for (const row of rows) yield [row.key, row.value];
			if (rows.length < rowsPerPage) return;
			last = rows[rows.length - 1]!.key;
		}
	}
}

/** Rows a page of `iterator`: a request log chunk is ~100 KB, so a page of them is ~10 MB at most. */
const rowsPerPage = 100;

export function openSqlite(location: StoreLocation & {file: string}): Backend {
	const warning = prepareFile(location.file);
	const adapters: KeyvSqlite[] = [];
	return {
		location,
		warnings: warning ? [warning] : [],
		adapter(): KeyvStoreAdapter {
			// It connects at once and puts the file in write-ahead-log mode before its first statement (see useWal).
			const adapter = new GatewaySqlite({uri: `sqlite://${location.file}`, busyTimeout: 5000});
			adapters.push(adapter);
			return adapter;
		},
		async close() {
			// One at a time: the last connection to a file in WAL mode folds the log into it and removes
			// the log, but only if it is the last — closed all at once, each could see the others still
			// open, and the log (with the newest writes, a key sealed again included) stayed beside the file.
			for (const adapter of adapters.splice(0)) await adapter.disconnect().catch(() => {});
		},
	};
}

/**
 * Write-ahead logging with `synchronous=NORMAL`: a commit appends to `gateway.sqlite-wal` without
 * waiting for the disk, where the default rollback journal made every write (the usage flush writes
 * dozens a second under load) create, fsync and delete a journal file, four fsyncs each. A process
 * that is killed loses nothing committed; a power cut can lose the last commits, never the file's
 * consistency. Readers (the CLI, other gateways on the file) no longer wait for a writer. The mode
 * is stored in the file, so every connection after the first finds it set; `synchronous` is per
 * connection. A file system without the shared memory WAL needs keeps the rollback journal, and
 * `synchronous` its safe default with it.
 */
async function useWal(query: (sql: string) => Promise<unknown>): Promise<void> {
	const rows = (await query('PRAGMA journal_mode=WAL')) as Array<{journal_mode?: string}>;
	if (rows[0]?.journal_mode !== 'wal') return;
	await query('PRAGMA synchronous=NORMAL');
	// The log is reused after each checkpoint, never shrunk: one large write (a long Responses
	// conversation kept) would otherwise leave it that large until the last process closes.
	await query(`PRAGMA journal_size_limit=${walSizeLimit}`);
	// What a write replaces is zeroed in the page it leaves (where that costs no extra write): a
	// secret written in plaintext by an older version and sealed since does not linger in free space.
	await query('PRAGMA secure_delete=FAST');
}

/** What the write-ahead log is cut back to after a checkpoint (sqlite checkpoints it at about 4 MB). */
const walSizeLimit = 16 * 1024 * 1024;
