/**
 * A shared store going away: every read and write fails at once with a StoreError that names the
 * store (password masked) and says what to do — no hang, no silent empty answer — and a Redis
 * that comes back is used again without reopening the store.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {Store, StoreError} from '../../source/store/index.js';
import {createKey, findKey} from '../../source/services/keys.js';
import {listKeys} from '../../source/store/keys.js';
import {postgresMissing, postgresPassword, redisMissing, redisPassword, startPostgres, startRedis} from '../helpers/servers.js';
import {tempDir} from './stores.js';

/** Rejects with a StoreError naming `masked` and never showing `secret`, within `withinMs`. */
async function failsFast(run: () => Promise<unknown>, masked: string, secret: string, next: RegExp, withinMs = 3000): Promise<void> {
	const started = Date.now();
	await assert.rejects(run(), (error: unknown) => {
		assert.ok(error instanceof StoreError, String(error));
		assert.ok(error.message.includes(masked), error.message);
		assert.ok(!error.message.includes(secret), error.message);
		assert.match(error.message, next);
		return true;
	});
	assert.ok(Date.now() - started < withinMs, `failed after ${Date.now() - started} ms`);
}

test('redis going away: reads and writes fail at once with a clear error; a restarted Redis is used again', {skip: redisMissing ?? false}, async () => {
	const server = await startRedis();
	const url = server.url(0);
	const masked = `redis://:****@127.0.0.1:${server.port}/0`;
	const store = await Store.open(url, {home: tempDir()});
	await createKey(store, {name: 'before'});
	await server.stop();
	const next = /Check that the Redis server is running and reachable, then try again/;
	await failsFast(() => listKeys(store), masked, redisPassword, /failed while listing every key \(.+\)\. /);
	await failsFast(() => findKey(store, 'before'), masked, redisPassword, next);
	await failsFast(() => createKey(store, {name: 'during'}), masked, redisPassword, next);
	await failsFast(() => store.revision(), masked, redisPassword, /failed while reading the revision/);
	await failsFast(() => Store.open(url, {home: tempDir()}), masked, redisPassword, /Cannot reach the store .* \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)\. Check that the Redis server is running and that the URL given to --store or GATEWAY_TUI_STORE is right/);

	// The data of a Redis without persistence is gone; the connection comes back by itself.
	const again = await startRedis({port: server.port});
	const deadline = Date.now() + 10_000;
	for (;;) {
		try {
			await createKey(store, {name: 'after'});
			break;
		} catch (error) {
			if (Date.now() > deadline) throw error;
			await new Promise(resolve => setTimeout(resolve, 100));
		}
	}
	assert.deepEqual((await listKeys(store)).map(key => key.name), ['after']);
	await store.close();
	await again.stop();
});

test('postgres going away: reads and writes fail at once with a clear error', {skip: postgresMissing ?? false}, async () => {
	const server = await startPostgres();
	const url = await server.freshUrl();
	const masked = url.replace(postgresPassword, '****');
	const store = await Store.open(url, {home: tempDir()});
	await createKey(store, {name: 'before'});
	await server.stop();
	const next = /Check that the PostgreSQL server is running and reachable, then try again/;
	await failsFast(() => listKeys(store), masked, postgresPassword, next);
	await failsFast(() => findKey(store, 'before'), masked, postgresPassword, next);
	await failsFast(() => createKey(store, {name: 'during'}), masked, postgresPassword, next);
	await failsFast(() => Store.open(url, {home: tempDir()}), masked, postgresPassword, /Cannot reach the store .*ECONNREFUSED.* Check that the PostgreSQL server is running/);
	await store.close();
});

test('wrong credentials: the server\'s refusal, the URL masked', {skip: (redisMissing || postgresMissing) ?? false}, async () => {
	const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
	try {
		const badRedis = redis.url(0).replace(redisPassword, 'not-the-password');
		await failsFast(() => Store.open(badRedis), `redis://:****@127.0.0.1:${redis.port}/0`, 'not-the-password', /WRONGPASS/);
		const badPostgres = postgres.url().replace(postgresPassword, 'not-the-password');
		await failsFast(() => Store.open(badPostgres), `postgres://gateway:****@127.0.0.1:${postgres.port}/postgres`, 'not-the-password', /password authentication failed for user "gateway"/);
	} finally {
		await Promise.all([redis.stop(), postgres.stop()]);
	}
});
