import {test} from 'node:test';
import assert from 'node:assert/strict';
import {statSync, writeFileSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {Store, StoreError} from '../../source/store/index.js';
import {createKey, deleteKey, findKey, keyPrefix, revokeKey, rotateKey} from '../../source/services/keys.js';
import {addChannel, editChannel, findChannel, removeChannel, setChannelEnabled, channelView} from '../../source/services/channels.js';
import {UserError} from '../../source/base/errors.js';
import {tempHome} from '../helpers/gateway.js';
import {hashSecret, listKeys, keys} from '../../source/store/keys.js';
import {listChannels} from '../../source/store/channels.js';
import {maskSecret} from '../../source/base/secrets.js';

test('keys: create, list, show, revoke, rotate, delete — and they survive a restart', async () => {
	const home = tempHome();
	let store = await Store.open(home);
	const channel = await addChannel(store, {name: 'oa', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-real-1234567890abcdef', models: 'gpt-4o'});
	const key = await createKey(store, {name: 'ci', description: 'for CI', models: 'gpt-4o', channels: 'oa', expiresIn: '30d'});
	assert.ok(key.secret.startsWith(keyPrefix));
	assert.ok(key.secret.length >= keyPrefix.length + 43, '32 random bytes, base64url');
	assert.equal(key.hash, hashSecret(key.secret));
	assert.deepEqual(key.models, ['gpt-4o']);
	assert.deepEqual(key.channels, [channel.id]);
	assert.ok(key.expiresAt && Date.parse(key.expiresAt) > Date.now() + 29 * 86_400_000);
	await assert.rejects(createKey(store, {name: 'ci'}), /exists already/);
	await assert.rejects(createKey(store, {name: 'x', channels: 'nope'}), /No channel named "nope"/);

	await store.close();
	store = await Store.open(home);
	const again = await findKey(store, 'ci');
	assert.deepEqual(again, key);
	assert.equal((await findKey(store, key.id)).name, 'ci');

	const rotated = await rotateKey(store, 'ci');
	assert.notEqual(rotated.secret, key.secret);
	assert.deepEqual({...rotated, secret: '', hash: ''}, {...key, secret: '', hash: ''});
	const revoked = await revokeKey(store, 'ci');
	assert.ok(revoked.revokedAt);
	await deleteKey(store, 'ci');
	assert.deepEqual(await listKeys(store), []);
	await assert.rejects(findKey(store, 'ci'), UserError);
	await store.close();
	rmSync(home, {recursive: true});
});

test('channels: add, edit, enable/disable, remove; real key only masked in views', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	const channel = await addChannel(store, {name: 'claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com/', apiKey: 'sk-ant-secret-abcdef', models: 'sonnet=claude-sonnet-4-6', priority: '5'});
	assert.equal(channel.baseUrl, 'https://api.anthropic.com');
	assert.deepEqual(channel.models, [{name: 'sonnet', upstream: 'claude-sonnet-4-6'}]);
	assert.equal(channel.priority, 5);
	assert.equal(channelView(channel).apiKey, 'sk-…cdef');
	assert.ok(!JSON.stringify(channelView(channel)).includes('secret-abcdef'));
	assert.equal(maskSecret(null), '(none)');
	await assert.rejects(addChannel(store, {name: 'claude', format: 'anthropic', baseUrl: 'https://x.test', models: 'a'}), /exists already/);
	await assert.rejects(addChannel(store, {name: 'b', format: 'cohere', baseUrl: 'https://x.test', models: 'a'}), /Unknown format "cohere"/);
	await assert.rejects(addChannel(store, {name: 'b', format: 'openai', baseUrl: 'file:///etc', models: 'a'}), /http/);
	await assert.rejects(addChannel(store, {name: 'b', format: 'openai', baseUrl: 'https://x.test', models: ''}), /empty/);
	const local = await addChannel(store, {name: 'ollama', format: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', models: 'llama3'});
	assert.equal(local.apiKey, null);

	const edited = await editChannel(store, 'claude', {models: 'sonnet,haiku', priority: '1'});
	assert.deepEqual(edited.models.map(model => model.name), ['sonnet', 'haiku']);
	assert.equal(edited.apiKey, 'sk-ant-secret-abcdef', 'untouched fields stay');
	assert.equal((await setChannelEnabled(store, 'claude', false)).enabled, false);
	assert.equal((await findChannel(store, channel.id)).enabled, false);
	await removeChannel(store, 'claude');
	assert.deepEqual((await listChannels(store)).map(item => item.name), ['ollama']);
	await store.close();
	rmSync(home, {recursive: true});
});

test('store files: directory 0700, database 0600', async () => {
	const home = join(tempHome(), 'nested');
	const store = await Store.open(home);
	await createKey(store, {name: 'k'});
	assert.equal(statSync(home).mode & 0o777, 0o700);
	assert.equal(statSync(store.file).mode & 0o777, 0o600);
	await store.close();
});

test('an unreadable store is an error naming the file, and the file is left untouched', async () => {
	const home = tempHome();
	const file = join(home, 'gateway.sqlite');
	const garbage = 'this is not a database '.repeat(50);
	writeFileSync(file, garbage);
	await assert.rejects(Store.open(home), (error: unknown) => error instanceof StoreError && error.message.includes(file));
	assert.equal(readFileSync(file, 'utf8'), garbage);
});

test('an invalid record is a clear error, never silently dropped', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	const key = await createKey(store, {name: 'k'});
	await store.raw('keys').set(key.id, {...key, hash: 'nope'});
	await assert.rejects(listKeys(store), (error: unknown) => error instanceof StoreError && /key "key_[0-9a-f]+" in the store is not valid \(hash/.test(error.message));
	await store.close();
});

test('every key write changes the store revision', async () => {
	const store = await Store.open(tempHome());
	const before = await store.revision();
	await createKey(store, {name: 'k'});
	const after = await store.revision();
	assert.notEqual(before, after);
	await keys(store).list();
	assert.equal(await store.revision(), after, 'reads do not change it');
	await store.close();
});
