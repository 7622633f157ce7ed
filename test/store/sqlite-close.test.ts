/**
 * Closing the sqlite store: it waits for the statements in flight and refuses new ones, so that no
 * answer of node-sqlite3's thread pool arrives after the close — in a worker thread being torn down,
 * such an answer aborted the whole process (SIGABRT, "napi_throw"; the TUI's core, ended under traffic).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {buildSync} from 'esbuild';
import {Store} from '../../source/store/index.js';

test('close waits for every write asked for before it; a write after the close began is refused before it reaches the driver', async () => {
	const home = mkdtempSync(join(tmpdir(), 'gateway-close-'));
	try {
		const store = await Store.open(home);
		const meta = store.raw('meta');
		const settled: string[] = [];
		const writes = Array.from({length: 100}, (_, index) =>
			meta.set(`key-${index}`, {index}).then(
				() => settled.push('written'),
				() => settled.push('refused'),
			),
		);
		await store.close();
		assert.equal(settled.length, 100, 'every write had its answer when close resolved');
		assert.deepEqual(new Set(settled), new Set(['written']), 'the writes issued before the close were all written');
		await assert.rejects(meta.set('late', 1), /the store is closed: the gateway is stopping/);
		await Promise.all(writes);
		const again = await Store.open(home);
		assert.deepEqual(await again.raw('meta').get('key-99'), {index: 99});
		assert.equal(await again.raw('meta').get('late'), undefined);
		await again.close();
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('a worker thread that closes its store under writes and is ended at once does not take the process down', () => {
	const home = mkdtempSync(join(tmpdir(), 'gateway-close-worker-'));
	const caches = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
	mkdirSync(caches, {recursive: true});
	// The worker's code bundled once, as the build bundles the core's worker, its packages left to
	// node_modules (so the bundle goes in node_modules/.cache, where they resolve): forty workers
	// compiling the TypeScript through tsx took most of this test's half a minute, none of it the race.
	const cache = mkdtempSync(join(caches, 'sqlite-close-'));
	const entry = join(cache, 'late-write-worker.mjs');
	buildSync({
		entryPoints: [fileURLToPath(new URL('fixtures/late-write-worker.ts', import.meta.url))],
		outdir: cache,
		outExtension: {'.js': '.mjs'},
		// Split, as the build is: one file would import the Redis and PostgreSQL drivers up front.
		splitting: true,
		bundle: true,
		format: 'esm',
		platform: 'node',
		target: 'node20',
		packages: 'external',
		logLevel: 'warning',
	});
	// Forty workers in a row, each terminated the moment it says it closed; the late write's outcome is printed.
	const script = `
		import {Worker} from 'node:worker_threads';
		for (let run = 0; run < 40; run++) {
			const worker = new Worker(${JSON.stringify(entry)}, {workerData: {home: ${JSON.stringify(home)}}});
			const late = await new Promise((resolve, reject) => {
				let outcome = 'none';
				worker.on('message', message => {
					if (message.type === 'closed') void worker.terminate();
					if (message.type === 'late') outcome = message.outcome;
				});
				worker.on('error', reject);
				worker.on('exit', () => resolve(outcome));
			});
			if (run === 0) console.log('late write: ' + late);
		}
		console.log('all ended');
	`;
	try {
		const driver = join(home, 'driver.mjs');
		writeFileSync(driver, script);
		const child = spawnSync(process.execPath, [driver], {encoding: 'utf8', timeout: 60_000});
		assert.equal(child.signal, null, `the process was killed by ${child.signal}: ${child.stderr.slice(0, 2000)}`);
		assert.equal(child.status, 0, child.stderr.slice(0, 2000));
		assert.match(child.stdout, /all ended/);
		assert.doesNotMatch(child.stderr, /FATAL|napi/);
	} finally {
		rmSync(home, {recursive: true, force: true});
		rmSync(cache, {recursive: true, force: true});
	}
});
