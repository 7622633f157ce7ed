/**
 * The one-step private file write shared by the master key file and the code cache
 * (source/base/atomic-write.ts): 0600 in a 0700 directory it makes, a replacement in one rename, and
 * no temporary file left behind when the write fails.
 */
import assert from 'node:assert/strict';
import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {writeFileAtomically} from '../../source/base/atomic-write.js';

const base = mkdtempSync(join(tmpdir(), 'gateway-tui-atomic-'));
after(() => rmSync(base, {recursive: true, force: true}));

test('a new file is 0600 in a 0700 directory made for it; a second write replaces it whole', {skip: process.platform === 'win32' ? 'POSIX modes' : false}, () => {
	const file = join(base, 'made', 'deeper', 'file.bin');
	writeFileAtomically(file, 'first');
	assert.equal(readFileSync(file, 'utf8'), 'first');
	assert.equal(statSync(file).mode & 0o777, 0o600);
	assert.equal(statSync(join(base, 'made', 'deeper')).mode & 0o777, 0o700);
	writeFileSync(file, 'widened', {mode: 0o644});
	writeFileAtomically(file, Buffer.from('second'));
	assert.equal(readFileSync(file, 'utf8'), 'second');
	assert.equal(statSync(file).mode & 0o777, 0o600);
	assert.deepEqual(readdirSync(join(base, 'made', 'deeper')), ['file.bin']);
});

test('a write that fails throws and leaves no temporary file', () => {
	const dir = join(base, 'failing');
	mkdirSync(join(dir, 'taken'), {recursive: true});
	writeFileSync(join(dir, 'taken', 'inside'), '');
	// A directory that is not empty cannot be renamed over.
	assert.throws(() => writeFileAtomically(join(dir, 'taken'), 'text'));
	assert.deepEqual(readdirSync(dir), ['taken']);
});
