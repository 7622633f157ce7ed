/**
 * The UI thread's memory trim, as run.tsx wires it: every way requests reach the UI — one at a time
 * (a gateway on this thread), in the core worker's batches, read from the store (other gateways) —
 * restarts its quiet period; it collects once that has passed, and not after it is stopped. (The
 * trim's own rules are test/base/idle-trim.test.ts.)
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventBus, type RequestBatch, type RequestFinished} from '../../source/base/events.js';
import {trimWhenQuiet} from '../../source/ui/request-events.js';
import {FakeClock} from '../helpers/fake-clock.js';

const batch: RequestBatch = {recent: [], count: 1, failed: 0};
const arrivals: ReadonlyArray<readonly [string, (events: EventBus) => void]> = [
	['a request finished on this thread', events => events.emit('request:finished', {} as RequestFinished)],
	["a batch from the core's worker", events => events.emit('requests:batch', batch)],
	["requests other gateways stored", events => events.emit('requests:stored', batch)],
];

for (const [name, arrive] of arrivals) {
	test(`the UI thread's trim waits for quiet after ${name}`, async () => {
		const clock = new FakeClock();
		const events = new EventBus();
		let collections = 0;
		const stop = trimWhenQuiet(events, {clock, collect: () => collections++, quietMs: 5_000, secondPassMs: 6_000});
		// Traffic every 2 s for 20 s: never quiet long enough.
		for (let second = 0; second < 20; second += 2) {
			arrive(events);
			await clock.advance(2_000);
		}
		assert.equal(collections, 0, 'no collection while requests keep arriving');
		await clock.advance(5_000);
		assert.equal(collections, 1, 'one once they have stopped for the quiet period');
		await clock.advance(6_000);
		assert.equal(collections, 2, 'and the second pass');
		arrive(events);
		stop();
		await clock.advance(60_000);
		assert.equal(collections, 2, 'nothing once stopped');
	});
}
