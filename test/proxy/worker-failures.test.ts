/**
 * A gateway that cannot start stops what it had started and closes its store before it reports why.
 * Under the TUI that matters twice over: the core runs in a worker thread, and a worker that ended
 * with a store call still in flight took the whole process down with it (node-sqlite3's callback
 * throwing into a thread being torn down: `FATAL ERROR: Error::ThrowAsJavaScriptException`, SIGABRT),
 * so a store sealed with another master key killed `gateway-tui` with a native stack trace instead
 * of saying which key to give it.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, rmSync} from 'node:fs';
import {createServer, type AddressInfo} from 'node:net';
import {join} from 'node:path';
import {Store} from '../../source/store/index.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {startCoreWorker} from '../../source/proxy/worker-host.js';
import {startGateway} from '../../source/proxy/gateway.js';
import {UserError} from '../../source/base/errors.js';
import {EventBus} from '../../source/base/events.js';
import {crashText} from '../../source/base/close-on-crash.js';
import {tempHome} from '../helpers/gateway.js';
import {assertAllStored, crashHome, faultFile, trafficUntil} from '../helpers/crash-traffic.js';

const otherKey = 'a passphrase that did not seal this store';

/** A store with a channel and a key sealed with the suite's master key. */
async function sealedHome(): Promise<string> {
	const home = tempHome();
	const store = await Store.open(home, {home});
	await addChannel(store, {name: 'up', format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-real-key-sealed-0123456789', models: 'm'});
	await createKey(store, {name: 'tui'});
	await store.close();
	return home;
}

/** Run with GATEWAY_TUI_MASTER_KEY set to another key than the one that sealed the store. */
async function withOtherMasterKey<T>(run: () => Promise<T>): Promise<T> {
	const before = process.env.GATEWAY_TUI_MASTER_KEY;
	process.env.GATEWAY_TUI_MASTER_KEY = otherKey;
	try {
		return await run();
	} finally {
		if (before === undefined) delete process.env.GATEWAY_TUI_MASTER_KEY;
		else process.env.GATEWAY_TUI_MASTER_KEY = before;
	}
}

test('the TUI’s core worker on a store sealed with another master key: a UserError saying which key, and this process lives on', async () => {
	const home = await sealedHome();
	try {
		// The worker copies this thread's environment when it is created.
		const failure = await withOtherMasterKey(() =>
			startCoreWorker({home, host: '127.0.0.1', port: 0, output: () => {}, onCrash: () => {}, loader: new URL('../helpers/ts-worker.mjs', import.meta.url)}).then(
				() => assert.fail('the core started on a store it cannot unseal'),
				(error: unknown) => error,
			),
		);
		assert.ok(failure instanceof UserError, `a UserError, not ${String(failure)}`);
		assert.match(failure.message, /sealed with another master key[\s\S]*GATEWAY_TUI_MASTER_KEY/);
		// The worker is gone and its store closed: the file opens again, and nothing is still running here.
		await new Promise(resolve => setTimeout(resolve, 200));
		const again = await Store.open(home, {home});
		await again.close();
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('a gateway that fails to start closes the store it opened, and leaves a store it was given open', async () => {
	const home = await sealedHome();
	const taken = createServer();
	await new Promise<void>(resolve => taken.listen(0, '127.0.0.1', resolve));
	const port = (taken.address() as AddressInfo).port;
	try {
		await assert.rejects(startGateway({home, host: '127.0.0.1', port}), (error: unknown) => error instanceof UserError && error.message.includes(`Port ${port} is already in use`));
		// Its own store was closed: the last connection's close folds the write-ahead log back and removes it.
		assert.equal(existsSync(join(home, 'gateway.sqlite-wal')), false, 'the store the failed gateway opened is still open');

		await withOtherMasterKey(async () => {
			await assert.rejects(startGateway({home, host: '127.0.0.1', port: 0}), /sealed with another master key/);
		});
		assert.equal(existsSync(join(home, 'gateway.sqlite-wal')), false, 'a gateway that could not unseal the store left it open');

		const store = await Store.open(home, {home});
		await withOtherMasterKey(async () => {
			await assert.rejects(startGateway({home, host: '127.0.0.1', port: 0, store}), /sealed with another master key/);
		});
		// The caller's store is the caller's to close: still usable (its sealer is the other key's now, so read what is not sealed).
		assert.notEqual(await store.revision(), '');
		await store.close();
	} finally {
		taken.close();
		rmSync(home, {recursive: true, force: true});
	}
});

test('a core that crashes while it serves: the gateway is closed first (usage flushed, store closed), then the TUI is told, and this process lives on', async () => {
	const setup = await crashHome();
	const crashes: Error[] = [];
	let crashedNow = false;
	process.env.GATEWAY_TUI_TEST_FAULT_FILE = faultFile(setup.home);
	const starting = startCoreWorker({
		home: setup.home,
		host: '127.0.0.1',
		port: 0,
		output: () => {},
		onCrash: error => {
			crashes.push(error);
			crashedNow = true;
		},
		loader: new URL('../helpers/ts-worker-fault.mjs', import.meta.url),
	});
	// The worker copied the environment when it was created.
	delete process.env.GATEWAY_TUI_TEST_FAULT_FILE;
	try {
		const core = await starting;
		// Traffic until the fault strikes: records wait for the next usage flush, store calls are in flight.
		const served = await trafficUntil(core.url, setup.secret, () => crashedNow, faultFile(setup.home));
		assert.equal(crashes[0]!.message, 'a fault injected by the test');
		// Reported as the worker's thread saw it: its stack (the fault's timer), not wrapped again here
		// ("Error: Error: …") with this thread's message handler after it.
		const text = crashText(crashes[0]);
		assert.match(text, /^Error: a fault injected by the test\n\s+at .*fault-after\.mjs/);
		assert.doesNotMatch(text, /Error: Error|MessagePort|Worker\.emit/);
		await new Promise(resolve => setTimeout(resolve, 300));
		await assertAllStored(setup.home, served);
	} finally {
		await setup.close();
	}
});

test('a reload the store refuses (a record another version wrote) is a warning, not a crash: the core answers and keeps serving', async () => {
	const setup = await crashHome();
	const crashes: Error[] = [];
	const events = new EventBus();
	const warnings: string[] = [];
	events.on('warning', ({message}) => warnings.push(message));
	const core = await startCoreWorker({home: setup.home, host: '127.0.0.1', port: 0, events, output: () => {}, onCrash: error => crashes.push(error), loader: new URL('../helpers/ts-worker.mjs', import.meta.url)});
	try {
		const store = await Store.open(setup.home, {home: setup.home});
		await store.raw('channels').set('ch_from_the_future', {id: 'ch_from_the_future', shape: 'unknown to this version'});
		await store.close();
		await core.reload();
		for (let tries = 0; tries < 100 && warnings.length === 0; tries++) await new Promise(resolve => setTimeout(resolve, 20));
		assert.match(warnings[0] ?? '', /could not reload keys and channels after a change \(channel "ch_from_the_future" in the store is not valid[\s\S]*still serving what was read before/);
		assert.deepEqual(crashes, []);
		const served = await trafficUntil(core.url, setup.secret, (() => {
			let calls = 0;
			return () => calls++ >= 40;
		})());
		assert.ok(served > 20, `the core served ${served} requests after the refused reload`);
	} finally {
		await core.close();
		await setup.close();
	}
});

test('a second close waits for the first: the core crashing while the UI shuts it down never ends the worker mid-close', async () => {
	const home = await sealedHome();
	try {
		const gateway = await startGateway({home, host: '127.0.0.1', port: 0});
		// The store's own close, counted: only once it has closed may the worker end.
		let storeClosed = false;
		const close = gateway.store.close.bind(gateway.store);
		gateway.store.close = async () => {
			await close();
			storeClosed = true;
		};
		const first = gateway.close();
		const second = gateway.close();
		await second;
		assert.equal(storeClosed, true, 'the second close answered only after the store was closed');
		await first;
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});
