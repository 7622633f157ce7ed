/**
 * The Usage pane's numbers: totals by key and by model, for today and for all time, re-read from a
 * `UsageSource` after requests finish (at most once per `intervalMs`: the persisted summary reads
 * the store).
 */
import type {EventBus} from '../base/events.js';
import type {UsageRow} from '../base/usage-types.js';
import {ExternalStore} from './external-store.js';
import type {RedrawFrames} from './redraw-frames.js';
import {reasonOf} from '../store/backend.js';
import {onRequestsFinished} from './request-events.js';
import {sumRows, type UsageSource} from './session-usage.js';
import {hourOfLabel} from '../store/usage-buckets.js';

export type UsagePeriod = 'today' | 'all';

export type UsageTotals = {
	readonly byKey: readonly UsageRow[];
	readonly byModel: readonly UsageRow[];
};

export type UsageSnapshot = {
	readonly today: UsageTotals;
	readonly all: UsageTotals;
	/** Per hour (local) of the last 24, oldest first: the rows of `by: 'hour'`, labelled `YYYY-MM-DD HH:00`, only hours with requests. */
	readonly lastDay: readonly UsageRow[];
	/** Why the numbers could not be read, if they could not. */
	readonly error: string | null;
};

export const emptyUsage: UsageSnapshot = {today: {byKey: [], byModel: []}, all: {byKey: [], byModel: []}, lastDay: [], error: null};

/**
 * The totals of a period, summed over its keys: the one count the status bar (today) and the Usage
 * pane's totals lines show, so both say the same at the same moment.
 */
export function periodTotals(usage: UsageSnapshot, period: UsagePeriod): UsageRow {
	return sumRows(period === 'today' ? 'Today' : 'All time', usage[period].byKey);
}

export function startOfToday(now = new Date()): Date {
	return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

export async function readUsage(source: UsageSource, now = new Date()): Promise<UsageSnapshot> {
	const since = startOfToday(now);
	const [todayByKey = [], todayByModel = [], allByKey = [], allByModel = [], lastDay = []] = await source([{by: 'key', since}, {by: 'model', since}, {by: 'key'}, {by: 'model'}, {by: 'hour', since: new Date(now.getTime() - 23 * hourMs)}]);
	return {today: {byKey: todayByKey, byModel: todayByModel}, all: {byKey: allByKey, byModel: allByModel}, lastDay, error: null};
}

const hourMs = 3_600_000;

/**
 * Tokens (in + out) per local hour of the last 24, oldest first, the current hour last: the Usage
 * pane's tokens/h chart, from the same totals as its "Today:" line (every gateway on the store, and
 * the hours before this TUI started). Rows outside the 24 hours (read before the hour turned) are left out.
 */
export function tokensPerHour(lastDay: readonly UsageRow[], now = new Date()): number[] {
	const hours = Array.from({length: 24}, () => 0);
	const current = new Date(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours()).getTime();
	for (const row of lastDay) {
		const start = hourOfLabel(row.group);
		if (!start) continue;
		const back = Math.round((current - start.getTime()) / hourMs);
		if (back >= 0 && back < 24) hours[23 - back]! += row.inputTokens + row.outputTokens;
	}
	return hours;
}

/** Whether two snapshots hold the same numbers (a few rows each: comparing their JSON is cheap). */
export function sameUsage(a: UsageSnapshot, b: UsageSnapshot): boolean {
	return a === b || JSON.stringify(a) === JSON.stringify(b);
}

export type UsageViewOptions = {
	/** How long after a request finishes the totals are read again (the store is written about once a second). */
	readonly delayMs?: number;
	/** Read again this often too (requests served by another gateway process sharing the store). */
	readonly pollMs?: number;
	/** Under load the totals redraw with the other views (redraw-frames.ts). */
	readonly frames?: RedrawFrames;
	/**
	 * Totals already read (the TUI reads them before it takes the screen): the first frame shows them
	 * instead of zeros. They are still read again once the view is watched.
	 */
	readonly initial?: UsageSnapshot;
};

/**
 * `delayMs` after a request finishes (the stored history is flushed about once a second), and every
 * `pollMs` if given (requests served by another gateway process sharing the store), read again.
 */
export function createUsageView(events: EventBus, source: UsageSource, {delayMs = 1000, pollMs, frames, initial}: UsageViewOptions = {}): ExternalStore<UsageSnapshot> {
	let pending: NodeJS.Timeout | undefined;
	// The poll mostly reads what is shown already: an equal snapshot is not published (each one redraws the screen).
	const store: ExternalStore<UsageSnapshot> = new ExternalStore<UsageSnapshot>(initial ?? emptyUsage, {intervalMs: 0, equals: sameUsage, connect: () => connect(), frames});
	return store;

	function connect(): () => void {
		const refresh = () => {
			pending = undefined;
			readUsage(source).then(
				snapshot => store.set(snapshot),
				(error: unknown) => store.set({...store.current, error: `Usage totals could not be read (${reasonOf(error)}): the figures are the last ones read; they are read again as requests finish${pollMs ? ' and every few seconds' : ''}.`}),
			);
		};
		refresh();
		const off = onRequestsFinished(events, () => {
			pending ??= setTimeout(refresh, delayMs);
		});
		const poll = pollMs ? setInterval(() => (pending ??= setTimeout(refresh, 0)), pollMs) : undefined;
		return () => {
			off();
			if (poll) clearInterval(poll);
			if (pending) clearTimeout(pending);
			pending = undefined;
		};
	}
}
