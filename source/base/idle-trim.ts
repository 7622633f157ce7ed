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
 *
 * After a surge, too: once `surgeConnections` (256) or more client connections have been open at
 * once, and their number has since fallen to an eighth of that peak, one full collection runs at
 * the next tick. A surge — 2,000 agents' streams at once — leaves its dead requests in the old
 * generation, which V8 grew for them and does not collect until it fills again, so the next surge
 * piled its own on top: `serve`'s peak climbed 155 → 203 → 248 MB over three bursts of 2,000 slow
 * streams one and a half seconds apart (the bare relay's 162 → 184 → 221), and with this
 * collection held at 159–173. It costs one pause (20–30 ms with 2,000 streams' garbage) while few
 * requests are in flight, once per surge; the idle trim still follows when traffic stops.
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
	/** Client connections open now and the most open at once since the last call (ConnectionCap.load); without it, no surge trim. */
	readonly connections?: () => {readonly open: number; readonly peak: number};
	/** A peak of this many connections is a surge: collected after once they fall to an eighth of it. */
	readonly surgeConnections?: number;
};

export const defaultIdleTrim = {quietMs: 30_000, secondPassMs: 6_000, tickMs: 1_000, surgeConnections: 256} as const;

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
	/** The most connections open at once since the last surge trim (or start). */
	private surgePeak = 0;
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
		if (this.surgeEnded()) this.runCollection();
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
		this.runCollection();
	}

	/** A surge of connections was seen and has passed: its peak reached `surgeConnections` and what is open now is an eighth of it or less. */
	private surgeEnded(): boolean {
		if (!this.options.connections) return false;
		const {open, peak} = this.options.connections();
		this.surgePeak = Math.max(this.surgePeak, peak);
		if (this.surgePeak < (this.options.surgeConnections ?? defaultIdleTrim.surgeConnections) || open > this.surgePeak / 8) return false;
		this.surgePeak = open;
		return true;
	}

	private runCollection(): void {
		if (!this.collect && !this.triedGc) {
			// Made at the first trim, not at start: a short-lived process never pays for the context.
			this.triedGc = true;
			this.collect = exposeGc();
		}
		this.collect?.();
	}
}
