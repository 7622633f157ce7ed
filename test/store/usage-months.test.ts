/**
 * A month long over is read from its sum (`usage-months`), made once by the first reader that needs
 * it: the rows are those of reading every day, the sum is what is read after (its days may be gone),
 * it is made again when the journal's days change or it cannot be read, and retention deletes the
 * sums of the months it prunes. Readers that group by key, model or channel only read the month
 * merged over its days as well (`usage-months-merged`), under the same rules.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Store} from '../../source/store/index.js';
import {dayId, dayTotals, journals, mergedMonths, monthId, monthTotals} from '../../source/store/usage.js';
import {SettledDays, usageSummaries, type UsageRow} from '../../source/store/usage-summary.js';
import {pruneStore} from '../../source/store/usage-retention.js';
import {localDay, startOfToday} from '../../source/store/usage-buckets.js';
import type {UsageQuery} from '../../source/base/usage-types.js';
import {at, comparable, withHistory} from './usage-history.js';

const daysBack = 75;
const history = {daysBack, hours: [10, 21]};


/** The newest settled day: three days before today. */
const settledDay = () => localDay(new Date(Date.now() - 3 * 86_400_000));

/** The months this history has settled days in (every day of a month long over, the first days of this one). */
function settledMonths(): string[] {
	return [...new Set(Array.from({length: daysBack + 1}, (_, back) => localDay(at(back, 12))).filter(day => day < settledDay()).map(day => day.slice(0, 7)))].sort();
}

/** The TUI's queries and the CLI's usual ones, none of which needs a settled day's hours. */
function queries(): UsageQuery[] {
	return [{by: 'key', since: startOfToday()}, {by: 'model', since: startOfToday()}, {by: 'key'}, {by: 'model'}, {by: 'hour', since: new Date(Date.now() - 23 * 3_600_000)}, {by: 'channel'}, {by: 'day'}, {by: 'key', routedOnly: true}];
}

/** The same rows read day by day: grouping by hour since the history began makes every day be read whole. */
async function dayByDay(store: Store): Promise<UsageRow[][]> {
	return (await usageSummaries(store, [...queries(), {by: 'hour', since: at(daysBack + 1, 0)}])).slice(0, -1);
}



/** Rows by key, model and channel only, as `keys list` and `usage --by key|model|channel` ask. */
function flatQueries(): UsageQuery[] {
	return [{by: 'key'}, {by: 'model'}, {by: 'channel'}, {by: 'key', routedOnly: true}];
}

/** Read day by day (see `dayByDay`). */
async function flatDayByDay(store: Store, asked: readonly UsageQuery[]): Promise<UsageRow[][]> {
	return (await usageSummaries(store, [...asked, {by: 'hour', since: at(daysBack + 1, 0)}])).slice(0, -1);
}

const settledDaysOf = (instance: string, journalDays: readonly string[]) => journalDays.filter(day => day < settledDay()).map(day => dayId(instance, day));

test("a month's settled days are summed by the first reader and read from the sum after, even with their days gone; the days still written never are", async () => {
	await withHistory(history, async (store, instances) => {
		const months = settledMonths();
		assert.ok(months.length >= 2, `the history spans months long over: ${months.join(', ')}`);
		const reference = await dayByDay(store);
		assert.deepEqual(await monthTotals(store).list(), [], 'read day by day, nothing is summed');
		assert.deepEqual(comparable(await usageSummaries(store, queries())), comparable(reference), 'the first read, which sums');
		for (const instance of instances) {
			for (const month of months) {
				const sum = (await monthTotals(store).get(monthId(instance, month)))!;
				assert.ok(sum, `${month} summed`);
				assert.ok(sum.listed.length > 0 && sum.listed.every(day => day.startsWith(month) && day < settledDay()), `${month}: only settled days`);
			}
		}
		assert.equal((await monthTotals(store).list()).length, months.length * instances.length);
		const settled = new SettledDays();
		for (let read = 0; read < 3; read++) assert.deepEqual(comparable(await usageSummaries(store, queries(), settled)), comparable(reference), `the TUI's read ${read + 1}`);
		// The day totals of those months removed behind the readers' backs: the sums still hold them.
		for (const instance of instances) for (const id of settledDaysOf(instance, (await journals(store).get(instance))!.days)) await dayTotals(store).delete(id);
		assert.deepEqual(comparable(await usageSummaries(store, queries())), comparable(reference), 'read from the sums');
	});
});

