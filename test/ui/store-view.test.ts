/**
 * The TUI's view of the store: finished requests refresh only the keys' last-used times (keys and
 * channels, secrets unsealed, are read again only when the store's revision changes or the TUI acts).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {Store} from '../../source/store/index.js';
import {EventBus, type RequestBatch} from '../../source/base/events.js';
import {createKey, deleteKey} from '../../source/services/keys.js';
import {addChannel} from '../../source/services/channels.js';
import {lastUsed, listKeys, recordLastUsed} from '../../source/store/keys.js';
import {createStoreView, type StoreView} from '../../source/ui/store-view.js';
import {tempHome} from '../helpers/gateway.js';

const batch: RequestBatch = {recent: [], count: 1, failed: 0};

async function until(check: () => boolean, what: string): Promise<void> {
	for (let i = 0; i < 200 && !check(); i++) await new Promise(resolve => setTimeout(resolve, 10));
	assert.ok(check(), what);
}

/** `run` over a store in a new home, closed and removed after. */
async function withTempStore(run: (store: Store) => Promise<void>): Promise<void> {
	const home = tempHome();
	const store = await Store.open(home);
	try {
		await run(store);
	} finally {
		await store.close();
		rmSync(home, {recursive: true, force: true});
	}
}

/** `run` while the view is watched (as a pane does), unwatched after. */
async function whileWatched(view: StoreView, run: () => Promise<void>): Promise<void> {
	const off = view.snapshot.subscribe(() => {});
	try {
		await run();
	} finally {
		off();
	}
}

test('finished requests refresh the last-used times only; a store change reads keys and channels again', () =>
	withTempStore(async store => {
		await addChannel(store, {name: 'oa', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-real-1234567890abcdef', models: 'gpt-4o'});
		const laptop = await createKey(store, {name: 'laptop'});
		const events = new EventBus();
		const view = createStoreView(store, events, {activityDelayMs: 5});
		await whileWatched(view, async () => {
			await until(() => view.snapshot.current.loaded, 'the first load');
			const first = view.snapshot.current;
			assert.deepEqual(first.keys.map(key => key.name), ['laptop']);
			assert.equal(first.lastUsed.size, 0);

			const at = '2026-11-24T09:00:00.000Z';
			await recordLastUsed(store, new Map([[laptop.id, at]]));
			events.emit('requests:batch', batch);
			await until(() => view.snapshot.current.lastUsed.get(laptop.id) === at, 'the last-used time after a batch');
			// The same arrays: keys and channels were not read (nor their secrets opened) for it.
			assert.equal(view.snapshot.current.keys, first.keys);
			assert.equal(view.snapshot.current.channels, first.channels);

			// Another process adds a key: the registry announces the new revision.
			await createKey(store, {name: 'ci'});
			events.emit('store:changed', {revision: 'r2'});
			await until(() => view.snapshot.current.keys.length === 2, 'the new key after store:changed');
			assert.notEqual(view.snapshot.current.channels, first.channels);
			assert.equal(view.snapshot.current.lastUsed.get(laptop.id), at);
		});
	}));

test('lastUsed reads the activity namespace: every key with a time, a deleted key gone', () =>
	withTempStore(async store => {
		const a = await createKey(store, {name: 'a'});
		const b = await createKey(store, {name: 'b'});
		await createKey(store, {name: 'never-used'});
		await recordLastUsed(store, new Map([[a.id, '2026-11-24T08:00:00.000Z'], [b.id, '2026-11-24T09:00:00.000Z']]));
		assert.deepEqual(
			[...(await lastUsed(store))].sort(),
			[
				[a.id, '2026-11-24T08:00:00.000Z'],
				[b.id, '2026-11-24T09:00:00.000Z'],
			].sort(),
		);
		await deleteKey(store, 'b');
		assert.deepEqual([...(await lastUsed(store))], [[a.id, '2026-11-24T08:00:00.000Z']]);
	}));

test('a view given the keys and channels already read starts loaded with them, and reads the store once watched', () =>
	withTempStore(async store => {
		const laptop = await createKey(store, {name: 'laptop'});
		const at = '2026-11-27T09:00:00.000Z';
		await recordLastUsed(store, new Map([[laptop.id, at]]));
		const view = createStoreView(store, new EventBus(), {initial: {keys: await listKeys(store), channels: [], lastUsed: await lastUsed(store)}});
		assert.equal(view.snapshot.current.loaded, true);
		assert.deepEqual(view.snapshot.current.keys.map(key => key.name), ['laptop']);
		assert.equal(view.snapshot.current.lastUsed.get(laptop.id), at);
		// Changed between the first read and the view being shown: the view's own read catches it.
		await createKey(store, {name: 'ci'});
		await whileWatched(view, async () => {
			await until(() => view.snapshot.current.keys.length === 2, 'the store read once the view is watched');
			assert.equal(view.snapshot.current.lastUsed.get(laptop.id), at);
		});
	}));

test('a view whose polling is known late (the core starting) polls once it is known, and not at all when a gateway serves here', () =>
	withTempStore(async store => {
		await createKey(store, {name: 'laptop'});
		let pollEvery!: (ms: number | undefined) => void;
		const polled = createStoreView(store, new EventBus(), {pollMs: new Promise(resolve => (pollEvery = resolve))});
		let noPolling!: (ms: number | undefined) => void;
		const announced = createStoreView(store, new EventBus(), {pollMs: new Promise(resolve => (noPolling = resolve))});
		await whileWatched(polled, () =>
			whileWatched(announced, async () => {
				await until(() => polled.snapshot.current.keys.length === 1 && announced.snapshot.current.keys.length === 1, 'the first loads');
				// Another process adds a key; no registry here announces it.
				await createKey(store, {name: 'ci'});
				await new Promise(resolve => setTimeout(resolve, 100));
				assert.equal(polled.snapshot.current.keys.length, 1, 'not polled before it is known');
				pollEvery(10);
				noPolling(undefined);
				await until(() => polled.snapshot.current.keys.length === 2, 'the new key, polled');
				await new Promise(resolve => setTimeout(resolve, 100));
				assert.equal(announced.snapshot.current.keys.length, 1, 'a view whose gateway announces changes does not poll');
			}),
		);
	}));
