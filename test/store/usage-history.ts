/** A usage history written by the real recorder, for the tests of reading it (settled days, monthly sums). */
import {rmSync} from 'node:fs';
import {Store} from '../../source/store/index.js';
import {UsageRecorder} from '../../source/proxy/usage-recorder.js';
import {startOfToday} from '../../source/store/usage-buckets.js';
import type {UsageRow} from '../../source/store/usage-summary.js';
import {tempHome} from '../helpers/gateway.js';
import {finished} from '../usage/events.js';

/** A day `back` days before today at `hour`:17, local. */
export function at(back: number, hour: number): Date {
	const today = startOfToday();
	return new Date(today.getFullYear(), today.getMonth(), today.getDate() - back, hour, 17);
}

/** Rows with the cost rounded (summed in another order when merged over the hours). */
export function comparable(rows: readonly UsageRow[][]): unknown {
	return rows.map(list => list.map(row => ({...row, costUsd: Math.round(row.costUsd * 1e9) / 1e9})));
}

/**
 * Every day from `daysBack` back to today, in two instances: at each of `hours`, two keys, two
 * models (one per instance), and a request no channel took. Each day the same, so each adds the same totals.
 */
export async function withHistory(options: {readonly daysBack: number; readonly hours: readonly number[]}, run: (store: Store, instances: readonly string[]) => Promise<void>): Promise<void> {
	const home = tempHome();
	const store = await Store.open(home);
	try {
		const instances: string[] = [];
		for (const name of ['a', 'b']) {
			const recorder = new UsageRecorder(store, {adopt: false, retention: {maxRequests: 100_000, maxDays: 400, usageDays: 400}});
			recorder.start();
			for (let back = options.daysBack; back >= 0; back--) {
				for (const hour of options.hours) {
					const time = at(back, hour).toISOString();
					recorder.record(finished({time, latencyMs: 90 + back + hour, usage: {inputTokens: 100, outputTokens: 10}, costUsd: 0.1}));
					recorder.record(finished({time, keyId: 'key_b', keyName: 'beta', model: `model-${name}`, latencyMs: 900, costUsd: 0.2}));
					recorder.record(finished({time, channelId: null, channelName: null, model: 'nope', status: 404, outcome: 'error', usage: null, latencyMs: 1}));
				}
			}
			await recorder.close();
			instances.push(recorder.instance);
		}
		await run(store, instances);
	} finally {
		await store.close();
		rmSync(home, {recursive: true, force: true});
	}
}