test('a sum is made again when the days its journal lists change, or when it cannot be read', async () => {
	await withHistory(history, async (store, instances) => {
		const [month] = settledMonths();
		await usageSummaries(store, queries());
		const instance = instances[0]!;
		const journal = (await journals(store).get(instance))!;
		const dropped = journal.days.find(day => day.startsWith(month!))!;
		await journals(store).set(instance, {...journal, days: journal.days.filter(day => day !== dropped)});
		const reference = await dayByDay(store);
		assert.deepEqual(comparable(await usageSummaries(store, queries())), comparable(reference), 'one day fewer');
		assert.equal((await monthTotals(store).get(monthId(instance, month!)))!.listed.includes(dropped), false, 'summed again without it');
		// A sum this version cannot read (a later one wrote it, a damaged row): read the long way and written again.
		await store.raw('usage-months').set(monthId(instance, month!), {v: 2, something: 'else'});
		assert.deepEqual(comparable(await usageSummaries(store, queries())), comparable(reference));
		assert.equal((await monthTotals(store).get(monthId(instance, month!)))!.v, 1);
	});
});

test('retention deletes the sums of the months it prunes; the next reader sums what is left', async () => {
	await withHistory(history, async (store, instances) => {
		await usageSummaries(store, queries());
		// Keep `kept` days of totals, where the first day kept and the last one pruned are in one month (long over).
		const kept = Array.from({length: 30}, (_, index) => 40 + index).find(back => localDay(at(back, 12)).slice(0, 7) === localDay(at(back + 1, 12)).slice(0, 7))!;
		const oldest = localDay(at(kept, 12)).slice(0, 7);
		assert.ok(settledMonths().includes(oldest));
		const {plan} = await pruneStore(store, null, {maxRequests: 100_000, maxDays: 400, usageDays: kept});
		assert.ok([...plan.days].some(id => id.includes(`:${oldest}-`)), `days of ${oldest} were pruned`);
		for (const instance of instances) assert.equal(await monthTotals(store).get(monthId(instance, oldest)), undefined, `${instance}'s sum of ${oldest} deleted`);
		const rows = await usageSummaries(store, queries());
		assert.deepEqual(comparable(rows), comparable(await dayByDay(store)));
		assert.ok(await monthTotals(store).get(monthId(instances[0]!, oldest)), 'summed again from what is left');
	});
});

test('rows by key, model or channel read a month merged over its days: the same rows, read from the merged sums after, even with the days and the month sums gone', async () => {
	await withHistory(history, async (store, instances) => {
		const months = settledMonths();
		const reference = await flatDayByDay(store, flatQueries());
		assert.deepEqual(comparable(await usageSummaries(store, flatQueries())), comparable(reference), 'the first read, which merges');
		for (const instance of instances) {
			for (const month of months) {
				const merged = (await mergedMonths(store).get(monthId(instance, month)))!;
				assert.ok(merged, `${month} merged`);
				assert.deepEqual(merged.listed, (await monthTotals(store).get(monthId(instance, month)))!.listed, 'made from the month sum, with its days');
				assert.ok(merged.buckets.every(bucket => bucket.hour === 0));
				// Two keys and a request no channel took, each in one bucket for the month (as long as no key or channel was renamed).
				assert.equal(merged.buckets.length, 3, `${month}: merged over the days`);
			}
		}
		// Both the day totals and the month sums gone: the merged sums alone hold those months.
		for (const instance of instances) for (const id of settledDaysOf(instance, (await journals(store).get(instance))!.days)) await dayTotals(store).delete(id);
		for (const instance of instances) for (const month of months) await monthTotals(store).delete(monthId(instance, month));
		assert.deepEqual(comparable(await usageSummaries(store, flatQueries())), comparable(reference), 'read from the merged sums');
	});
});

test('a month a query starts inside is read by day, not merged; merged sums are made again when the days change or cannot be read, and retention deletes them', async () => {
	await withHistory(history, async (store, instances) => {
		// One query counts from a midnight inside a month long over: it counts some of that month's
		// days whole and not the others, so that month cannot be merged for it; the others can.
		const back = Array.from({length: 30}, (_, index) => 35 + index).find(days => localDay(at(days, 12)).slice(0, 7) === localDay(at(days + 1, 12)).slice(0, 7))!;
		const since = at(back, 0);
		since.setMinutes(0);
		const asked: UsageQuery[] = [...flatQueries(), {by: 'model', since}];
		assert.deepEqual(comparable(await usageSummaries(store, asked)), comparable(await flatDayByDay(store, asked)));
		const instance = instances[0]!;
		const split = localDay(since).slice(0, 7);
		assert.equal(await mergedMonths(store).get(monthId(instance, split)), undefined, `${split} is not merged`);
		assert.ok(await monthTotals(store).get(monthId(instance, split)), `${split} is read from its month sum, by day`);
		assert.equal((await mergedMonths(store).list()).length, (settledMonths().length - 1) * instances.length, 'every other month merged');

		const [month] = settledMonths();
		const journal = (await journals(store).get(instance))!;
		const dropped = journal.days.find(day => day.startsWith(month!))!;
		await journals(store).set(instance, {...journal, days: journal.days.filter(day => day !== dropped)});
		assert.deepEqual(comparable(await usageSummaries(store, flatQueries())), comparable(await flatDayByDay(store, flatQueries())), 'one day fewer');
		assert.equal((await mergedMonths(store).get(monthId(instance, month!)))!.listed.includes(dropped), false, 'merged again without it');
		await store.raw('usage-months-merged').set(monthId(instance, month!), {v: 2, something: 'else'});
		assert.deepEqual(comparable(await usageSummaries(store, flatQueries())), comparable(await flatDayByDay(store, flatQueries())), 'an unreadable merged sum is read the long way');
		assert.equal((await mergedMonths(store).get(monthId(instance, month!)))!.v, 1, 'and written again');

		const {plan} = await pruneStore(store, null, {maxRequests: 100_000, maxDays: 400, usageDays: 50});
		const pruned = new Set([...plan.days].map(id => id.slice(0, -3)));
		assert.ok(pruned.has(monthId(instance, month!)), `days of ${month} were pruned`);
		for (const id of pruned) assert.equal(await mergedMonths(store).get(id), undefined, `${id}'s merged sum deleted`);
		assert.deepEqual(comparable(await usageSummaries(store, flatQueries())), comparable(await flatDayByDay(store, flatQueries())), 'merged again from what is left');
	});
});

