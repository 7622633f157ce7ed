/**
 * The three kinds of store the tests run against, each giving a fresh, empty store URL per call:
 * sqlite in a temp dir, and (where installed) a real Redis and PostgreSQL started once per test file.
 */
import {after, before} from 'node:test';
import {mkdtempSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {postgresMissing, redisMissing, startPostgres, startRedis, type PostgresServer, type RedisServer} from '../helpers/servers.js';

export type StoreKindUnderTest = {
	readonly name: 'sqlite' | 'redis' | 'postgres';
	/** Why the kind is skipped here (its server is not installed), or false. */
	readonly skip: string | false;
	freshUrl(): Promise<string>;
};

export function tempDir(): string {
	return mkdtempSync(join(tmpdir(), 'gateway-store-test-'));
}

/** Registers before/after hooks on the calling test file: servers start once, stop at the end. */
export function storeKinds(): {kinds: readonly StoreKindUnderTest[]; redis: () => RedisServer; postgres: () => PostgresServer} {
	let redis: RedisServer | undefined;
	let postgres: PostgresServer | undefined;
	before(async () => {
		[redis, postgres] = await Promise.all([redisMissing ? undefined : startRedis(), postgresMissing ? undefined : startPostgres()]);
	});
	after(async () => {
		await Promise.all([redis?.stop(), postgres?.stop()]);
	});
	const kinds: StoreKindUnderTest[] = [
		{name: 'sqlite', skip: false, freshUrl: async () => `sqlite://${join(tempDir(), 'gateway.sqlite')}`},
		{name: 'redis', skip: redisMissing ?? false, freshUrl: async () => redis!.freshUrl()},
		{name: 'postgres', skip: postgresMissing ?? false, freshUrl: () => postgres!.freshUrl()},
	];
	return {kinds, redis: () => redis!, postgres: () => postgres!};
}
