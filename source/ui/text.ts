/**
 * Small text helpers for table cells: fitting to a width, compact numbers, times and formats.
 * Every cell is plain text, so a column width is a string length.
 */
import type {RequestFinished} from '../base/events.js';
import type {UsageRow} from '../base/usage-types.js';
import {isEstimated} from '../base/ir.js';
import type {KeyRecord} from '../base/records.js';
import {periodWords} from '../base/periods.js';
import {budgetDollars} from '../base/digits.js';
import {type BudgetWarning} from '../base/events.js';
import {keyState} from '../store/keys.js';
import {relative} from '../base/relative-time.js';
import {localDateTime} from '../base/iso-time.js';

export {relative};

/** Pad or cut `text` to exactly `width` characters; a cut ends with an ellipsis. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
	if (width <= 0) return '';
	const flat = text.replaceAll('\n', ' ');
	const cut = flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
	return align === 'right' ? cut.padStart(width) : cut.padEnd(width);
}

/** 950 → "950", 12_340 → "12.3k", 4_500_000 → "4.5M". */
export function compact(value: number): string {
	if (value < 1000) return String(value);
	if (value < 1_000_000) return `${trim(value / 1000)}k`;
	return `${trim(value / 1_000_000)}M`;
}

const trim = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, ''));

/** "14:03:07" in local time. */
export function clock(iso: string): string {
	const date = new Date(iso);
	return [date.getHours(), date.getMinutes(), date.getSeconds()].map(part => String(part).padStart(2, '0')).join(':');
}

const monthNames: readonly string[] = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** When a request ran, in eight columns: the time of day for today's, the date (`Nov 27`) for an earlier day's (the stored history). */
export function logTime(iso: string, now = new Date()): string {
	const date = new Date(iso);
	if (date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth() && date.getDate() === now.getDate()) return clock(iso);
	return `${monthNames[date.getMonth()]} ${date.getDate()}`;
}

/**
 * A request's time in full, for its details: the local date and time to the millisecond, and the
 * same instant in UTC where the two differ (the stored records and `gateway-tui logs --json` say
 * UTC): `2026-11-27 14:03:07.250 (13:03:07.250 UTC)`.
 */
export function fullTime(iso: string): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return iso;
	const local = `${localDateTime(iso)}.${String(date.getMilliseconds()).padStart(3, '0')}`;
	if (date.getTimezoneOffset() === 0) return `${local} UTC`;
	const utc = date.toISOString();
	const sameDay = utc.slice(0, 10) === local.slice(0, 10);
	return `${local} (${sameDay ? '' : `${utc.slice(0, 10)} `}${utc.slice(11, 23)} UTC)`;
}

