/**
 * The same store behaviour on sqlite, Redis and PostgreSQL: records round-trip through the real
 * services, invalid records are refused on read, the revision changes on every change, and two
 * stores opened on one database (two gateways, two machines) see each other's writes at once.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {z} from 'zod';
import {Store, StoreError} from '../../source/store/index.js';
import {createKey, findKey, revokeKey} from '../../source/services/keys.js';
import {addChannel, findChannel} from '../../source/services/channels.js';
import {keys, listKeys} from '../../source/store/keys.js';
import {listChannels} from '../../source/store/channels.js';
import {dayTotals, dayId} from '../../source/store/usage.js';
import {storeKinds, tempDir} from './stores.js';

const {kinds} = storeKinds();

for (const kind of kinds) {
	test(`${kind.name}: keys, channels and usage round-trip, each namespace apart`, {skip: kind.skip}, async () => {
		const url = await kind.freshUrl();
		let store = await Store.open(url, {home: tempDir()});
		assert.equal(store.kind, kind.name);
		const channel = await addChannel(store, {name: 'oa', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-real-1234567890abcdef', models: 'gpt-4o'});
		const key = await createKey(store, {name: 'ci', models: 'gpt-4o', channels: 'oa', rpm: '60'});
		const totals = {v: 1 as const, instance: 'inst_a1', day: '2025-01-02', buckets: []};
		// Ids with colons (usage ids are `<instance>:<day>`) survive keyv's and the adapter's prefixes.
		await dayTotals(store).set(dayId('inst_a1', '2025-01-02'), totals);
		await store.close();

		store = await Store.open(url, {home: tempDir()});
		assert.deepEqual(await findKey(store, 'ci'), key);
		assert.deepEqual(await findChannel(store, 'oa'), channel);
		assert.deepEqual(await listKeys(store), [key]);
		assert.deepEqual((await listChannels(store)).map(item => item.name), ['oa']);
		assert.deepEqual(await dayTotals(store).list(), [totals]);
		assert.deepEqual(await dayTotals(store).get('inst_a1:2025-01-02'), totals);
		assert.equal(await keys(store).delete(key.id), true);
		assert.equal(await keys(store).delete(key.id), false);
		assert.deepEqual(await listKeys(store), []);
		await store.close();
	});

	test(`${kind.name}: an invalid record is a clear error on read, never dropped`, {skip: kind.skip}, async () => {
		const store = await Store.open(await kind.freshUrl(), {home: tempDir()});
		const key = await createKey(store, {name: 'k'});
		await store.raw('keys').set(key.id, {...key, hash: 'nope'});
		const invalid = (error: unknown) => error instanceof StoreError && new RegExp(`key "${key.id}" in the store is not valid \\(hash`).test(error.message);
		await assert.rejects(listKeys(store), invalid);
		await assert.rejects(keys(store).get(key.id), invalid);
		await store.raw('channels').set('ch_x', {name: 42});
		await assert.rejects(listChannels(store), /channel "ch_x" in the store is not valid/);
		await store.close();
	});

	test(`${kind.name}: the revision changes with every change of keys or channels`, {skip: kind.skip}, async () => {
		const store = await Store.open(await kind.freshUrl(), {home: tempDir()});
		assert.equal(await store.revision(), '');
		await createKey(store, {name: 'k'});
		const first = await store.revision();
		assert.match(first, /^\d+-[0-9a-f-]{36}$/);
		await revokeKey(store, 'k');
		const second = await store.revision();
		assert.notEqual(second, first);
		await store.bumpRevision();
		assert.notEqual(await store.revision(), second);
		await store.close();
	});

	test(`${kind.name}: two stores on one database see each other's writes and revisions at once`, {skip: kind.skip}, async () => {
		const url = await kind.freshUrl();
		const [a, b] = [await Store.open(url, {home: tempDir()}), await Store.open(url, {home: tempDir()})];
		const key = await createKey(a, {name: 'shared'});
		assert.equal(await b.revision(), await a.revision());
		assert.deepEqual(await findKey(b, 'shared'), key);
		await revokeKey(b, 'shared');
		assert.ok((await findKey(a, 'shared')).revokedAt, 'a revoke through b is seen by a');
		assert.equal(await a.revision(), await b.revision());
		const seen = z.object({n: z.number()});
		await Promise.all(Array.from({length: 20}, (_, n) => (n % 2 ? a : b).collection('requests', seen, 'entry').set(`e${n}`, {n})));
		const listed = (await a.collection('requests', seen, 'entry').list()).map(item => item.n).sort((x, y) => x - y);
		assert.deepEqual(listed, Array.from({length: 20}, (_, n) => n));
		// Closing one store leaves the other working (the pools and clients are per store).
		await a.close();
		assert.equal((await findKey(b, 'shared')).name, 'shared');
		await b.close();
	});
}
