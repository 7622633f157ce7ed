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
 * And after a surge under a trickle of traffic, which is never quiet: once `surgeConnections` (256)
 * or more client connections have been open at once and their number has stayed at an eighth of
 * that peak or below for `quietMs`, one full collection. A surge — 2,000 agents' streams — leaves
 * its dead requests in an old generation V8 grew for them; without a collection they stay until it
 * fills again. Not at once when the surge falls: the next surge would have to grow the heap again,
 * marking its live streams as it does — collected right after each of three bursts of 2,000 slow
 * streams, `serve`'s peak held at 176–180 MB instead of climbing 176 → 222 → 231, but the later
 * bursts' first-byte p99 stayed at 1.3–1.4 s where it had fallen to 0.6–1.0 s. Surges closer
 * together than the quiet period keep their heap; any collection counts for both rules.
 *
 * And while a surge is on — `surgeConnections` or more at once, until they fall to an eighth — V8
 * may grow its old generation to only twice what its last full collection kept
 * (`--heap-growing-percent=100`; V8's own factor goes up to four times when collections are cheap
 * next to the work, as they are under load). A surge's requests die old: each lives as long as its
 * stream and is promoted out of the young generation on the way, and with a factor of four three
 * bursts of 2,000 slow streams a second apart took `serve` from ~157 to 221–240 MB, the garbage of
 * the first two kept for lack of a full collection; bounded during each surge, to 183–191 MB, the
 * bare relay's own range (153–192), with first bytes and wall times no later (the slower host,
 * twenty-ninth session, old and new builds alternating). Only during a surge: at 32 connections
 * the heap is small and steady, and a smaller factor there cost 2–7 % of throughput (measured with
 * 20–50 % in the twentieth session). The flag is process-wide (the TUI's two threads share it):
 * given back to V8's own choice when the surge is over or the trim stops, and set again each tick
 * of a surge.
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
	/** A peak of this many connections is a surge: collected after once they have been at an eighth of it or fewer for `quietMs`. */
	readonly surgeConnections?: number;
	/** Sets V8's old-generation growth (`--heap-growing-percent`; 0: V8's own); by default the flag itself. Tests record calls. */
	readonly heapGrowth?: (percent: number) => void;
};

export const defaultIdleTrim = {quietMs: 30_000, secondPassMs: 6_000, tickMs: 1_000, surgeConnections: 256} as const;

/** The old generation's growth while a surge is on: to twice what the last full collection kept. */
export const surgeHeapGrowingPercent = 100;

export function setHeapGrowth(percent: number): void {
	try {
		setFlagsFromString(`--heap-growing-percent=${percent}`);
	} catch {
		// A Node that refuses the flag keeps V8's own growth.
	}
}

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
	/** The most connections open at once since the last collection (or start). */
	private surgePeak = 0;
	/** When the open connections fell to an eighth of a surge's peak (null: no surge, or not fallen yet). */
	private surgeFellAt: number | null = null;
	/** Whether this trim has bounded the heap's growth for a surge (and must give V8 its own back). */
	private bounded = false;
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
		this.stops.push(() => this.boundHeap(false));
		return () => {
			for (const stop of this.stops.splice(0)) stop();
		};
	}

	private tick(): void {
		const now = this.options.clock.now();
		const surgeOver = this.surgeOver(now);
		if (this.idlePassDue(now) || surgeOver) this.runCollection();
	}

	/** The quiet-period rule: one pass `quietMs` after the last finished request, a second `secondPassMs` later. */
	private idlePassDue(now: number): boolean {
		if (this.touched) {
			this.touched = false;
			this.quietSince = now;
			this.passes = 0;
			return false;
		}
		if (this.passes >= 2) return false;
		const quietMs = this.options.quietMs ?? defaultIdleTrim.quietMs;
		const due = this.passes === 0 ? quietMs : quietMs + (this.options.secondPassMs ?? defaultIdleTrim.secondPassMs);
		if (now - this.quietSince < due) return false;
		this.passes++;
		return true;
	}

	/** The surge rule: a peak of `surgeConnections` or more, then an eighth of it or fewer open for `quietMs`. */
	private surgeOver(now: number): boolean {
		if (!this.options.connections) return false;
		const {open, peak} = this.options.connections();
		// Still high, or a new burst since the last tick (one that came and went between two ticks too): the wait starts again.
		if (peak > this.surgePeak / 8) {
			this.surgePeak = Math.max(this.surgePeak, peak);
			this.surgeFellAt = null;
		}
		const surge = this.surgePeak >= (this.options.surgeConnections ?? defaultIdleTrim.surgeConnections);
		const fallen = open <= this.surgePeak / 8;
		this.boundHeap(surge && !fallen);
		if (!surge || !fallen) return false;
		this.surgeFellAt ??= now;
		return now - this.surgeFellAt >= (this.options.quietMs ?? defaultIdleTrim.quietMs);
	}

	/** During a surge, the heap's growth bounded (again each tick: another gateway in this process may have ended its own); after it, V8's own. */
	private boundHeap(on: boolean): void {
		if (!on && !this.bounded) return;
		this.bounded = on;
		(this.options.heapGrowth ?? setHeapGrowth)(on ? surgeHeapGrowingPercent : 0);
	}

	private runCollection(): void {
		if (!this.collect && !this.triedGc) {
			// Made at the first trim, not at start: a short-lived process never pays for the context.
			this.triedGc = true;
			this.collect = exposeGc();
		}
		this.collect?.();
		// A collection serves both rules: the surge, if any, is over.
		this.surgePeak = 0;
		this.surgeFellAt = null;
	}
}
