/**
 * The count of requests whose record is not out yet, which a stopping gateway waits on (bounded):
 * it resolves as the last one closes, at once when none is open, and after its bound with how many
 * are still open — a relay that never lets go must not hold the stop.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {OpenExchanges} from '../../source/proxy/exchange.js';

test('settled resolves when the last open exchange closes, with none left', {timeout: 5000}, async () => {
	const open = new OpenExchanges();
	open.opened();
	open.opened();
	let settled: number | null = null;
	// A bound past the test's timeout: only the last close can end this wait.
	const waiting = open.settled(60_000).then(left => (settled = left));
	open.closed();
	await new Promise(resolve => setImmediate(resolve));
	assert.equal(settled, null, 'one is still open');
	open.closed();
	assert.equal(await waiting, 0);
	assert.equal(open.size, 0);
});

test('settled answers at once when none is open, and after its bound with how many are still open', async () => {
	const open = new OpenExchanges();
	assert.equal(await open.settled(10_000), 0);
	open.opened();
	open.opened();
	open.closed();
	// One is still open: only the bound can end this wait.
	assert.equal(await open.settled(30), 1);
	// A later close after the bound changes nothing of the past wait, and a new wait sees it.
	open.closed();
	assert.equal(await open.settled(10_000), 0);
});
