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
 * "expires in 3d") — reads differently than at `now`: the first millisecond at which one does, or
 * null if none changes within a day. Each text must move one way with time and never come back to an
 * earlier reading (an age, a countdown), so that once one differs it stays so; `relative` and every
 * text built on it do, and each of them changes within a day. Each text is searched by halving only
 * when it changes before the earliest change found so far — one reading at that time tells — so a
 * pane of 100 keys costs about 100 readings and a few searches, not every text read at every step.
 */
export function nextChange(texts: ReadonlyArray<(now: number) => string>, now: number): number | null {
	let earliest = now + dayMs + 1;
	for (const text of texts) {
		const first = text(now);
		if (text(earliest) === first) continue;
		let same = now;
		while (earliest - same > 1) {
			const middle = Math.floor((same + earliest) / 2);
			if (text(middle) !== first) earliest = middle;
			else same = middle;
		}
	}
	return earliest > now + dayMs ? null : earliest;
}
