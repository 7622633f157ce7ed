/**
 * The TUI reads the usage totals again every few seconds. With `SettledDays`, the days three days
 * past are read once and kept merged over their hours: the rows are the same as reading every day,
 * a kept day is not read again but for two a read (so one written after all is corrected), the days
 * still written are read each time, and days retention removed are forgotten.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {dayId, dayTotals, journals} from '../../source/store/usage.js';
import {SettledDays, usageSummaries} from '../../source/store/usage-summary.js';
import {localDay, startOfToday} from '../../source/store/usage-buckets.js';
import type {UsageQuery} from '../../source/base/usage-types.js';
import {at, comparable, withHistory} from './usage-history.js';

const dayMs = 86_400_000;
const daysBack = 10;
const history = {daysBack, hours: [3, 10, 21]};
/** Days 4 to 10 back are settled (three days and more before today), in each of two instances. */
const settledPerInstance = daysBack - 3;


/** The TUI's five queries, and those that need a settled day's hours or part of it. */
function queries(): UsageQuery[] {
	const since = startOfToday();
	return [
		{by: 'key', since},
		{by: 'model', since},
		{by: 'key'},
		{by: 'model'},
		{by: 'hour', since: new Date(Date.now() - 23 * 3_600_000)},
		{by: 'channel'},
		{by: 'day'},
		{by: 'key', routedOnly: true},
		{by: 'hour', since: at(6, 10)},
		{by: 'model', since: at(8, 12)},
	];
}



test('the rows are those of reading every day, on the first read and on those after; the settled days are kept merged over their hours', async () => {
	await withHistory(history, async (store, instances) => {
		const settled = new SettledDays();
		const fresh = await usageSummaries(store, queries());
		assert.equal(fresh[2]!.find(row => row.group === 'alpha')?.requests, 2 * 2 * 3 * (daysBack + 1), 'the history is all there (alpha: two requests an hour, three hours a day, two instances)');
		assert.deepEqual(comparable(await usageSummaries(store, queries(), settled)), comparable(fresh), 'the first read');
		assert.equal(settled.size, 2 * settledPerInstance, 'the days three days past and older are kept, no later one');
		for (let read = 0; read < 3; read++) assert.deepEqual(comparable(await usageSummaries(store, queries(), settled)), comparable(fresh), `read ${read + 2}`);
		const id = dayId(instances[0]!, localDay(at(5, 12)));
		const stored = (await dayTotals(store).get(id))!;
		const kept = settled.get(id)!;
		assert.deepEqual(new Set(stored.buckets.map(bucket => bucket.hour)), new Set([3, 10, 21]));
		assert.deepEqual(new Set(kept.buckets.map(bucket => bucket.hour)), new Set([0]), 'kept merged over its hours');
		assert.equal(kept.buckets.length, stored.buckets.length / 3);
		assert.equal(settled.get(dayId(instances[0]!, localDay(at(2, 12)))), undefined, 'two days back is not kept');
	});
});

test('a kept day is not read again but two a read, oldest-checked first; one gone from the store is forgotten', async () => {
	await withHistory(history, async (store, instances) => {
		const settled = new SettledDays();
		// Without a cache, read day by day (grouping by hour since the history began): not from the sums of months long over.
		// With it, grouped by day too: the days are kept one by one (not months merged over their days: see usage-months.test.ts).
		const allTime = async (cache?: SettledDays) => (await usageSummaries(store, cache ? [{by: 'key'}, {by: 'day'}] : [{by: 'key'}, {by: 'hour', since: at(daysBack + 1, 0)}], cache))[0]!.reduce((sum, row) => sum + row.requests, 0);
		const before = await allTime(settled);
		const perDay = 9; // three requests at each of three hours, per instance
		// Every settled day's totals removed behind the reader's back (the journals still list them).
		for (const instance of instances) for (let back = 4; back <= daysBack; back++) await dayTotals(store).delete(dayId(instance, localDay(at(back, 12))));
		assert.equal(await allTime(), before - 2 * settledPerInstance * perDay, 'read afresh, the days are gone');
		const seen: number[] = [];
		for (let read = 0; read < settledPerInstance + 1; read++) seen.push(await allTime(settled));
		// Two kept days are read again on each read: they are found gone, and forgotten; the others are not read.
		assert.deepEqual(
			seen,
			Array.from({length: settledPerInstance + 1}, (_, read) => before - Math.min(2 * (read + 1), 2 * settledPerInstance) * perDay),
		);
		assert.equal(settled.size, 0);
	});
});

