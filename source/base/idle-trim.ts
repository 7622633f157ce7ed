/**
 * Gives memory back after a burst of traffic. Under load V8 grows its young generation (to 32 MB
 * with Node's defaults) and its old space, and it only shrinks them after a major collection run
 * while the allocation rate is low — which never comes on its own, because an idle process
 * allocates next to nothing and so never collects: `serve` stayed at its loaded size (+40–50 MB
 * over idle after 10,000 requests) for as long as nobody called. So once no request has finished
 * for `quietMs` (30 s), the gateway runs one full collection, and a second one `secondPassMs` (6 s)
 * later if it is still quiet: the second sees only idle allocation and returns the young
 * generation's space. Both run once per quiet period (a long stream still in flight pays one
 * ~15 ms pause at most); the next finished request re-arms them. Start-up counts as traffic: its
 * allocations grow the young generation too.
 *
 * Why 30 s and not less: a young generation given back must grow again under the next burst, and
 * until it has (a second or two at full load) requests cost about a fifth more CPU and the p99
 * rises (measured with 5 s: 78 against 66 µs a request in the 3 s after each pause). Pauses
 * shorter than the quiet period — an agent between turns, a benchmark between rows — never pay it.
 * Nothing runs on the request path but a flag set.
 */
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import type {Clock} from './clock.js';
import type {EventBus} from './events.js';

export type IdleTrimOptions = {
	readonly clock: Clock;
	/** A full, synchronous garbage collection; by default V8's own (see `exposeGc`). Tests count calls. */
	readonly collect?: () => void;
	readonly quietMs?: number;
	readonly secondPassMs?: number;
	readonly tickMs?: number;
};

export const defaultIdleTrim = {quietMs: 30_000, secondPassMs: 6_000, tickMs: 1_000} as const;

/**
 * V8's `gc()` without starting Node with `--expose-gc`: the flag is turned on just long enough to
 * create one small context that has the function, so no other context (the gateway's own, a
 * user's `vm`) ever sees a `gc` global. A full collection by default; `{type: 'minor'}` collects the
 * young generation only (tests of what gets promoted). Undefined if this Node refuses the flag.
 */
export function exposeGc(): ((options?: {readonly type: 'minor' | 'major'}) => void) | undefined {
	try {
		setFlagsFromString('--expose-gc');
		const gc: unknown = runInNewContext('gc');
		return typeof gc === 'function' ? options => void (options ? gc(options) : gc()) : undefined;
	} catch {
		return undefined;
	} finally {
		setFlagsFromString('--no-expose-gc');
	}
}

export class IdleTrim {
	/** A request finished (or a batch arrived) since the last tick. */
	private touched = false;
	/** Start-up is a burst like any other (modules, the store, the first snapshot): the first quiet period begins with it. */
	private quietSince: number;
	/** Collections run in this quiet period: 0, 1 or 2 (done until a request finishes again). */
	private passes = 0;
	private collect: (() => void) | undefined;
	private triedGc = false;
	private readonly stops: Array<() => void> = [];

	constructor(private readonly options: IdleTrimOptions) {
		this.collect = options.collect;
		this.quietSince = options.clock.now();
	}

	/** Something happened (a request finished, a batch arrived): the quiet period starts again at the next tick. */
	touch(): void {
		this.touched = true;
	}

	/** Check for quiet every `tickMs` (and count finished requests on `events`, if given); returns the stop function. */
	start(events?: EventBus): () => void {
		if (events) this.stops.push(events.on('request:finished', () => this.touch()));
		this.stops.push(this.options.clock.every(this.options.tickMs ?? defaultIdleTrim.tickMs, () => this.tick()));
		return () => {
			for (const stop of this.stops.splice(0)) stop();
		};
	}

	private tick(): void {
		const now = this.options.clock.now();
		if (this.touched) {
			this.touched = false;
			this.quietSince = now;
			this.passes = 0;
			return;
		}
		if (this.passes >= 2) return;
		const quietMs = this.options.quietMs ?? defaultIdleTrim.quietMs;
		const due = this.passes === 0 ? quietMs : quietMs + (this.options.secondPassMs ?? defaultIdleTrim.secondPassMs);
		if (now - this.quietSince < due) return;
		this.passes++;
		if (!this.collect && !this.triedGc) {
			// Made at the first trim, not at start: a short-lived process never pays for the context.
			this.triedGc = true;
			this.collect = exposeGc();
		}
		this.collect?.();
	}
}
