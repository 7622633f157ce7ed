/**
 * The TUI's log file gets a line per request for as long as the TUI is used: when it starts with a
 * log past the rotation size, the old log becomes `gateway-tui.log.1` (replacing the one before) and
 * a new one begins; below it, lines are appended. Both stay 0600.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {openLogFile} from '../../source/ui/log-file.js';
import {tempHome} from '../helpers/gateway.js';

test('a log past the rotation size is moved to .1 when the next run opens it; a smaller one is appended to', async () => {
	const home = tempHome();
	const path = join(home, 'gateway-tui.log');
	try {
		writeFileSync(path, 'x'.repeat(980) + '\n', {mode: 0o600});
		let log = openLogFile(home, 1000);
		log.write('info', 'second run');
		await log.close();
		assert.equal(existsSync(`${path}.1`), false, 'under the size: no rotation');
		assert.match(readFileSync(path, 'utf8'), /^x{980}\n\S+ info second run\n$/);

		log = openLogFile(home, 1000);
		log.write('info', 'third run');
		await log.close();
		assert.match(readFileSync(`${path}.1`, 'utf8'), /second run\n$/, 'the old log, whole');
		assert.match(readFileSync(path, 'utf8'), /^\S+ info third run\n$/, 'a new log');
		writeFileSync(path, 'y'.repeat(2000), {flag: 'a'});

		log = openLogFile(home, 1000);
		await log.close();
		assert.match(readFileSync(`${path}.1`, 'utf8'), /third run\ny{2000}$/, 'one old generation kept: the previous .1 is replaced');
		for (const file of [path, `${path}.1`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});
