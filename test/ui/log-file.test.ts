/**
 * The TUI's log file gets a line per request for as long as the TUI is used: when it starts with a
 * log past the rotation size, or the gateway worker's writes take it past that size while it runs,
 * the old log becomes `gateway-tui.log.1` (replacing the one before) and a new one begins; below it,
 * lines are appended. Both stay 0600. Only a regular file is moved: a log linked elsewhere is
 * rotated where it lives, and one linked to what is no regular file (a FIFO, /dev/null) is never
 * moved; the test uses a FIFO, never the machine's /dev/null, which a regression would replace.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {rotateLog} from '../../source/base/log-rotation.js';
import {openLogFile} from '../../source/ui/log-file.js';
import {WorkerOutbox} from '../../source/proxy/worker-outbox.js';
import {formatRequestLine} from '../../source/base/request-line.js';
import type {RequestFinished} from '../../source/base/events.js';
import {tempHome} from '../helpers/gateway.js';
import {finished} from '../usage/events.js';

test('a log past the rotation size is moved to .1 when the next run opens it; a smaller one is appended to', async () => {
	const home = tempHome();
	const path = join(home, 'gateway-tui.log');
	try {
		writeFileSync(path, 'x'.repeat(980) + '\n', {mode: 0o600});
		let log = openLogFile(home, 1000);
		log.write('info', 'second run');
		assert.equal(existsSync(`${path}.1`), false, 'under the size: no rotation');
		assert.match(readFileSync(path, 'utf8'), /^x{980}\n\S+ info second run\n$/);

		log = openLogFile(home, 1000);
		log.write('info', 'third run');
		assert.match(readFileSync(`${path}.1`, 'utf8'), /second run\n$/, 'the old log, whole');
		assert.match(readFileSync(path, 'utf8'), /^\S+ info third run\n$/, 'a new log');
		writeFileSync(path, 'y'.repeat(2000), {flag: 'a'});

		log = openLogFile(home, 1000);
		assert.match(readFileSync(`${path}.1`, 'utf8'), /third run\ny{2000}$/, 'one old generation kept: the previous .1 is replaced');
		for (const file of [path, `${path}.1`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('while the TUI runs, the worker moves the log to .1 once its request lines take it past the size; no line is lost, and the UI thread\'s next line goes to the new log', async () => {
	const home = tempHome();
	const path = join(home, 'gateway-tui.log');
	try {
		const ui = openLogFile(home, 1_000_000);
		ui.write('info', 'started');
		const outbox = new WorkerOutbox(() => {}, path, 1000, 4000);
		let id = 0;
		// Batches of 5 request lines (about 100 bytes each) until the first rotation, then two more.
		let after = -1;
		while (after < 2 && id < 2000) {
			for (let i = 0; i < 5; i++) outbox.request(finished({model: `m_${String(++id).padStart(5, '0')}`}));
			outbox.flush();
			if (after >= 0 || existsSync(`${path}.1`)) after++;
		}
		ui.write('warning', 'after the rotation');
		await outbox.close();
		const old = readFileSync(`${path}.1`, 'utf8');
		const current = readFileSync(path, 'utf8');
		assert.ok(statSync(`${path}.1`).size > 4000 && statSync(`${path}.1`).size < 4000 + 1000, `.1 holds ${statSync(`${path}.1`).size} bytes`);
		assert.match(old, /^\S+ info started\n/, 'the log before the rotation, from its first line');
		assert.match(current, /^\S+ request .*model=m_\d{5}/m, 'the new log has the batches after the rotation');
		assert.match(current, /warning after the rotation/, 'the UI thread writes to the new log, not to .1');
		assert.doesNotMatch(old, /after the rotation/);
		const ids = [...(old + current).matchAll(/model=m_(\d{5})/g)].map(match => Number(match[1]));
		assert.deepEqual(ids, Array.from({length: id}, (_, n) => n + 1), 'every request line, in order, across the two');
		for (const file of [path, `${path}.1`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('the worker writes each batch\'s request lines as they were formatted, byte for byte: batches of one line and of thousands, names in any script', async () => {
	const home = tempHome();
	const path = join(home, 'gateway-tui.log');
	try {
		const outbox = new WorkerOutbox(() => {}, path, 1000, 100 * 1024 * 1024);
		const names = ['agent', 'équipe-café', '团队-北京', 'команда', '🤖-bot', 'a'.repeat(300)];
		const events: RequestFinished[] = [];
		// Batch sizes: one line, a few, then thousands (past the first buffer's 64 KB several times), then one again.
		for (const size of [1, 7, 3000, 1, 12_000, 2]) {
			for (let i = 0; i < size; i++) {
				// The batch of 3,000: names of 300 characters of three bytes each, a line's bytes thrice its characters.
				const event = finished({keyName: size === 3000 ? '团'.repeat(300) : names[events.length % names.length]!, model: `m_${events.length}`});
				events.push(event);
				outbox.request(event);
			}
			outbox.flush();
		}
		await outbox.close();
		const lines = readFileSync(path, 'utf8').split('\n');
		assert.equal(lines.pop(), '', 'the file ends with a line break');
		assert.equal(lines.length, events.length);
		lines.forEach((line, index) => {
			const expected = `request ${formatRequestLine(events[index]!)}`;
			assert.equal(line.slice(line.indexOf(' ') + 1), expected, `line ${index + 1}`);
			assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /);
		});
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('a log linked elsewhere is rotated where it lives, and one linked to what is no regular file (a FIFO here, as /dev/null is not one either) is never moved', async () => {
	const home = tempHome();
	const path = join(home, 'gateway-tui.log');
	try {
		// Linked to a file in another directory: the file is moved to .1 beside it, and the link stays.
		const elsewhere = join(home, 'elsewhere');
		mkdirSync(elsewhere);
		const target = join(elsewhere, 'gateway.log');
		writeFileSync(target, 'x'.repeat(2000), {mode: 0o600});
		symlinkSync(target, path);
		const log = openLogFile(home, 1000);
		log.write('info', 'after the rotation');
		assert.equal(readFileSync(`${target}.1`, 'utf8'), 'x'.repeat(2000), 'the old log, beside the file the link names');
		assert.equal(lstatSync(path).isSymbolicLink(), true, 'the link is still a link');
		assert.match(readFileSync(target, 'utf8'), /^\S+ info after the rotation\n$/, 'the new log is made through the link');
		assert.equal(existsSync(`${path}.1`), false);

		// Linked to a FIFO (a collector reading the lines; here a reader that drains it): the worker's
		// writes go past the size again and again, and nothing is renamed.
		rmSync(path);
		const fifo = join(elsewhere, 'lines.fifo');
		execFileSync('mkfifo', [fifo]);
		const reader = spawn('cat', [fifo], {stdio: ['ignore', 'pipe', 'ignore']});
		let read = '';
		reader.stdout.on('data', (chunk: Buffer) => (read += chunk));
		symlinkSync(fifo, path);
		const outbox = new WorkerOutbox(() => {}, path, 1000, 500);
		for (let batch = 0; batch < 10; batch++) {
			for (let i = 0; i < 5; i++) outbox.request(finished({model: `m_${batch}_${i}`}));
			outbox.flush();
		}
		await outbox.close();
		await new Promise(resolve => reader.once('close', resolve));
		assert.equal(lstatSync(fifo).isFIFO(), true, 'the FIFO is still a FIFO');
		assert.equal(lstatSync(path).isSymbolicLink(), true, 'the link is still a link');
		assert.equal(existsSync(`${fifo}.1`) || existsSync(`${path}.1`), false, 'nothing moved');
		assert.equal([...read.matchAll(/model=m_\d_\d/g)].length, 50, 'every line reached the reader');
		assert.equal(rotateLog(path), false, 'a log that is no file is not moved');
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});
