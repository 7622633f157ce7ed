/**
 * The TUI's core posts its batches when something happened, and otherwise only when its outbox has
 * something due: an idle core sleeps (it flushed ten times a second on an interval, posting nothing).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {BatchPacer} from '../../source/proxy/batch-pacer.js';
import {WorkerOutbox} from '../../source/proxy/worker-outbox.js';
import type {CoreMessage} from '../../source/proxy/worker-protocol.js';
import type {RequestFinished} from '../../source/base/events.js';

const minute = 60_000;

/** Node 20's mock timers run a tick's timers at the tick's end time: advance in steps of 10 ms, as time passes. */
function advance(t: {mock: {timers: {tick(ms: number): void}}}, ms: number): void {
	for (let left = ms; left > 0; left -= 10) t.mock.timers.tick(Math.min(10, left));
}

function paced(due: (now: number) => number) {
	const flushes: number[] = [];
	const pacer = new BatchPacer(
		now => {
			flushes.push(now);
			return due(now);
		},
		100,
		() => Date.now(),
	);
	return {pacer, flushes};
}

test('idle, the pacer flushes only when the outbox says something is due: once a minute, not every 100 ms', t => {
	t.mock.timers.enable({apis: ['setTimeout', 'Date'], now: 10 * minute + 5_000});
	const {pacer, flushes} = paced(now => (Math.floor(now / minute) + 1) * minute);
	pacer.soon(); // the first batch
	advance(t, 10 * minute);
	pacer.stop();
	// The first 100 ms after start, then at each of the ten minutes' starts.
	assert.deepEqual(flushes, [10 * minute + 5_100, ...Array.from({length: 10}, (_, index) => (11 + index) * minute)]);
});

test('after something happens the pacer flushes within 100 ms, once for everything that happened meanwhile, and at most once per 100 ms', t => {
	t.mock.timers.enable({apis: ['setTimeout', 'Date'], now: 0});
	const {pacer, flushes} = paced(() => Number.POSITIVE_INFINITY);
	pacer.soon();
	advance(t, 30);
	pacer.soon();
	pacer.soon();
	advance(t, 70);
	assert.deepEqual(flushes, [100]);
	// Under load: a signal right after a flush waits for the next 100 ms.
	for (let at = 101; at <= 1000; at++) {
		pacer.soon();
		t.mock.timers.tick(1);
	}
	assert.deepEqual(flushes, [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
	advance(t, 10 * minute);
	assert.equal(flushes.length, 10, 'nothing more once nothing happens and nothing is due');
	pacer.stop();
});

test('a time the outbox gives (its traffic snapshot held back) is kept without another signal; a stopped pacer flushes no more', t => {
	t.mock.timers.enable({apis: ['setTimeout', 'Date'], now: 0});
	let due = 700;
	const {pacer, flushes} = paced(now => (now < due ? due : Number.POSITIVE_INFINITY));
	pacer.soon();
	advance(t, 1000);
	assert.deepEqual(flushes, [100, 700]);
	due = 5000;
	pacer.soon();
	advance(t, 150);
	assert.deepEqual(flushes, [100, 700, 1100]);
	pacer.stop();
	pacer.soon();
	advance(t, 10_000);
	assert.deepEqual(flushes, [100, 700, 1100]);
});

test('the outbox is due at the next minute when idle, and when its snapshot waits out the second between snapshots', () => {
	const posted: CoreMessage[] = [];
	const outbox = new WorkerOutbox(message => posted.push(message), undefined);
	const start = 100 * minute + 10_000;
	assert.equal(outbox.dueAt(start), start, 'the first snapshot is due at once');
	outbox.flush(start, 0);
	assert.equal(outbox.dueAt(start), 101 * minute, 'sent: nothing due before the next minute');
	const finished = {id: 'req_1', time: new Date(start).toISOString(), status: 200, latencyMs: 5, keyName: 'k', model: 'm', channel: 'c', inbound: 'openai', outbound: 'openai', usage: null} as unknown as RequestFinished;
	outbox.request(finished);
	assert.equal(outbox.dueAt(start + 300), start + 1000, 'a new request: the snapshot is due a second after the last one');
	outbox.flush(start + 300, 0);
	assert.equal(posted.filter(message => message.type === 'traffic').length, 1, 'held back within the second');
	outbox.flush(start + 1000, 0);
	assert.equal(posted.filter(message => message.type === 'traffic').length, 2);
	assert.equal(outbox.dueAt(start + 1000), 101 * minute);
});
