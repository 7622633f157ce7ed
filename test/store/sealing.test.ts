/**
 * Secrets at rest: the real keys of channels and the secrets of virtual keys never reach the store
 * file in plaintext; a gateway with another master key refuses to start and says why; a store written
 * before sealing existed is read as it is and sealed by `store rotate-key`, which also rotates the key.
 */
import {readTurns, writeTurns} from '../../source/store/responses.js';
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {assertRefused, runCli, startServe, stopChild} from '../helpers/cli.js';
import {Store} from '../../source/store/index.js';
import {Sealer, loadSealer, parseMasterKey, writeKeyFile} from '../../source/store/sealing.js';
import {listKeys} from '../../source/store/keys.js';

const realKey = 'sk-proj-REALKEY0123456789abcdefABCDEF';

function setup(): {home: string; keyFile: string; env: Record<string, string>; done(): void} {
	const dir = mkdtempSync(join(tmpdir(), 'gateway-tui-seal-'));
	const keyFile = join(dir, 'config', 'master.key');
	return {home: join(dir, 'home'), keyFile, env: {GATEWAY_TUI_MASTER_KEY_FILE: keyFile, GATEWAY_TUI_MASTER_KEY: ''}, done: () => rmSync(dir, {recursive: true, force: true})};
}

async function ok(args: readonly string[], env: Record<string, string>): Promise<string> {
	const ran = await runCli(args, env);
	assert.equal(ran.code, 0, ran.stderr);
	return ran.stdout;
}

test('keys and channels are sealed in the store file; the CLI and the gateway read them back', async () => {
	const {home, keyFile, env, done} = setup();
	try {
		await ok(['channels', 'add', '--name', 'oa', '--format', 'openai', '--base-url', 'https://api.openai.com/v1', '--api-key', realKey, '--models', 'gpt-4o', '--home', home], env);
		const created = JSON.parse(await ok(['keys', 'create', '--name', 'laptop', '--json', '--home', home], env)) as {key: string};
		const file = readFileSync(join(home, 'gateway.sqlite')).toString('latin1');
		assert.ok(!file.includes(realKey) && !file.includes(realKey.slice(0, 16)), 'no real key in the store file');
		assert.ok(!file.includes(created.key) && !file.includes(created.key.slice(8, 24)), 'no virtual key secret in the store file');
		assert.ok(file.includes('gtui-sealed:v1:'));
		assert.match(readFileSync(keyFile, 'utf8'), /^[0-9a-f]{64}\n$/);
		assert.match(await ok(['env', 'laptop', '--tool', 'openai', '--home', home], env), new RegExp(created.key));
		const served = await startServe(['--port', '0', '--home', home], env);
		try {
			const answer = await fetch(`${served.url}/v1/models`, {headers: {authorization: `Bearer ${created.key}`}});
			assert.equal(answer.status, 200, 'the gateway opens the sealed secret to authenticate');
		} finally {
			assert.equal(await stopChild(served.child), 0);
		}
	} finally {
		done();
	}
});

test('a gateway with another master key refuses to start, in one line that says what to set', async () => {
	const {home, env, done} = setup();
	try {
		await ok(['keys', 'create', '--name', 'laptop', '--home', home], env);
		const other = {...env, GATEWAY_TUI_MASTER_KEY: 'b'.repeat(64)};
		assertRefused(await runCli(['serve', '--port', '0', '--home', home], other), /sealed with another master key .*GATEWAY_TUI_MASTER_KEY/);
		assertRefused(await runCli(['keys', 'list', '--home', home], other), /sealed with another master key/);
	} finally {
		done();
	}
});

