/** "in 3d", "in 5h", "2m ago" */
export function relative(iso: string | null, now = Date.now()): string {
	if (!iso) return '-';
	const delta = Date.parse(iso) - now;
	const abs = Math.abs(delta);
	const [value, unit] = abs >= 86_400_000 ? [abs / 86_400_000, 'd'] : abs >= 3_600_000 ? [abs / 3_600_000, 'h'] : abs >= 60_000 ? [abs / 60_000, 'm'] : [abs / 1000, 's'];
	const text = `${Math.floor(value)}${unit}`;
	return delta >= 0 ? `in ${text}` : `${text} ago`;
}

/** The longest a relative time reads the same: `relative` counts whole days at most. */
const dayMs = 86_400_000;

/**
 * When the first of `texts` — what a screen shows that depends on the time ("2m ago", "in 20s",
 * "expires in 3d") — reads differently than at `now`: the first millisecond at which one does,
 * found by halving, or null if none changes within a day. Each text must move one way with time and
 * never come back to an earlier reading (an age, a countdown), so that once one differs it stays so;
 * `relative` and every text built on it do, and each of them changes within a day.
 */
export function nextChange(texts: ReadonlyArray<(now: number) => string>, now: number): number | null {
	if (texts.length === 0) return null;
	const first = texts.map(text => text(now));
	const changedAt = (at: number) => texts.some((text, index) => text(at) !== first[index]);
	let [same, changed] = [now, now + dayMs + 1];
	if (!changedAt(changed)) return null;
	while (changed - same > 1) {
		const middle = Math.floor((same + changed) / 2);
		if (changedAt(middle)) changed = middle;
		else same = middle;
	}
	return changed;
}