test("the TUI's first read (its five queries, no cache) and a query by day that starts after a month read that month merged: the same rows", async () => {
	await withHistory(history, async (store, instances) => {
		const since = startOfToday();
		const tui: UsageQuery[] = [{by: 'key', since}, {by: 'model', since}, {by: 'key'}, {by: 'model'}, {by: 'hour', since: new Date(Date.now() - 23 * 3_600_000)}];
		assert.deepEqual(comparable(await usageSummaries(store, tui)), comparable(await flatDayByDay(store, tui)));
		assert.equal((await mergedMonths(store).list()).length, settledMonths().length * instances.length, 'every month long over merged');
		// Days counted from the start of the newest settled month: the months before it are merged, that one is read by day.
		const newest = settledMonths().at(-1)!;
		const byDay: UsageQuery[] = [{by: 'key'}, {by: 'day', since: new Date(Number(newest.slice(0, 4)), Number(newest.slice(5)) - 1, 1)}];
		await store.raw('usage-months-merged').clear();
		assert.deepEqual(comparable(await usageSummaries(store, byDay)), comparable(await flatDayByDay(store, byDay)));
		assert.deepEqual((await mergedMonths(store).list()).map(merged => merged.month).sort(), settledMonths().slice(0, -1).flatMap(month => instances.map(() => month)).sort());
	});
});

test("a day written after its month was summed (a clock set back): the TUI's cache, reading the day again, deletes the month's sums, and the next reader without a cache sums it afresh", async () => {
	await withHistory(history, async (store, instances) => {
		const settled = new SettledDays();
		const since = startOfToday();
		const tui: UsageQuery[] = [{by: 'key', since}, {by: 'model', since}, {by: 'key'}, {by: 'model'}, {by: 'hour', since: new Date(Date.now() - 23 * 3_600_000)}, {by: 'day'}];
		await usageSummaries(store, flatQueries()); // the merged sums
		await usageSummaries(store, tui, settled); // the month sums, taken into the cache
		const instance = instances[0]!;
		const [month] = settledMonths();
		const id = monthId(instance, month!);
		assert.ok((await monthTotals(store).get(id)) && (await mergedMonths(store).get(id)));
		const day = (await journals(store).get(instance))!.days.find(listed => listed.startsWith(month!))!;
		const doc = (await dayTotals(store).get(dayId(instance, day)))!;
		await dayTotals(store).set(dayId(instance, day), {...doc, buckets: doc.buckets.map((bucket, index) => (index === 0 ? {...bucket, requests: bucket.requests + 7, succeeded: bucket.succeeded + 7} : bucket))});
		assert.notDeepEqual(comparable(await usageSummaries(store, flatQueries())), comparable(await flatDayByDay(store, flatQueries())), 'the sums still hold the day as it was');
		let reads = 0;
		while ((await monthTotals(store).get(id)) && reads < 200) {
			await usageSummaries(store, tui, settled);
			reads += 1;
		}
		assert.equal(await monthTotals(store).get(id), undefined, `the month sum deleted after ${reads} reads`);
		assert.equal(await mergedMonths(store).get(id), undefined, 'and the merged one');
		assert.ok((await monthTotals(store).list()).length > 0, 'the other months keep theirs');
		assert.deepEqual(comparable(await usageSummaries(store, flatQueries())), comparable(await flatDayByDay(store, flatQueries())), 'summed afresh, with the late write');
		assert.deepEqual(comparable(await usageSummaries(store, tui, settled)), comparable(await flatDayByDay(store, tui)), 'and the cache holds it too');
	});
});

