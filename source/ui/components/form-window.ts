/**
 * Which fields of a form fit its height: all of them when they can, else a window that starts as
 * high as it can while the focused field (or, on the button, the last field) stays inside. A line
 * above and below says how many fields are out of sight.
 */
import type {Field} from './form.js';

/** Options a list shows while focused (the Select's `limit` in the form). */
export const listLimit = 6;

/** Lines a field takes: one, but a focused list shows its options (a multi-select below its label). */
export function fieldLines(field: Field, focused: boolean): number {
	if (!focused || field.kind === 'text') return 1;
	const options = Math.min(Math.max(field.options.length, 1), listLimit);
	// A list with more options than fit says so on a line of its own.
	const more = field.options.length > listLimit ? 1 : 0;
	return field.kind === 'multi' ? 1 + options + more : options + more;
}

export type FieldWindow = {readonly start: number; readonly end: number};

/** Fields [start, end) to show in `lines` lines, with `focus` (fields.length: the button) in sight. */
export function fieldWindow(heights: readonly number[], focus: number, lines: number): FieldWindow {
	const total = heights.reduce((sum, height) => sum + height, 0);
	if (total <= lines) return {start: 0, end: heights.length};
	const target = Math.min(focus, heights.length - 1);
	const fits = (start: number, end: number) => heights.slice(start, end).reduce((sum, height) => sum + height, 0) + (start > 0 ? 1 : 0) + (end < heights.length ? 1 : 0) <= lines;
	let start = 0;
	while (start < target && !fits(start, target + 1)) start++;
	let end = target + 1;
	while (end < heights.length && fits(start, end + 1)) end++;
	return {start, end};
}

/** The window of a form `height` lines high (all fields without one): the title, the button with its margin, the hint and an error of up to two lines take the rest. */
export function formWindow(fields: readonly Field[], focus: number, height: number | undefined, error: boolean): FieldWindow {
	const lines = height === undefined ? Infinity : height - 4 - (error ? 2 : 0);
	return fieldWindow(
		fields.map((field, index) => fieldLines(field, index === focus)),
		focus,
		lines,
	);
}
