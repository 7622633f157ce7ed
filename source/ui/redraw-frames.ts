/**
 * One redraw for every live view that changed, while the gateway is busy. Under load each view —
 * the live log, the charts, the usage totals, the keys' limits and last use — has something new
 * about once a second, each on its own clock: that was three or four redraws of the whole screen a
 * second (measured: 17 in 5 s at 14,000 requests a second), each a few milliseconds of the UI
 * thread, where one shows the same. So while requests finish faster than `busyPerSecond`, a view's
 * change waits for the next frame — the next whole multiple of `frameMs` on the clock — and every
 * view with a change by then publishes in that one turn: React renders once and Ink draws once.
 * While fewer arrive, a change is published at once, as before: a person reading the log line by
 * line sees each request when it ends. Keys typed are never held (they are React state, not views).
 */
import type {EventBus} from '../base/events.js';

export type RedrawFramesOptions = {
	/** The arrival rate (requests finished a second) above which changes wait for a frame. */
	readonly busyPerSecond?: number;
	readonly frameMs?: number;
	/** The clock (tests pass their own); `Date.now` by default. */
	readonly now?: () => number;
};

export const defaultFrames = {busyPerSecond: 20, frameMs: 1000} as const;

export class RedrawFrames {
	private readonly due = new Set<() => void>();
	private timer: NodeJS.Timeout | undefined;
	/** The arrival rate, over windows of at least a second; a quiet second ends the window (and being busy) at once. */
	private windowStart: number;
	private windowCount = 0;
	private lastArrival = -Infinity;
	private busyNow = false;
	private readonly busyPerSecond: number;
	private readonly frameMs: number;
	private readonly now: () => number;

	constructor(options: RedrawFramesOptions = {}) {
		this.busyPerSecond = options.busyPerSecond ?? defaultFrames.busyPerSecond;
		this.frameMs = options.frameMs ?? defaultFrames.frameMs;
		this.now = options.now ?? Date.now;
		this.windowStart = this.now();
	}

	/** Whether changes wait for a frame (requests arrived faster than `busyPerSecond` over the last window). */
	get busy(): boolean {
		return this.busyNow;
	}

	/**
	 * Count requests as they finish, one at a time or in the worker's batches, and as they are read
	 * from the stored log (what the store's other gateways recorded); returns the unsubscribe function.
	 */
	listen(events: EventBus): () => void {
		const offSingle = events.on('request:finished', () => this.arrived(1));
		const offBatch = events.on('requests:batch', batch => this.arrived(batch.count));
		const offStored = events.on('requests:stored', batch => this.read(batch.count));
		return () => {
			offSingle();
			offBatch();
			offStored();
			this.stop();
		};
	}

	/**
	 * Requests read from the stored log: what other gateways recorded since the last read, about a
	 * second before (the log follows the store every second). Each read would otherwise be "the first
	 * after a quiet second", and a TUI watching a busy gateway on its store (its own port taken, say)
	 * redrew two to four times a second — the log, the charts, the totals each on its own. A read of
	 * `busyPerSecond` or more is busy from now; a smaller one counts as arrivals do.
	 */
	read(count: number): void {
		if (count < this.busyPerSecond) {
			this.arrived(count);
			return;
		}
		const now = this.now();
		this.busyNow = true;
		this.lastArrival = now;
		this.windowStart = now;
		this.windowCount = 0;
	}

	arrived(count: number): void {
		const now = this.now();
		// The first request after a quiet second is shown at once, however busy the window before was.
		const first = now - this.lastArrival >= 1000;
		if (first) {
			this.busyNow = false;
			this.windowStart = now;
			this.windowCount = 0;
		}
		this.lastArrival = now;
		this.windowCount += count;
		const elapsed = now - this.windowStart;
		if (elapsed < 1000) {
			// `busyPerSecond` requests before the window's second is out: busy from here, not from the
			// second's end. A burst's first second was otherwise drawn at the quiet pace — the log four
			// times, each other view once — while the gateway was at its busiest.
			if (!first && this.windowCount >= this.busyPerSecond) this.busyNow = true;
			return;
		}
		this.busyNow = this.windowCount >= (this.busyPerSecond * elapsed) / 1000;
		this.windowStart += elapsed;
		this.windowCount = 0;
	}

	/** Run `publish` now, or, while busy, at the next frame together with every other view's (the same function once). */
	publish(publish: () => void): void {
		if (!this.busyNow) {
			publish();
			return;
		}
		this.due.add(publish);
		this.timer ??= setTimeout(() => this.frame(), this.frameMs - (this.now() % this.frameMs));
	}

	/** Drop what waits (the views are going away). */
	stop(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		this.due.clear();
	}

	private frame(): void {
		this.timer = undefined;
		const due = [...this.due];
		this.due.clear();
		for (const publish of due) publish();
	}
}