test('the days still written (today and the two before) are read every time; a day written after it was kept is corrected within a few reads', async () => {
	await withHistory(history, async (store, instances) => {
		const settled = new SettledDays();
		const requestsOf = async (query: UsageQuery, group: string) => (await usageSummaries(store, [query], settled))[0]!.find(row => row.group === group)?.requests ?? 0;
		const twoDaysBack = localDay(at(2, 12));
		const fourDaysBack = localDay(at(4, 12));
		assert.equal(await requestsOf({by: 'day'}, twoDaysBack), 18);
		assert.equal(await requestsOf({by: 'day'}, fourDaysBack), 18);
		const add = async (day: string, requests: number) => {
			const id = dayId(instances[0]!, day);
			const doc = (await dayTotals(store).get(id))!;
			await dayTotals(store).set(id, {...doc, buckets: doc.buckets.map((bucket, index) => (index === 0 ? {...bucket, requests: bucket.requests + requests} : bucket))});
		};
		await add(twoDaysBack, 5);
		assert.equal(await requestsOf({by: 'day'}, twoDaysBack), 23, 'a day two days back is not kept: read again');
		await add(fourDaysBack, 7);
		const seen: number[] = [];
		for (let read = 0; read < settledPerInstance + 1; read++) seen.push(await requestsOf({by: 'day'}, fourDaysBack));
		// The kept totals until the day is read again (two kept days a read, oldest-checked first), then the new ones.
		const corrected = seen.indexOf(25);
		assert.ok(corrected >= 0 && corrected < settledPerInstance, `corrected within ${settledPerInstance} reads: ${seen.join(', ')}`);
		assert.deepEqual(seen, [...Array.from({length: corrected}, () => 18), ...Array.from({length: seen.length - corrected}, () => 25)]);
	});
});

test('days retention removed from the journals are forgotten', async () => {
	await withHistory(history, async (store, instances) => {
		const settled = new SettledDays();
		await usageSummaries(store, [{by: 'key'}, {by: 'day'}], settled);
		assert.equal(settled.size, 2 * settledPerInstance);
		const oldest = localDay(at(daysBack, 12));
		for (const instance of instances) {
			const journal = (await journals(store).get(instance))!;
			await journals(store).set(instance, {...journal, days: journal.days.filter(day => day !== oldest)});
		}
		const rows = await usageSummaries(store, [{by: 'key'}, {by: 'day'}], settled);
		assert.equal(settled.size, 2 * (settledPerInstance - 1));
		assert.deepEqual(comparable(rows), comparable(await usageSummaries(store, [{by: 'key'}, {by: 'day'}])));
		assert.equal(rows[1]!.some(row => row.group === oldest), false);
	});
});

test('a settled day is one whose writers are all past it: not yesterday, nor two days back, whatever the time zone', () => {
	const now = Date.parse('2026-11-28T12:00:00Z');
	const settled = new SettledDays(() => now);
	const doc = (day: string) => ({v: 1 as const, instance: 'i', day, buckets: []});
	const local = (ms: number) => localDay(new Date(ms));
	assert.equal(settled.keep('i:1', doc(local(now - dayMs))), undefined);
	assert.equal(settled.keep('i:2', doc(local(now - 2 * dayMs))), undefined);
	assert.notEqual(settled.keep('i:4', doc(local(now - 4 * dayMs))), undefined);
	assert.equal(settled.size, 1);
});
