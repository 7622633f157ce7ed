/**
 * A store that stops answering the registry's poll (twice a second) is reported once when the
 * outage starts — what failed, that the gateway keeps serving with what it read last, what to do —
 * and once when it answers again; never once per poll.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {EventBus} from '../../source/base/events.js';
import {Store, StoreError} from '../../source/store/index.js';
import {Registry} from '../../source/proxy/registry.js';
import {tempHome} from '../helpers/gateway.js';

const until = async (ready: () => boolean, withinMs = 5000) => {
	const deadline = Date.now() + withinMs;
	while (!ready()) {
		if (Date.now() > deadline) throw new Error('timed out');
		await new Promise(resolve => setTimeout(resolve, 10));
	}
};

test('a store outage is logged once when it starts and once when it ends', async () => {
	const home = tempHome();
	const store = await Store.open(home, {home});
	const events = new EventBus();
	const warnings: string[] = [];
	events.on('warning', ({message}) => warnings.push(message));
	const registry = new Registry(store, events, 10);
	const revision = store.revision.bind(store);
	let polls = 0;
	try {
		await registry.start();
		store.revision = async () => {
			polls++;
			throw new StoreError(`The store redis://:****@127.0.0.1:6390/0 failed while reading the revision (connect ECONNREFUSED 127.0.0.1:6390). Check that the Redis server is running and reachable, then try again.`);
		};
		// Many polls fail (every 10 ms here); one line says so.
		await until(() => polls >= 20);
		assert.equal(warnings.length, 1, warnings.join('\n'));
		assert.match(warnings[0]!, /^Could not read the store: The store redis:\/\/:\*\*\*\*@127\.0\.0\.1:6390\/0 failed while reading the revision \(connect ECONNREFUSED 127\.0\.0\.1:6390\)\. Check that the Redis server is running and reachable, then try again\. /);
		assert.match(warnings[0]!, /keeps serving with the keys and channels it read last/);
		assert.match(warnings[0]!, /not repeated while the store stays unreachable/);

		store.revision = revision;
		await until(() => warnings.length === 2);
		assert.match(warnings[1]!, /^The store can be read again \(after \d+ s without it\); keys and channels are up to date\.$/);
		await new Promise(resolve => setTimeout(resolve, 100));
		assert.equal(warnings.length, 2, 'nothing more once it answers');

		// A second outage is a new one: reported again.
		store.revision = async () => {
			throw new Error('socket closed');
		};
		await until(() => warnings.length === 3);
		assert.match(warnings[2]!, /^Could not read the store: socket closed\. Meanwhile/);
	} finally {
		store.revision = revision;
		await registry.stop();
		await store.close();
		rmSync(home, {recursive: true, force: true});
	}
});
