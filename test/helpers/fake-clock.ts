/**
 * A clock the test moves by hand: `now` stands still until `advance`, which fires the timers that
 * fall due on the way, earliest first, each at its own time. A timer whose task returns a promise
 * (the usage recorder's flush writing to the store) is awaited before the next one fires, so after
 * `await clock.advance(ms)` everything those timers started has landed.
 */
import type {Clock} from '../../source/base/clock.js';

type Timer = {due: number; readonly ms: number; readonly task: () => void | Promise<void>};

export class FakeClock implements Clock {
	private time: number;
	/** In the order they were scheduled, which breaks ties between timers due at the same time. */
	private readonly timers = new Set<Timer>();

	constructor(start: number | string | Date = Date.now()) {
		this.time = new Date(start).getTime();
	}

	readonly now = (): number => this.time;

	readonly every = (ms: number, task: () => void | Promise<void>): (() => void) => {
		// A zero period would fire forever within one advance.
		if (!(ms > 0)) throw new Error(`FakeClock.every needs a period above 0 ms, got ${ms}`);
		const timer: Timer = {due: this.time + ms, ms, task};
		this.timers.add(timer);
		return () => this.timers.delete(timer);
	};

	/** Timers still scheduled (a closed recorder leaves none). */
	get pending(): number {
		return this.timers.size;
	}

	/** Move time forward by `ms`, firing (and awaiting) every timer that falls due on the way. */
	async advance(ms: number): Promise<void> {
		const target = this.time + ms;
		for (let timer = this.next(target); timer; timer = this.next(target)) {
			this.time = timer.due;
			timer.due += timer.ms;
			await timer.task();
		}
		this.time = target;
	}

	/** The earliest timer due by `target`. */
	private next(target: number): Timer | undefined {
		let first: Timer | undefined;
		for (const timer of this.timers) if (timer.due <= target && (!first || timer.due < first.due)) first = timer;
		return first;
	}
}
