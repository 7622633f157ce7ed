/**
 * Where the gateway's time comes from. Cooldowns, limit windows and usage flushes read `now` and
 * schedule with `every` instead of touching `Date.now` and `setInterval`, so a test can hand in a
 * fake clock and advance it rather than wait on the wall clock (test/helpers/fake-clock.ts).
 */
export type Clock = {
	/** Milliseconds since the epoch, like `Date.now()`. A plain function, so it may be passed on alone. */
	readonly now: () => number;
	/**
	 * Run `task` every `ms` until the returned function is called. The task must not reject; a
	 * promise it returns lets a fake clock wait for the work (a store write) before firing the next timer.
	 */
	readonly every: (ms: number, task: () => void | Promise<void>) => () => void;
};

export const systemClock: Clock = Object.freeze({
	now: () => Date.now(),
	every: (ms: number, task: () => void | Promise<void>) => {
		const timer = setInterval(task, ms);
		// Background work (flushes, pruning) must never keep a finished process alive.
		timer.unref();
		return () => clearInterval(timer);
	},
});
