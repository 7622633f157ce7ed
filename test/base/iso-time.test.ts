import assert from 'node:assert/strict';
import {test} from 'node:test';
import {IsoTime} from '../../source/base/iso-time.js';

test('IsoTime writes what toISOString writes: in order, backwards, across seconds, and far from now', () => {
	const iso = new IsoTime();
	const now = Date.now();
	const times: number[] = [];
	// In order, through many second boundaries, with every width of milliseconds.
	for (let ms = now - 3_000; ms < now + 3_000; ms += 7) times.push(ms);
	times.push(now - 1, now - 1000, now + 1, 0, 999, 1000, -1, -1001, -62_198_755_200_000 /* year 0 */, 253_402_300_799_999 /* 9999-12-31T23:59:59.999Z */, 253_402_300_800_000 /* year 10000 */, 253_402_300_800_001, now, now + 0.5, now);
	// Seconds revisited after others.
	for (let index = 0; index < 200; index++) times.push(now + Math.floor(Math.sin(index) * 10_000));
	for (const ms of times) assert.equal(iso.text(ms), new Date(ms).toISOString(), String(ms));
	assert.match(iso.text(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});