/** The TUI's five queries (ui/usage-view.ts), none of which tells the days of a month long over apart. */
function tuiQueries(): UsageQuery[] {
	const since = startOfToday();
	return [{by: 'key', since}, {by: 'model', since}, {by: 'key'}, {by: 'model'}, {by: 'hour', since: new Date(Date.now() - 23 * 3_600_000)}];
}

test("the TUI's cache keeps months long over merged over their days: the rows of reading every day on each read, those months' days not kept one by one", async () => {
	await withHistory(history, async (store, instances) => {
		const settled = new SettledDays();
		const reference = await flatDayByDay(store, tuiQueries());
		for (let read = 0; read < 4; read++) assert.deepEqual(comparable(await usageSummaries(store, tuiQueries(), settled)), comparable(reference), `read ${read + 1}`);
		assert.equal(settled.mergedSize, settledMonths().length * instances.length, 'one entry a month and instance');
		assert.equal(settled.size, 0, 'no day kept on its own');
		// The store's sums and day totals of those months removed behind its back: what is kept still answers (until a day is read again).
		for (const instance of instances) for (const month of settledMonths()) await Promise.all([monthTotals(store).delete(monthId(instance, month)), mergedMonths(store).delete(monthId(instance, month))]);
		assert.deepEqual(comparable(await usageSummaries(store, tuiQueries(), settled)), comparable(reference), 'read from the cache');
	});
});

test("a day written after its month was kept merged is seen by the TUI's cache within a few reads, and the month's sums in the store are made again with it", async () => {
	await withHistory(history, async (store, instances) => {
		const settled = new SettledDays();
		await usageSummaries(store, tuiQueries(), settled);
		const instance = instances[1]!;
		const month = settledMonths().at(-1)!;
		const day = (await journals(store).get(instance))!.days.filter(listed => listed.startsWith(month) && listed < settledDay()).at(-1)!;
		const doc = (await dayTotals(store).get(dayId(instance, day)))!;
		await dayTotals(store).set(dayId(instance, day), {...doc, buckets: doc.buckets.map((bucket, index) => (index === 0 ? {...bucket, requests: bucket.requests + 7, succeeded: bucket.succeeded + 7} : bucket))});
		const reference = await flatDayByDay(store, tuiQueries());
		const total = (rows: UsageRow[][]) => rows[2]!.reduce((sum, row) => sum + row.requests, 0);
		const seen: number[] = [];
		// Two months a read, a day of each in turn: a month's day is read again within (its days × months / 2) reads.
		for (let read = 0; read < 160 && seen.at(-1) !== total(reference); read++) seen.push(total(await usageSummaries(store, tuiQueries(), settled)));
		assert.equal(seen.at(-1), total(reference), `corrected after ${seen.length} reads`);
		assert.ok(seen.length > 1 && seen[0] === total(reference) - 7, `the kept month answered until its day was read again: ${seen.join(', ')} (reference ${total(reference)})`);
		assert.deepEqual(comparable(await usageSummaries(store, tuiQueries(), settled)), comparable(reference));
		assert.equal((await mergedMonths(store).get(monthId(instance, month)))!.requests.reduce((sum, n) => sum + n, 0), (await mergedMonths(store).get(monthId(instances[0]!, month)))!.requests.reduce((sum, n) => sum + n, 0) + 7, 'made again in the store');
		assert.deepEqual(comparable(await usageSummaries(store, tuiQueries())), comparable(reference), 'a reader without a cache sees it too');
	});
});

test("months retention pruned are forgotten by the TUI's cache", async () => {
	await withHistory(history, async (store, instances) => {
		const settled = new SettledDays();
		await usageSummaries(store, tuiQueries(), settled);
		const before = settled.mergedSize;
		const [oldest] = settledMonths();
		// Every day of the oldest month pruned: retention keeps the days from the first of the next month.
		const newestOfOldest = Array.from({length: daysBack + 1}, (_, back) => back).find(back => localDay(at(back, 12)).slice(0, 7) === oldest)!;
		const {plan} = await pruneStore(store, null, {maxRequests: 100_000, maxDays: 400, usageDays: newestOfOldest - 1});
		assert.ok(plan.days.size > 0);
		assert.deepEqual(comparable(await usageSummaries(store, tuiQueries(), settled)), comparable(await flatDayByDay(store, tuiQueries())));
		const left = new Set([...(await journals(store).list())].flatMap(journal => journal.days.filter(day => day < settledDay()).map(day => monthId(journal.instance, day.slice(0, 7)))));
		assert.equal(settled.mergedSize, left.size, 'one entry a month still listed');
		assert.ok(settled.mergedSize < before, 'the pruned months forgotten');
	});
});
