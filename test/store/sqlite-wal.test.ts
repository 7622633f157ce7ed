/**
 * The sqlite store writes ahead: the file is in WAL mode and every connection commits without waiting
 * for the disk (`synchronous=NORMAL`), its -wal and -shm files are as private as the file, and a
 * process killed right after a write leaves it readable, the write included.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync, mkdtempSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type KeyvSqlite from '@keyv/sqlite';
import {Store} from '../../source/store/index.js';
import {openSqlite} from '../../source/store/backend-sqlite.js';

const adapterOf = (store: Store, namespace: 'meta' | 'usage') => store.raw(namespace).store as KeyvSqlite;

test('a new connection is set up before its first statement runs: a query sent at once sees WAL, NORMAL and the log limit', async () => {
	const home = mkdtempSync(join(tmpdir(), 'gateway-wal-first-'));
	const file = join(home, 'gateway.sqlite');
	const backend = openSqlite({kind: 'sqlite', url: `sqlite://${file}`, masked: `sqlite://${file}`, file});
	try {
		// Sent in the same turn as the connection is made, before any of its settings could have run on their own.
		for (let index = 0; index < 3; index++) {
			const adapter = backend.adapter() as KeyvSqlite;
			const [mode, synchronous, limit] = await Promise.all([adapter.query('PRAGMA journal_mode'), adapter.query('PRAGMA synchronous'), adapter.query('PRAGMA journal_size_limit')]);
			assert.deepEqual([mode, synchronous, limit], [[{journal_mode: 'wal'}], [{synchronous: 1}], [{journal_size_limit: 16 * 1024 * 1024}]], `connection ${index}`);
		}
	} finally {
		await backend.close();
		rmSync(home, {recursive: true, force: true});
	}
});

test('the sqlite file is in WAL mode with synchronous=NORMAL on every connection; -wal and -shm are 0600', async () => {
	const home = mkdtempSync(join(tmpdir(), 'gateway-wal-'));
	const mask = process.umask(0o022);
	try {
		const store = await Store.open(home);
		try {
			await store.raw('meta').set('probe', {value: 1});
			await store.raw('usage').set('probe', {value: 2});
			for (const namespace of ['meta', 'usage'] as const) {
				const adapter = adapterOf(store, namespace);
				assert.deepEqual(await adapter.query('PRAGMA journal_mode'), [{journal_mode: 'wal'}], namespace);
				// 1 is NORMAL; sqlite's default is 2 (FULL).
				assert.deepEqual(await adapter.query('PRAGMA synchronous'), [{synchronous: 1}], namespace);
				assert.deepEqual(await adapter.query('PRAGMA journal_size_limit'), [{journal_size_limit: 16 * 1024 * 1024}], namespace);
				// 2 is FAST.
				assert.deepEqual(await adapter.query('PRAGMA secure_delete'), [{secure_delete: 2}], namespace);
			}
			for (const suffix of ['', '-wal', '-shm']) {
				const file = join(home, `gateway.sqlite${suffix}`);
				assert.ok(existsSync(file), `${file} exists while the store is open`);
				assert.equal(statSync(file).mode & 0o777, 0o600, file);
			}
		} finally {
			await store.close();
		}
		// The last connection to close checkpoints the log into the file and removes it.
		assert.equal(existsSync(join(home, 'gateway.sqlite-wal')), false);
	} finally {
		process.umask(mask);
		rmSync(home, {recursive: true, force: true});
	}
});

test('a process killed (SIGKILL) right after a write leaves the store readable, the write included', async () => {
	const home = mkdtempSync(join(tmpdir(), 'gateway-wal-kill-'));
	try {
		const script = `
			const {Store} = await import(${JSON.stringify(new URL('../../source/store/index.ts', import.meta.url).href)});
			const store = await Store.open(${JSON.stringify(home)});
			for (let i = 0; i < 50; i++) await store.raw('usage').set('row-' + i, {i, text: 'x'.repeat(2000)});
			process.stdout.write('written\\n');
			setInterval(() => {}, 1000);
		`;
		const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {stdio: ['ignore', 'pipe', 'inherit']});
		await new Promise<void>((resolve, reject) => {
			child.stdout.on('data', (data: Buffer) => {
				if (String(data).includes('written')) resolve();
			});
			child.on('exit', code => reject(new Error(`the writer exited (${code}) before writing`)));
		});
		child.kill('SIGKILL');
		await new Promise(resolve => child.on('exit', resolve));
		assert.ok(existsSync(join(home, 'gateway.sqlite-wal')), 'the killed writer left its log behind');
		const store = await Store.open(home);
		try {
			const rows = await Promise.all(Array.from({length: 50}, (_, i) => store.raw('usage').get(`row-${i}`)));
			assert.deepEqual(
				rows.map(row => (row as {i: number}).i),
				Array.from({length: 50}, (_, i) => i),
			);
		} finally {
			await store.close();
		}
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('closing the store folds the log into the file: no -wal is left, however many namespaces wrote', async () => {
	// Connections closed all at once could each see another still open, and none folded the log in:
	// 6 times in 40 before they were closed one at a time.
	for (let round = 0; round < 20; round++) {
		const home = mkdtempSync(join(tmpdir(), 'gateway-wal-close-'));
		try {
			const store = await Store.open(home);
			await Promise.all((['keys', 'channels', 'meta', 'activity', 'usage', 'requests', 'journals'] as const).map(namespace => store.raw(namespace).set('probe', {text: 'x'.repeat(5000)})));
			await store.close();
			assert.equal(existsSync(join(home, 'gateway.sqlite-wal')), false, `round ${round}: the log is folded in and removed`);
		} finally {
			rmSync(home, {recursive: true, force: true});
		}
	}
});