export function latency(ms: number): string {
	return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** "1.2k/80"; each count the gateway estimated marked "~" (see estimatedWhy): "~1.2k/~80", "1.2k/~48". */
export function tokens(event: Pick<RequestFinished, 'usage'>): string {
	const {usage} = event;
	if (!usage) return '-';
	return `${isEstimated(usage, 'input') ? '~' : ''}${compact(usage.inputTokens)}/${isEstimated(usage, 'output') ? '~' : ''}${compact(usage.outputTokens)}`;
}

/**
 * Why a request's tokens are the gateway's estimate: its client left before any answer came (the
 * provider had the prompt), a stream that ended before its usage came, or an answer with none
 * (Gemini's embeddings).
 */
export function estimatedWhy(event: Pick<RequestFinished, 'stream' | 'outcome' | 'ttfbMs'>): string {
	if (event.outcome === 'aborted' && event.ttfbMs === null) return 'estimated by the gateway: the client left before the answer came, while the provider had the prompt';
	return event.stream ? 'estimated by the gateway: the stream ended before the provider reported its usage' : 'estimated by the gateway: the provider reports no usage for this request';
}

/**
 * "in 7d" right after choosing 7 days (rounded, where `relative` counts whole units gone by), and
 * "in 23h" on the last day.
 */
export function untilText(iso: string, now = Date.now()): string {
	const delta = Date.parse(iso) - now;
	if (delta >= 86_400_000) return `in ${Math.round(delta / 86_400_000)}d`;
	if (delta >= 3_600_000) return `in ${Math.round(delta / 3_600_000)}h`;
	return relative(iso, now);
}

/** "active", "expires in 3d", "expired", "revoked". */
export function keyStateText(key: Pick<KeyRecord, 'expiresAt' | 'revokedAt'>, now = Date.now()): string {
	const state = keyState(key, now);
	if (state === 'active' && key.expiresAt) return `expires ${untilText(key.expiresAt, now)}`;
	return state;
}

/** The first line of an error message, for the status bar. */
export function errorText(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.split('\n')[0] ?? message;
}

/** "$4.20"; below a dollar to the hundredth of a cent ("$0.0031"), and "<$0.0001" for less. */
export function money(usd: number): string {
	if (usd > 0 && usd < 0.0001) return '<$0.0001';
	return `$${usd.toFixed(usd === 0 || usd >= 1 ? 2 : 4)}`;
}

/**
 * A row's cost; "no price" where its tokens had no price on their channel (they count as $0).
 * `short` where a table is narrow: `$0.0004+` for a cost with unpriced tokens besides.
 */
export function costText(row: Pick<UsageRow, 'costUsd' | 'unpriced'>, short = false): string {
	if (row.unpriced && row.costUsd === 0) return 'no price';
	if (!row.unpriced) return money(row.costUsd);
	return short ? `${money(row.costUsd)}+` : `${money(row.costUsd)} + no price`;
}

/** "key agent: 82% of its $5.00 budget spent today ($4.10)", for the status bar and the log file. */
export function budgetWarningText(warning: BudgetWarning): string {
	return `key ${warning.keyName}: ${warning.percent}% of its ${budgetDollars(warning.budgetUsd, warning.budgetUsd)} budget spent ${periodWords[warning.period]} (${budgetDollars(warning.spentUsd, warning.budgetUsd)})`;
}

/**
 * `text` with each of its lines cut every `width` characters, as a terminal shows a long line: for
 * commands, where a word wrap would leave `export` alone on a line and its variable on the next.
 */
export function breakLines(text: string, width: number): string {
	const room = Math.max(1, width);
	return text
		.split('\n')
		.map(line => piecesOf(line, room).join('\n'))
		.join('\n');
}

/**
 * Shell commands fitted to `width` as a person would break them: a line too long ends at its last
 * space or `=` outside quotes that leaves room for a backslash, and goes on at the start of the
 * next line — so a URL stays whole on a line of its own, and the text copied with the mouse is
 * still the same command (the shell takes a backslash and a newline away). A line that cannot be
 * broken so into pieces that fit (a quoted string longer than the width) is cut every `width`
 * characters, as breakLines cuts it.
 */
export function breakCommand(text: string, width: number): string {
	const room = Math.max(2, width);
	return text
		.split('\n')
		.flatMap(line => commandPieces(line, room))
		.join('\n');
}

function commandPieces(line: string, width: number): string[] {
	const pieces: string[] = [];
	let rest = line;
	while (rest.length > width) {
		const at = lastBreak(rest, width - 1);
		if (at === 0) return piecesOf(line, width);
		pieces.push(`${rest.slice(0, at)}\\`);
		rest = rest.slice(at);
	}
	return [...pieces, rest];
}

/** The length of the longest start of `line`, at most `limit`, that ends after a space or `=` outside quotes (0: none). */
function lastBreak(line: string, limit: number): number {
	let quote: string | null = null;
	let found = 0;
	for (let index = 0; index < line.length && index < limit; index++) {
		const char = line[index]!;
		if (quote === null && char === '\\') index++;
		else if (quote === null && (char === "'" || char === '"')) quote = char;
		else if (char === quote) quote = null;
		else if (quote === null && (char === ' ' || char === '=') && index > 0 && line[index - 1] !== ' ') found = index + 1;
	}
	return found;
}

/** `text` (no line break in it) cut every `width` characters, or whole when it fits. */
function piecesOf(text: string, width: number): string[] {
	return text.length <= width ? [text] : (text.match(new RegExp(`.{1,${width}}`, 'gu')) ?? [text]);
}

/**
 * `text` word-wrapped into lines of at most `width` characters, at most `max` of them; the last
 * ends with … when there was more. A word longer than a line is cut into pieces.
 */
export function wrapLines(text: string, width: number, max = Infinity): string[] {
	const room = Math.max(1, width);
	const lines = packLines(text.split(/\s+/).filter(Boolean).flatMap(word => piecesOf(word, room)), room, ' ');
	if (lines.length <= max) return lines;
	const kept = lines.slice(0, max);
	const end = kept[max - 1]!;
	kept[max - 1] = end.length + 1 > room ? `${end.slice(0, room - 1)}…` : `${end}…`;
	return kept;
}

/** `text`'s ` · `-separated parts that fit in `room` columns: the last ones give way whole (the first is kept, cut by the caller if it must be). */
export function fitParts(text: string, room: number): string {
	let fitted = text;
	while (fitted.length > room && fitted.includes(' · ')) fitted = fitted.slice(0, fitted.lastIndexOf(' · '));
	return fitted;
}

/** `pieces` (each at most `width` long) in order on lines of at most `width` characters, `gap` between two on a line. */
export function packLines(pieces: readonly string[], width: number, gap: string): string[] {
	const lines: string[] = [];
	for (const piece of pieces) {
		const last = lines.at(-1);
		if (last !== undefined && last.length + gap.length + piece.length <= width) lines[lines.length - 1] = `${last}${gap}${piece}`;
		else lines.push(piece);
	}
	return lines;
}
