/**
 * Real database servers for the store tests: a `redis-server` and a PostgreSQL cluster from the
 * Debian packages (`apt-get install redis-server postgresql`), each on a free port of 127.0.0.1 with
 * a throwaway data directory, started once per test file and stopped after it. Both require a
 * password, so the tests see real credentials in real URLs (and check they are masked).
 *
 * PostgreSQL refuses to run as root: as root, initdb and postgres run as the `postgres` user the
 * Debian package creates (through spawn's uid/gid), in a directory handed to that user.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import pg from 'pg';

export const redisPassword = 'r3dis-s3cret';
export const postgresUser = 'gateway';
export const postgresPassword = 'pg-s3cret';

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
		});
	});
}

/**
 * Start a server on a port `freePort()` found free. The port is free when it is found but not held,
 * so a test file running beside this one can take it before the server binds (another server, or a
 * client's outgoing connection): a server that reports the port in use is started again on another.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await start(await freePort());
		} catch (error) {
			if (attempt >= attempts || !/address already in use/i.test(error instanceof Error ? error.message : String(error))) throw error;
		}
	}
}

function which(binary: string): string | null {
	const found = spawnSync('sh', ['-c', `command -v ${binary}`], {encoding: 'utf8'});
	return found.status === 0 ? found.stdout.trim() : null;
}

/** Resolves once `pattern` shows in the child's output; rejects if it exits first or takes too long. */
function waitFor(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 30_000): Promise<void> {
	return new Promise((resolve, reject) => {
		let seen = '';
		const timer = setTimeout(() => reject(new Error(`${what} did not start within ${timeoutMs} ms:\n${seen}`)), timeoutMs);
		const onData = (chunk: Buffer) => {
			seen += chunk.toString();
			if (pattern.test(seen)) {
				clearTimeout(timer);
				resolve();
			}
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		child.once('exit', code => {
			clearTimeout(timer);
			reject(new Error(`${what} exited with ${code} before it was ready:\n${seen}`));
		});
	});
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise(resolve => {
		child.once('exit', () => resolve());
		child.kill(signal);
	});
}

export type RedisServer = {
	readonly port: number;
	/** A URL with the password, on database `db` (each test takes its own; the server has 64). */
	url(db?: number): string;
	/** A database no other caller got from this server. */
	freshUrl(): string;
	stop(): Promise<void>;
};

export const redisMissing = which('redis-server') ? null : 'redis-server not installed (apt-get install redis-server); Redis store tests skipped';

/** `port`: start on that port (e.g. again after `stop`, as a restarted server would be). */
export async function startRedis(options: {port?: number} = {}): Promise<RedisServer> {
	const dir = mkdtempSync(join(tmpdir(), 'gateway-redis-'));
	const startAt = async (port: number) => {
		const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--databases', '64', '--requirepass', redisPassword], {stdio: ['ignore', 'pipe', 'pipe']});
		await waitFor(child, /Ready to accept connections/, 'redis-server');
		return {child, port};
	};
	const {child, port} = await (options.port === undefined ? onFreePort(startAt) : startAt(options.port)).catch((error: unknown) => {
		rmSync(dir, {recursive: true, force: true});
		throw error;
	});
	let next = 0;
	const url = (db = 0) => `redis://:${redisPassword}@127.0.0.1:${port}/${db}`;
	return {
		port,
		url,
		freshUrl: () => url(next++ % 64),
		async stop() {
			await stopChild(child, 'SIGTERM');
			rmSync(dir, {recursive: true, force: true});
		},
	};
}

function postgresBin(): string | null {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return null;
	const versions = readdirSync(root).filter(name => existsSync(join(root, name, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
	return versions[0] ? join(root, versions[0], 'bin') : null;
}

export const postgresMissing = postgresBin() ? null : 'PostgreSQL not installed (apt-get install postgresql); PostgreSQL store tests skipped';

export type PostgresServer = {
	readonly port: number;
	/** A URL with the password, on `database`. */
	url(database?: string): string;
	/** A URL on a new, empty database of its own. */
	freshUrl(): Promise<string>;
	stop(): Promise<void>;
};

/** As root, the uid/gid of the `postgres` user; otherwise run as ourselves. */
function postgresIdentity(): {uid: number; gid: number} | null {
	if (process.getuid?.() !== 0) return null;
	const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], {encoding: 'utf8'}).stdout.trim());
	const uid = id('-u');
	if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root, PostgreSQL needs the `postgres` user (the Debian package creates it)');
	return {uid, gid: id('-g')};
}

export async function startPostgres(): Promise<PostgresServer> {
	const bin = postgresBin()!;
	const dir = mkdtempSync(join(tmpdir(), 'gateway-postgres-'));
	const data = join(dir, 'data');
	const passwordFile = join(dir, 'password');
	writeFileSync(passwordFile, `${postgresPassword}\n`);
	const identity = postgresIdentity();
	if (identity) for (const path of [dir, passwordFile]) chownSync(path, identity.uid, identity.gid);
	const as = identity ? {uid: identity.uid, gid: identity.gid} : {};
	const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', postgresUser, `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '--no-sync', '-E', 'UTF8'], {...as, cwd: dir, encoding: 'utf8'});
	if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
	const {child, port} = await onFreePort(async port => {
		const child = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off'], {...as, cwd: dir, stdio: ['ignore', 'pipe', 'pipe']});
		await waitFor(child, /database system is ready to accept connections/, 'postgres');
		return {child, port};
	});
	const url = (database = 'postgres') => `postgres://${postgresUser}:${postgresPassword}@127.0.0.1:${port}/${database}`;
	let next = 0;
	return {
		port,
		url,
		async freshUrl() {
			const name = `gw_${next++}`;
			const client = new pg.Client({connectionString: url()});
			await client.connect();
			try {
				await client.query(`CREATE DATABASE ${name}`);
			} finally {
				await client.end();
			}
			return url(name);
		},
		async stop() {
			// SIGINT: PostgreSQL's "fast" shutdown (ends sessions, no waiting for clients to leave).
			await stopChild(child, 'SIGINT');
			rmSync(dir, {recursive: true, force: true});
		},
	};
}
