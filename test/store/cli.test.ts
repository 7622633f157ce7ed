/**
 * `--store URL` and GATEWAY_TUI_STORE on the real CLI (the built dist/cli.js): commands sharing a
 * Redis or PostgreSQL store see each other's keys and channels, `serve` says where its data is
 * (masked), an unreachable store is one clear line, and `store migrate` moves a laptop's sqlite.
 */
import assert from 'node:assert/strict';
import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';
import {assertRefused, runCli, startServe, stopChild} from '../helpers/cli.js';
import {freePort, postgresPassword, redisPassword} from '../helpers/servers.js';
import {storeKinds, tempDir} from './stores.js';

const {kinds} = storeKinds();
const [, redis, postgres] = kinds as [(typeof kinds)[number], (typeof kinds)[number], (typeof kinds)[number]];

async function ok(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<string> {
	const result = await runCli(args, {GATEWAY_TUI_STORE: undefined, ...env});
	assert.equal(result.code, 0, result.stderr);
	return result.stdout;
}

test('redis: a key created with --store is listed by another command with the same --store', {skip: redis.skip}, async () => {
	const url = await redis.freshUrl();
	const home = tempDir();
	await ok(['keys', 'create', '--name', 'shared', '--rpm', '10', '--store', url, '--home', home]);
	const listed = JSON.parse(await ok(['--store', url, 'keys', 'list', '--json', '--home', home])) as Array<{name: string}>;
	assert.deepEqual(listed.map(key => key.name), ['shared']);
	assert.equal(existsSync(join(home, 'gateway.sqlite')), false, 'the local sqlite store was not used');
	const local = JSON.parse(await ok(['keys', 'list', '--json', '--home', home])) as unknown[];
	assert.deepEqual(local, [], 'without --store, the local store (empty) is used');
});

test('postgres: GATEWAY_TUI_STORE chooses the store, and --store wins over it', {skip: postgres.skip}, async () => {
	const url = await postgres.freshUrl();
	const env = {GATEWAY_TUI_STORE: url, GATEWAY_TUI_HOME: tempDir()};
	await ok(['channels', 'add', '--name', 'oa', '--format', 'openai', '--base-url', 'https://api.openai.com/v1', '--api-key', 'sk-real-1234567890abcdef', '--models', 'gpt-4o'], env);
	const listed = JSON.parse(await ok(['channels', 'list', '--json'], env)) as Array<{name: string}>;
	assert.deepEqual(listed.map(channel => channel.name), ['oa']);
	const other = await postgres.freshUrl();
	assert.deepEqual(JSON.parse(await ok(['channels', 'list', '--json', '--store', other], env)), []);
});

test('serve --store: the proxy runs on the shared store and shows its URL masked', {skip: redis.skip}, async () => {
	const url = await redis.freshUrl();
	const served = await startServe(['--port', '0', '--store', url, '--home', tempDir()], {GATEWAY_TUI_STORE: undefined});
	try {
		assert.match(served.stderr(), /\(data: redis:\/\/:\*\*\*\*@127\.0\.0\.1:\d+\/\d+\)/);
		assert.ok(!served.stderr().includes(redisPassword));
	} finally {
		assert.equal(await stopChild(served.child), 0);
	}
});

test('an unreachable store is one line naming it, masked, with what to do', async () => {
	const port = await freePort();
	const redisResult = await runCli(['keys', 'list', '--store', `redis://admin:hunter2@127.0.0.1:${port}/0`, '--home', tempDir()]);
	assertRefused(redisResult, new RegExp(`Cannot reach the store redis://admin:\\*\\*\\*\\*@127\\.0\\.0\\.1:${port}/0 \\(connect ECONNREFUSED .*\\)\\. Check that the Redis server is running`));
	assert.ok(!redisResult.stderr.includes('hunter2'));
	const pgResult = await runCli(['usage', '--home', tempDir()], {GATEWAY_TUI_STORE: `postgresql://gw:${postgresPassword}@127.0.0.1:${port}/gateway`});
	assertRefused(pgResult, /Cannot reach the store postgresql:\/\/gw:\*\*\*\*@127\.0\.0\.1:\d+\/gateway .*PostgreSQL server/);
	assert.ok(!pgResult.stderr.includes(postgresPassword));
	assertRefused(await runCli(['keys', 'list', '--store', 'mongodb://u:pw@db/x']), /The store URL mongodb:\/\/u:\*\*\*\*@db\/x is not one gateway-tui can use/);
});

test('store migrate: the local sqlite into Redis, refused a second time unless --force', {skip: redis.skip}, async () => {
	const home = tempDir();
	const url = await redis.freshUrl();
	await ok(['keys', 'create', '--name', 'laptop', '--home', home]);
	await ok(['channels', 'add', '--name', 'oa', '--format', 'openai', '--base-url', 'https://api.openai.com/v1', '--models', 'gpt-4o', '--home', home]);
	const out = await ok(['store', 'migrate', '--to', url, '--home', home]);
	assert.match(out, /^Copied 1 channels, 1 keys, .* from .*gateway\.sqlite to redis:\/\/:\*\*\*\*@127\.0\.0\.1:\d+\/\d+\./);
	assert.ok(!out.includes(redisPassword));
	const listed = JSON.parse(await ok(['keys', 'list', '--json', '--store', url])) as Array<{name: string}>;
	assert.deepEqual(listed.map(key => key.name), ['laptop']);
	assertRefused(await runCli(['store', 'migrate', '--to', url, '--home', home]), /already holds 1 key and 1 channel; nothing was copied\. Run again with --force/);
	const forced = JSON.parse(await ok(['store', 'migrate', '--from', `sqlite://${join(home, 'gateway.sqlite')}`, '--to', url, '--force', '--json'])) as {copied: {keys: number}};
	assert.equal(forced.copied.keys, 1);
});

test('a path to the sqlite file itself is the store; any other file is refused with what to pass', async () => {
	const home = tempDir();
	await ok(['keys', 'create', '--name', 'laptop', '--home', home]);
	const file = join(home, 'gateway.sqlite');
	// As people pass it: the file, not its directory. Taken as a directory it failed with "EEXIST … gateway.sqlite/gateway.sqlite".
	const listed = JSON.parse(await ok(['keys', 'list', '--json', '--store', file])) as Array<{name: string}>;
	assert.deepEqual(listed.map(key => key.name), ['laptop']);
	const target = tempDir();
	const out = await ok(['store', 'migrate', '--from', file, '--to', `sqlite://${join(target, 'gateway.sqlite')}`, '--home', tempDir()]);
	assert.match(out, /^Copied 0 channels, 1 keys/);
	assert.deepEqual((JSON.parse(await ok(['keys', 'list', '--json', '--home', target])) as Array<{name: string}>).map(key => key.name), ['laptop']);
	const notes = join(home, 'notes.txt');
	writeFileSync(notes, 'not a database\n');
	const refused = await runCli(['keys', 'list', '--store', notes], {GATEWAY_TUI_STORE: undefined});
	assertRefused(refused, /notes\.txt is a file but not a sqlite database: pass the data directory that holds gateway\.sqlite \(e\.g\. .+\), or a store URL/);
	assert.equal(readFileSync(notes, 'utf8'), 'not a database\n', 'the file is left as it was');
	assert.equal(statSync(notes).mode & 0o777, 0o644 & ~process.umask(), 'its mode too');
	// --home (or GATEWAY_TUI_HOME) naming the file: what to pass, for every command, before anything is opened.
	assertRefused(await runCli(['keys', 'list', '--home', file], {GATEWAY_TUI_STORE: undefined}), new RegExp(`--home ${file} is a file, not a directory: give --home the directory that holds it \\(--home ${home}\\), or use the file as the store \\(--store ${file}\\)\\.`));
	assertRefused(await runCli(['usage'], {GATEWAY_TUI_STORE: undefined, GATEWAY_TUI_HOME: notes}), /GATEWAY_TUI_HOME .*notes\.txt is a file, not a directory: give --home a directory for the data/);
});
