/**
 * When the TUI's core posts its batch to the UI: `batchMs` after something happened (a request
 * opened or finished, an event), so at most once per `batchMs` under load, and otherwise when the
 * outbox itself next has something to send (`flush` answers that time: its traffic snapshot held
 * back, the next minute's). A core with nothing going on sleeps until then — it woke ten times a
 * second, flushing nothing, when it flushed on an interval.
 *
 * `soon()` is on the request path (twice a request, and once for its record): once a flush is
 * armed it is one test.
 */
export class BatchPacer {
	private timer: NodeJS.Timeout | undefined;
	/** When the armed timer fires, ms since the epoch (Infinity: none armed). */
	private firesAt = Number.POSITIVE_INFINITY;
	/** A flush within `batchMs` is armed (or an earlier one). */
	private soonArmed = false;
	private stopped = false;

	constructor(
		/** Posts what gathered; answers when the outbox next has something to send of its own accord. */
		private readonly flush: (now: number) => number,
		private readonly batchMs: number,
		private readonly now: () => number = Date.now,
	) {}

	/** Something happened: flush within `batchMs`. */
	soon(): void {
		if (this.soonArmed || this.stopped) return;
		this.soonArmed = true;
		this.arm(this.now() + this.batchMs);
	}

	stop(): void {
		this.stopped = true;
		clearTimeout(this.timer);
		this.timer = undefined;
	}

	private arm(at: number): void {
		if (!Number.isFinite(at) || (this.timer !== undefined && this.firesAt <= at)) return;
		clearTimeout(this.timer);
		this.firesAt = at;
		this.timer = setTimeout(this.fire, Math.max(0, at - this.now()));
	}

	private readonly fire = (): void => {
		this.timer = undefined;
		this.firesAt = Number.POSITIVE_INFINITY;
		this.soonArmed = false;
		const now = this.now();
		const due = this.flush(now);
		if (!this.stopped) this.arm(Math.max(due, now + this.batchMs));
	};
}
