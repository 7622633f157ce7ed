/**
 * The same store behaviour on sqlite, Redis and PostgreSQL: records round-trip through the real
 * services, invalid records are refused on read, the revision changes on every change, and two
 * stores opened on one database (two gateways, two machines) see each other's writes at once.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import * as z from 'zod/mini';
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
	test(`${kind.name}: setMany and deleteMany; a delete does not read the value it deletes (pruning a 100 KB usage chunk read it back whole)`, {skip: kind.skip}, async () => {
		const store = await Store.open(await kind.freshUrl(), {home: tempDir()});
		const entry = z.object({text: z.string()});
		const requests = store.collection('requests', entry, 'entry');
		await requests.set('big', {text: 'x'.repeat(200_000)});
		await requests.set('other', {text: 'kept'});
		// What the database hands back while deleting: sqlite's and PostgreSQL's adapters answer in rows
		// (Redis's DEL answers with a count, so it has nothing to watch).
		const adapter = (store.raw('requests') as unknown as {store: {query?: (...args: unknown[]) => Promise<unknown>}}).store;
		const returned: string[] = [];
		let watching = true;
		if (adapter.query) {
			const query = adapter.query.bind(adapter);
			adapter.query = async (...args: unknown[]) => {
				const rows = await query(...args);
				if (watching) returned.push(JSON.stringify(rows));
				return rows;
			};
		}
		assert.equal(await requests.delete('big'), true);
		assert.equal(await requests.delete('big'), false, 'a second delete finds nothing');
		assert.equal(await store.raw('requests').delete(['other', 'missing']), true, 'deleting several at once');
		assert.equal(await store.raw('requests').delete(['other']), false);
		watching = false;
		assert.deepEqual(await requests.list(), []);
		await requests.setMany(Array.from({length: 600}, (_, n) => [`m${n}`, {text: `v${n}`}] as const), 'a batch');
		await requests.setMany([['m0', {text: 'replaced'}]], 'a batch');
		const many = await requests.entries();
		assert.equal(many.length, 600, 'setMany wrote every entry (two statements on sqlite: 500 rows each at most)');
		assert.deepEqual(many.find(([id]) => id === 'm0')?.[1], {text: 'replaced'}, 'setMany replaces an existing entry');
		assert.equal(await requests.deleteMany(many.map(([id]) => id), 'the batch'), true);
		assert.deepEqual(await requests.list(), []);
		if (kind.name !== 'redis') assert.ok(returned.length > 0, 'the adapter was watched');
		for (const rows of returned) assert.ok(rows.length < 1000, `a delete read ${rows.length} bytes back`);
		await store.close();
	});
}
