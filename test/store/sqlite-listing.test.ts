/**
 * Listing a namespace of the sqlite store reads that namespace only: a range of the primary key's
 * index, page after page, never a scan of the whole table — which holds the request log's chunks
 * (~100 KB each) and the kept Responses conversations beside a handful of keys and channels.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import type KeyvSqlite from '@keyv/sqlite';
import {Store} from '../../source/store/index.js';
import {tempHome} from '../helpers/gateway.js';

type Query = (sql: string, ...parameters: unknown[]) => Promise<unknown>;

test('a namespace lists exactly its own entries, in pages, each read as a range of the key index', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	try {
		const keys = store.raw('keys');
		const ids = Array.from({length: 250}, (_, index) => `key_${String(index).padStart(3, '0')}`);
		await keys.setMany(ids.map(id => ({key: id, value: {id}})));
		// Neighbours in the same table: another namespace, one whose name starts with this one's, and
		// an upper-case look-alike (sqlite's LIKE, which the published adapter lists with, matches it).
		await store.raw('requests').set('chunk-1', {records: 'x'.repeat(100_000)});
		await store.raw('response-index').set('a', {v: 1});
		await store.raw('responses').set('a', {v: 2});
		const adapter = keys.store as KeyvSqlite & {query: Query};
		await adapter.query('INSERT INTO keyv (key, value) VALUES (?, ?)', 'KEYS:intruder', JSON.stringify({value: {id: 'intruder'}}));

		const issued: Array<{sql: string; parameters: unknown[]}> = [];
		const original = adapter.query;
		adapter.query = (sql, ...parameters) => {
			issued.push({sql, parameters});
			return original(sql, ...parameters);
		};
		const listed: string[] = [];
		for await (const [id] of keys.iterator!(undefined)) listed.push(String(id));
		adapter.query = original;

		assert.deepEqual(listed, ids, 'every key once, in order, and nothing of another namespace');
		assert.ok(issued.length >= 3, `250 entries take more than one page (${issued.length} statements)`);
		for (const {sql, parameters} of issued) {
			const plan = (await original(`EXPLAIN QUERY PLAN ${sql}`, ...parameters)) as Array<{detail: string}>;
			const details = plan.map(step => step.detail).join('; ');
			assert.match(details, /SEARCH keyv USING INDEX/, `${sql} → ${details}`);
			assert.doesNotMatch(details, /SCAN/, `${sql} → ${details}`);
		}

		const responses: string[] = [];
		for await (const [id] of store.raw('responses').iterator!(undefined)) responses.push(String(id));
		assert.deepEqual(responses, ['a'], '"responses" lists none of "response-index"');
		// Without a namespace, the adapter lists the whole table (what `store migrate` copies is per namespace).
		let all = 0;
		for await (const entry of adapter.iterator(undefined)) if (entry) all++;
		const [{rows}] = (await original('SELECT count(*) AS rows FROM keyv')) as Array<{rows: number}>;
		assert.equal(all, rows, 'every row of the table');
		assert.ok(rows >= 254);
	} finally {
		await store.close();
		rmSync(home, {recursive: true, force: true});
	}
});
