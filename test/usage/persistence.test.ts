/**
 * Records and totals survive a restart; a `kill -9` of a running `serve` loses at most the last
 * flush window (about a second), and the next gateway goes on counting from what was saved.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import type {ChildProcess} from 'node:child_process';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, tempHome} from '../helpers/gateway.js';
import {eventually, openaiClient} from '../helpers/sdks.js';
import {startServe, stopChild} from '../helpers/cli.js';
import {Store} from '../../source/store/index.js';
import {journals} from '../../source/store/usage.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {recentRequests, usageSummary} from '../../source/store/usage-summary.js';

let fake: FakeProvider;

before(async () => {
	fake = await startFakeProvider('openai');
});
after(async () => {
	await fake.close();
});

async function ask(url: string, secret: string, times: number): Promise<void> {
	const client = openaiClient(url, secret);
	for (let i = 0; i < times; i++) await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: `question ${i}`}]});
}

async function inStore<T>(home: string, read: (store: Store) => Promise<T>): Promise<T> {
	const store = await Store.open(home);
	try {
		return await read(store);
	} finally {
		await store.close();
	}
}

test('a restart keeps records and totals; the restarted gateway adds to them (one journal, adopted)', async () => {
	const home = tempHome();
	try {
		let gateway = await startTestGateway({home});
		await gateway.addProvider(fake, {name: 'oa'});
		const key = await gateway.createKey({name: 'restart'});
		await ask(gateway.url, key.secret, 3);
		await gateway.close();

		gateway = await startTestGateway({home});
		assert.equal((await recentRequests(gateway.store, 100)).length, 3);
		const [first] = await usageSummary(gateway.store, {by: 'key'});
		assert.deepEqual([first!.group, first!.requests, first!.inputTokens, first!.outputTokens], ['restart', 3, 33, 21]);
		await ask(gateway.url, key.secret, 2);
		await gateway.close();

		await inStore(home, async store => {
			const [row] = await usageSummary(store, {by: 'key'});
			assert.deepEqual([row!.requests, row!.inputTokens, row!.outputTokens], [5, 55, 35]);
			assert.equal((await recentRequests(store, 100)).length, 5);
			assert.equal((await journals(store).list()).length, 1, 'the second gateway adopted the first one\'s instance');
		});
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

function killHard(child: ChildProcess): Promise<void> {
	return new Promise(resolve => {
		child.once('close', () => resolve());
		child.kill('SIGKILL');
	});
}

test('kill -9 of serve loses at most the last flush window; the next serve counts on', async () => {
	const home = tempHome();
	const env = {GATEWAY_TUI_HOME: home};
	try {
		const secret = await inStore(home, async store => {
			await addChannel(store, {name: 'oa', format: 'openai', baseUrl: fake.url, apiKey: fake.apiKey, models: 'gpt-4o-mini'});
			return (await createKey(store, {name: 'crash'})).secret;
		});
		const serve = await startServe(['--port', '0'], env);
		await ask(serve.url, secret, 3);
		// serve is a real child process, so its flush timer runs on the wall clock: rather than sleep
		// past an interval, watch its store until a flush has saved the first three (records and totals).
		await inStore(home, store => eventually(async () => (await recentRequests(store, 100)).length === 3 && (await usageSummary(store, {by: 'key'}))[0]?.requests === 3, 5000, 'a flush of the first three requests'));
		await ask(serve.url, secret, 2); // inside the last window: may or may not be saved
		await killHard(serve.child);

		const saved = await inStore(home, async store => ({records: await recentRequests(store, 100), rows: await usageSummary(store, {by: 'key'})}));
		assert.ok(saved.records.length >= 3 && saved.records.length <= 5, `${saved.records.length} records survived`);
		// Records and totals are separate writes of one flush: each loses at most the last window.
		const savedTotal = saved.rows[0]!.requests;
		assert.ok(savedTotal >= 3 && savedTotal <= 5, `${savedTotal} requests in the totals`);
		assert.deepEqual(
			saved.records.slice(0, 3).map(record => [record.keyName, record.status, record.usage?.inputTokens]),
			[['crash', 200, 11], ['crash', 200, 11], ['crash', 200, 11]],
		);

		const again = await startServe(['--port', '0'], env);
		await ask(again.url, secret, 1);
		assert.equal(await stopChild(again.child), 0);
		await inStore(home, async store => {
			const [row] = await usageSummary(store, {by: 'key'});
			assert.equal(row!.requests, savedTotal + 1);
			assert.equal((await recentRequests(store, 100)).length, saved.records.length + 1);
			const all = await journals(store).list();
			assert.equal(all.length, 2, 'a crashed instance is never adopted');
			assert.equal(all.filter(journal => journal.closedAt !== null).length, 1);
		});
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});
