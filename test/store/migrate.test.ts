/**
 * `store migrate`: sqlite → Redis → PostgreSQL → sqlite loses nothing, in any namespace; a target
 * that already holds keys or channels is refused unless forced.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {namespaces, Store, StoreError} from '../../source/store/index.js';
import {migrateStore, migratedNamespaces} from '../../source/store/migrate.js';
import {createKey} from '../../source/services/keys.js';
import {addChannel} from '../../source/services/channels.js';
import {recordLastUsed} from '../../source/store/keys.js';
import {chunks, chunkId, dayId, dayTotals, journals} from '../../source/store/usage.js';
import {newJournal} from '../../source/store/usage-instance.js';
import {publishedHealth, publishedHealthKey, readPublishedHealth} from '../../source/store/published-health.js';
import {storeKinds, tempDir} from './stores.js';
import {writeTurns} from '../../source/store/responses.js';

const {kinds} = storeKinds();
const [sqlite, redis, postgres] = kinds as [(typeof kinds)[number], (typeof kinds)[number], (typeof kinds)[number]];

type Dump = Record<string, Array<[string, unknown]>>;

async function dump(store: Store): Promise<Dump> {
	const out: Dump = {};
	for (const namespace of namespaces) {
		const rows: Array<[string, unknown]> = [];
		for await (const [id, value] of store.raw(namespace).iterator!(undefined)) if (!(namespace === 'meta' && (id === 'revision' || String(id).startsWith('health:')))) rows.push([String(id), value]);
		out[namespace] = rows.sort(([a], [b]) => a.localeCompare(b));
	}
	return out;
}

async function fill(store: Store): Promise<void> {
	await addChannel(store, {name: 'oa', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-real-1234567890abcdef', models: 'gpt-4o,gpt-4o-mini', prices: 'gpt-4o=2.5/10'});
	await addChannel(store, {name: 'claude', format: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant-abcdef', models: 'sonnet=claude-sonnet-4-6'});
	const key = await createKey(store, {name: 'laptop', rpm: '60', budget: '20/month'});
	await createKey(store, {name: 'ci', models: 'gpt-4o', expiresIn: '30d'});
	await recordLastUsed(store, new Map([[key.id, '2025-01-02T03:04:05.000Z']]));
	const journal = {...newJournal('owner-1'), closedAt: '2025-01-02T10:00:00.000Z', nextSeq: 1, days: ['2025-01-02']};
	await chunks(store).set(chunkId(journal.instance, 0), {v: 1, instance: journal.instance, seq: 0, records: []});
	await dayTotals(store).set(dayId(journal.instance, '2025-01-02'), {v: 1, instance: journal.instance, day: '2025-01-02', buckets: []});
	await journals(store).set(journal.instance, journal);
	await publishedHealth(store).set(publishedHealthKey('gw1'), {v: 1, updatedAt: '2025-01-02T10:00:00.000Z', pid: 1, channels: {}});
	await writeTurns(store, [{id: 'resp_1', keyId: key.id, createdAt: Date.parse('2025-01-02T10:00:00.000Z'), chain: [], input: [{type: 'message', role: 'user', content: 'hi'}], response: {id: 'resp_1', object: 'response'}}]);
}

test('every namespace is migrated', () => {
	assert.deepEqual([...migratedNamespaces].sort(), [...namespaces].sort());
});

test('sqlite → redis → postgres → sqlite: nothing lost', {skip: redis.skip || postgres.skip}, async () => {
	const urls = [await sqlite.freshUrl(), await redis.freshUrl(), await postgres.freshUrl(), await sqlite.freshUrl()];
	const stores = await Promise.all(urls.map(url => Store.open(url, {home: tempDir()})));
	// Closed whatever happens: an open Redis or PostgreSQL connection would keep a failed run from ending.
	try {
		await fill(stores[0]!);
		const original = await dump(stores[0]!);
		assert.equal(original.keys!.length, 2);
		for (let step = 0; step < 3; step++) {
			const counts = await migrateStore(stores[step]!, stores[step + 1]!);
			assert.deepEqual(counts, {channels: 2, keys: 2, activity: 1, requests: 1, usage: 1, 'usage-months': 0, 'usage-months-merged': 0, journals: 1, responses: 1, 'response-index': 1, meta: 0}, 'the source\'s channel health is its running gateways\', not copied');
			assert.deepEqual(await readPublishedHealth(stores[step + 1]!, Date.parse('2025-01-02T10:00:30.000Z')), []);
			assert.deepEqual(await dump(stores[step + 1]!), original, `after copying into ${stores[step + 1]!.kind}`);
			assert.notEqual(await stores[step + 1]!.revision(), '', 'the target revision is bumped, so running gateways reload');
		}
	} finally {
		await Promise.all(stores.map(store => store.close()));
	}
});

for (const kind of kinds) {
	test(`${kind.name}: a target with keys or channels is refused unless forced`, {skip: kind.skip}, async () => {
		const from = await Store.open(await sqlite.freshUrl(), {home: tempDir()});
		const to = await Store.open(await kind.freshUrl(), {home: tempDir()});
		try {
			await fill(from);
			await createKey(to, {name: 'theirs'});
			const before = await dump(to);
			await assert.rejects(migrateStore(from, to), (error: unknown) => error instanceof StoreError && /already holds 1 key and 0 channels; nothing was copied\. Run again with --force/.test(error.message));
			assert.deepEqual(await dump(to), before, 'nothing was written');
			await migrateStore(from, to, {force: true});
			const after = await dump(to);
			assert.deepEqual(after.keys!.length, 3, 'copied over, the target\'s own key kept');
			await assert.rejects(migrateStore(from, from), /--from and --to are the same store/);
		} finally {
			await Promise.all([from.close(), to.close()]);
		}
	});
}
