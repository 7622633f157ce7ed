/**
 * The live request log's reading position: it follows the newest request until the user moves into
 * it, then stays on the chosen request (counting what arrived since) until `g`, Home or Esc goes
 * back to live. A filter keeps the requests whose key, model, channel, formats or status match
 * every word typed (`429`, `5xx`, `aborted`, `gpt-4o laptop`).
 */
import type {RequestFinished} from '../base/events.js';

export type Follow = {
	/** The request the user moved to, or null while following the newest. */
	readonly selectedId: string | null;
	/** The newest request when the user left live: everything above it is new. */
	readonly topId: string | null;
	readonly filter: string;
	/** How far the window was scrolled down from that newest request (it does not move as new ones arrive). */
	readonly scroll: number;
};

export const following: Follow = {selectedId: null, topId: null, filter: '', scroll: 0};

/** Where the selection is in `rows` (-1: following, or the request left the log). */
export function selectedIndex(follow: Follow, rows: readonly RequestFinished[]): number {
	return follow.selectedId === null ? -1 : rows.findIndex(row => row.id === follow.selectedId);
}

/** Requests that arrived above the one that was newest when the user left live. */
export function newSince(follow: Follow, rows: readonly RequestFinished[]): number {
	if (follow.selectedId === null || follow.topId === null) return 0;
	const index = rows.findIndex(row => row.id === follow.topId);
	return index === -1 ? rows.length : index;
}

/**
 * Moves the selection `delta` rows (positive: older); above the newest goes back to live. `visible`:
 * rows in the window, which scrolls only as far as the selection needs.
 */
export function move(follow: Follow, rows: readonly RequestFinished[], delta: number, visible = Infinity): Follow {
	if (rows.length === 0) return live(follow);
	const index = selectedIndex(follow, rows);
	const next = index === -1 ? (delta > 0 ? 0 : -1) : index + delta;
	if (next < 0) return live(follow);
	const target = Math.min(rows.length - 1, next);
	const topId = follow.selectedId === null || follow.topId === null ? rows[0]!.id : follow.topId;
	const top = {...follow, topId, selectedId: rows[target]!.id};
	const fresh = newSince(top, rows);
	const first = fresh + (follow.selectedId === null ? 0 : follow.scroll);
	const scroll = target < first ? target - fresh : target >= first + visible ? target - visible + 1 - fresh : first - fresh;
	return {...top, scroll};
}

export function live(follow: Follow): Follow {
	return {...following, filter: follow.filter};
}

export function oldest(follow: Follow, rows: readonly RequestFinished[], visible?: number): Follow {
	return move(follow, rows, rows.length, visible);
}
