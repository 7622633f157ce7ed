/**
 * serve's request lines (source/cli/serve.ts `batchedLines`): a request only pushes; the lines are
 * formatted and written together, in one write per ~50 ms, and whatever is pending is written on
 * shutdown (`flush`).
 */
import {test, mock} from 'node:test';
import assert from 'node:assert/strict';
import {batchedLines} from '../../source/cli/serve.js';

test('pushing formats and writes nothing; one write per 50 ms carries every line since the last', () => {
	mock.timers.enable({apis: ['setTimeout']});
	try {
		const writes: string[] = [];
		let formatted = 0;
		const lines = batchedLines<number>(
			item => {
				formatted++;
				return `request ${item}`;
			},
			text => writes.push(text),
		);
		for (let item = 1; item <= 1000; item++) lines.push(item);
		assert.deepEqual([writes.length, formatted], [0, 0], 'a push neither formats nor writes');
		mock.timers.tick(49);
		assert.equal(writes.length, 0);
		mock.timers.tick(1);
		assert.equal(writes.length, 1);
		assert.equal(writes[0]!.split('\n').length, 1001);
		assert.ok(writes[0]!.startsWith('request 1\nrequest 2\n') && writes[0]!.endsWith('request 1000\n'));
		lines.push(1001);
		mock.timers.tick(50);
		assert.deepEqual(writes.slice(1), ['request 1001\n']);
		mock.timers.tick(500);
		assert.equal(writes.length, 2, 'no write without lines');
	} finally {
		mock.timers.reset();
	}
});

test('flush writes what is pending at once (shutdown), and the timer it replaces writes nothing again', () => {
	mock.timers.enable({apis: ['setTimeout']});
	try {
		const writes: string[] = [];
		const lines = batchedLines<string>(item => item, text => writes.push(text));
		lines.push('a');
		lines.push('b');
		lines.flush();
		assert.deepEqual(writes, ['a\nb\n']);
		mock.timers.tick(100);
		assert.deepEqual(writes, ['a\nb\n']);
	} finally {
		mock.timers.reset();
	}
});
