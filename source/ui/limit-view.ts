/**
 * What each limited key has used of its limits, for the Keys pane: live from the in-process
 * gateway's limiter (memory only, so cheap to read), or, when this process does not serve (its
 * port was taken), from the persisted usage, as `gateway-tui keys list` reads it. Re-read a moment
 * after requests finish and every `pollMs` (windows roll over, keys change); published only when
 * a number changed.
 */
import type {EventBus} from '../base/events.js';
import type {KeyLimiter} from '../proxy/limits.js';
import type {KeyRecord} from '../base/records.js';
import {ExternalStore} from './external-store.js';
import type {RedrawFrames} from './redraw-frames.js';
import {onRequestsFinished} from './request-events.js';
import {type LimitUse} from '../base/periods.js';

/** Key id → what it used in its current windows. */
export type LimitUseMap = ReadonlyMap<string, LimitUse>;

export type LimitUseSource = (keys: readonly KeyRecord[]) => Promise<LimitUseMap> | LimitUseMap;

/** The live counters of the gateway running in this process. */
export function liveLimitUse(limiter: Pick<KeyLimiter, 'useOfKeys'>): LimitUseSource {
	return keys => limiter.useOfKeys(keys);
}

const fields = ['rpm', 'rpd', 'tpm', 'tpd', 'spendUsd'] as const;

export function sameUse(a: LimitUseMap, b: LimitUseMap): boolean {
	if (a.size !== b.size) return false;
	return [...a].every(([id, use]) => {
		const other = b.get(id);
		return other !== undefined && fields.every(field => use[field] === other[field]);
	});
}

export type LimitViewOptions = {
	readonly delayMs?: number;
	/** How often the use is read again; a promise while that depends on what is not known yet (the TUI's core starting). */
	readonly pollMs?: number | Promise<number>;
	readonly frames?: RedrawFrames;
	/** What the keys used, already read (the TUI's first frame); read again once the view is watched. */
	readonly initial?: LimitUseMap;
};

export function createLimitView(events: EventBus, keys: () => readonly KeyRecord[], source: LimitUseSource, {delayMs = 250, pollMs = 2000, frames, initial}: LimitViewOptions = {}): ExternalStore<LimitUseMap> {
	let pending: NodeJS.Timeout | undefined;
	const store: ExternalStore<LimitUseMap> = new ExternalStore<LimitUseMap>(initial ?? new Map(), {intervalMs: 0, equals: sameUse, connect: () => connect(), frames});
	return store;

	function connect(): () => void {
		const refresh = () => {
			pending = undefined;
			Promise.resolve()
				.then(() => source(keys()))
				.then(
					use => store.set(use),
					() => {}, // the last numbers stay; the Keys pane still shows the limits themselves
				);
		};
		refresh();
		const off = onRequestsFinished(events, () => {
			pending ??= setTimeout(refresh, delayMs);
		});
		let poll: NodeJS.Timeout | undefined;
		let connected = true;
		const every = (ms: number) => {
			if (connected) poll = setInterval(() => (pending ??= setTimeout(refresh, 0)), ms);
		};
		if (typeof pollMs === 'number') every(pollMs);
		else pollMs.then(every, () => every(5000));
		return () => {
			connected = false;
			off();
			clearInterval(poll);
			if (pending) clearTimeout(pending);
			pending = undefined;
		};
	}
}
