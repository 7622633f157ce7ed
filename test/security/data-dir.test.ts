/** The data directory is private: created 0700, and tightened to 0700 when it already existed wider. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {chmodSync, mkdirSync, mkdtempSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {Store} from '../../source/store/index.js';

test('an existing 0755 data directory is tightened to 0700, the store file is 0600', async () => {
	const root = mkdtempSync(join(tmpdir(), 'gateway-dir-'));
	const home = join(root, 'home');
	mkdirSync(home, {mode: 0o755});
	chmodSync(home, 0o755);
	try {
		const store = await Store.open(home);
		await store.close();
		assert.equal(statSync(home).mode & 0o777, 0o700);
		assert.equal(statSync(join(home, 'gateway.sqlite')).mode & 0o777, 0o600);
		assert.deepEqual(store.warnings, []);
	} finally {
		rmSync(root, {recursive: true, force: true});
	}
});

test('a directory named with --store is left as the user set it', async () => {
	const shared = mkdtempSync(join(tmpdir(), 'gateway-shared-'));
	chmodSync(shared, 0o755);
	try {
		const store = await Store.open(`sqlite://${join(shared, 'team.sqlite')}`);
		await store.close();
		assert.equal(statSync(shared).mode & 0o777, 0o755);
	} finally {
		rmSync(shared, {recursive: true, force: true});
	}
});
