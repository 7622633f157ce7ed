/** A view longer than its room, scrolled by the keys of `scrollBindings` (commands.ts) — a request's bodies, the help — or by PgUp/PgDn (a key's or channel's details). */
import type {ScrollCommand} from './commands.js';

/** The first line shown after `command`, for a view of `page` lines whose first line is at most `last`. */
export function scrolled(top: number, command: ScrollCommand, page: number, last: number): number {
	const step = {'line-up': -1, 'line-down': 1, 'page-up': -page, 'page-down': page, top: -Infinity, bottom: Infinity}[command];
	return Math.max(0, Math.min(last, Math.min(top, last) + step));
}

/** Where the view is, and how to move it: `↑/↓ PgUp/PgDn Home/End: lines 9–16 of 25` (`keys`: the view's own, where fewer scroll it). */
export function scrollPosition(top: number, view: number, total: number, keys = '↑/↓ PgUp/PgDn Home/End'): string {
	return `${keys}: lines ${top + 1}–${Math.min(total, top + view)} of ${total}`;
}
