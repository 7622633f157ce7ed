/**
 * A redraw when a relative time on screen ("12s ago", "in 3m", "expires in 2d") would read
 * differently — exactly then, not on a fixed tick: every redraw renders the whole screen, and an idle
 * screen whose times read the same needs none. The texts are computed at render as usual (with the
 * time then); this only asks for the next render.
 */
import {useEffect, useState} from 'react';
import {nextChange} from '../../base/relative-time.js';

/** A timer can fire a little before the time asked (timers count whole ms of a cached clock). */
const lateMs = 5;

/** `texts`: what is shown that depends on the time, as functions of it; none while the pane is not in view. */
export function useTimeTexts(texts: ReadonlyArray<(now: number) => string>): void {
	const [, redraw] = useState(0);
	const next = nextChange(texts, Date.now());
	useEffect(() => {
		if (next === null) return;
		const timer = setTimeout(() => redraw(count => count + 1), Math.max(0, next - Date.now()) + lateMs);
		return () => clearTimeout(timer);
	}, [next]);
}