test('a store written before sealing is read as it is; store rotate-key seals it under a new key', async () => {
	const {home, keyFile, env, done} = setup();
	try {
		await ok(['keys', 'create', '--name', 'old', '--home', home], env);
		// Rewrite the record as an older version stored it: the secret in plaintext.
		const store = await Store.open(home);
		store.useSealer(new Sealer(parseMasterKey(readFileSync(keyFile, 'utf8')), {kind: 'file', where: keyFile}));
		const [key] = await listKeys(store);
		const legacy = 'sk-gtui-legacyPLAINTEXTsecret0123456789abcdef';
		await store.raw('keys').set(key!.id, {...key!, secret: legacy});
		const answer = 'a kept answer, sealed under the key of its day';
		await writeTurns(store, [{id: 'resp_kept', keyId: key!.id, createdAt: Date.now(), chain: [], input: [{type: 'message', role: 'user', content: 'hi'}], response: {id: 'resp_kept', output_text: answer}}]);
		await store.close();
		assert.match(await ok(['env', 'old', '--tool', 'openai', '--home', home], env), new RegExp(legacy), 'a plaintext secret still reads');
		const before = readFileSync(keyFile, 'utf8');
		assert.match(await ok(['store', 'rotate-key', '--home', home], env), /^Sealed 1 keys, 0 channels and 1 stored Responses answers in .* under a new master key, saved in /);
		assert.notEqual(readFileSync(keyFile, 'utf8'), before, 'a new key');
		assert.ok(!existsSync(`${keyFile}.old`), 'the old key is removed once every record is rewritten');
		assert.ok(!readFileSync(join(home, 'gateway.sqlite')).toString('latin1').includes(legacy), 'sealed now');
		assert.match(await ok(['env', 'old', '--tool', 'openai', '--home', home], env), new RegExp(legacy));
		const reopened = await Store.open(home);
		try {
			reopened.useSealer(new Sealer(parseMasterKey(readFileSync(keyFile, 'utf8')), {kind: 'file', where: keyFile}));
			const [kept] = await readTurns(reopened, ['resp_kept']);
			assert.equal(kept?.response.output_text, answer, 'the stored conversation opens under the new key');
		} finally {
			await reopened.close();
		}
		const withEnv = {...env, GATEWAY_TUI_MASTER_KEY: readFileSync(keyFile, 'utf8').trim()};
		const rotated = await ok(['store', 'rotate-key', '--home', home], withEnv);
		const fresh = /GATEWAY_TUI_MASTER_KEY=([0-9a-f]{64})/.exec(rotated)?.[1];
		assert.ok(fresh, rotated);
		assert.match(await ok(['env', 'old', '--tool', 'openai', '--home', home], {...env, GATEWAY_TUI_MASTER_KEY: fresh!}), new RegExp(legacy));
	} finally {
		done();
	}
});

test('the sealer: AES-256-GCM, a fresh IV each time, tampering detected; master keys as hex, base64 or a passphrase', () => {
	const sealer = new Sealer(Buffer.alloc(32, 7), {kind: 'env', where: 'GATEWAY_TUI_MASTER_KEY'});
	const [a, b] = [sealer.seal('secret'), sealer.seal('secret')];
	assert.notEqual(a, b);
	assert.deepEqual([sealer.open(a), sealer.open(b), sealer.open('plain')], ['secret', 'secret', 'plain']);
	// A bit flipped in the ciphertext, the tag and the IV in turn (changing the text's last characters
	// could touch only the base64 padding bits, which decode to the same bytes: 1 run in 256 did).
	const prefix = 'gtui-sealed:v1:';
	assert.ok(a.startsWith(prefix));
	const raw = Buffer.from(a.slice(prefix.length), 'base64url');
	for (const at of [raw.length - 1, 20, 0]) {
		const bytes = Buffer.from(raw);
		bytes[at]! ^= 1;
		assert.throws(() => sealer.open(prefix + bytes.toString('base64url')), /another master key/, `byte ${at} flipped`);
	}
	assert.equal(parseMasterKey('00'.repeat(32)).length, 32);
	assert.equal(parseMasterKey(Buffer.alloc(32, 1).toString('base64')).length, 32);
	assert.equal(parseMasterKey('a long enough passphrase').length, 32);
	assert.throws(() => parseMasterKey('short'), /too short/);
});

test('a key file with older keys beside it (rotations cut short, one a line): every one opens, only the key file seals', () => {
	const {keyFile, done} = setup();
	try {
		const [k0, k1, k2] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2), Buffer.alloc(32, 3)];
		writeKeyFile(keyFile, k2);
		writeFileSync(`${keyFile}.old`, `${k0.toString('hex')}\n${k1.toString('hex')}\n`);
		const sealer = loadSealer({GATEWAY_TUI_MASTER_KEY_FILE: keyFile});
		for (const key of [k0, k1]) assert.equal(sealer.open(new Sealer(key, sealer.source).seal('old')), 'old');
		assert.equal(new Sealer(k2, sealer.source).open(sealer.seal('new')), 'new');
		assert.equal(statSync(keyFile).mode & 0o777, 0o600);
	} finally {
		done();
	}
});
