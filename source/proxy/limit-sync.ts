/**
 * Keeping a gateway's limiter in step with usage: seeded from the persisted usage at start (a
 * restart keeps a day's and a month's spend) and again for a key whose limits change while it runs,
 * then fed every finished request's tokens and cost.
 */
import type {EventBus} from '../base/events.js';
import type {KeyRecord} from '../base/records.js';
import type {Store} from '../store/index.js';
import {persistedUse} from '../store/limit-use.js';
import type {KeyLimiter} from './limits.js';
import type {Registry, Snapshot} from './registry.js';

/** Seed a gateway's limiter from the persisted usage, so a restart keeps a day's and a month's spend. */
export async function restoreLimits(limiter: KeyLimiter, store: Store, keys: readonly KeyRecord[]): Promise<void> {
	for (const [id, use] of await persistedUse(store, keys)) {
		const key = keys.find(item => item.id === id);
		if (key) await limiter.restore(key, use);
	}
}

/** Feed each finished request's tokens and cost to the limiter (token limits and budgets). */
export function countLimitedUse(limiter: KeyLimiter, registry: Registry, events: EventBus): () => void {
	return events.on('request:finished', event => {
		if (!event.keyId || !event.usage) return;
		const snapshot = registry.snapshot;
		const key = snapshot.keysById.get(event.keyId);
		if (!key?.limits) return;
		// The record was priced once, when the request ended (proxy/exchange.ts): the limiter takes that price.
		limiter.record(key, event.usage.inputTokens + event.usage.outputTokens, event.costUsd);
	});
}

/**
 * Seed a key's counters again, from the persisted usage as at start, when its limits change while
 * the gateway runs: a budget added to a key that already spent this month, a budget moved to
 * another period, a `--tpm` set mid-minute. Its counters would otherwise start at zero (the gateway
 * counts only keys with limits, and a budget only in its own period), so the key could spend a whole
 * budget again on top of what `keys list` and a restarted gateway count. It runs as the registry's
 * `prepare`, before the new limits apply; usage still in memory is written first, so the last
 * second's requests are in what is read. Never rejects: a store that cannot say is a warning.
 */
export function reseedChangedLimits(deps: {readonly limiter: KeyLimiter; readonly store: Store; readonly events: EventBus; readonly flushUsage: () => Promise<void>}): {readonly prepare: (next: Snapshot, previous: Snapshot) => Promise<void>; readonly stop: () => void} {
	const {limiter, store, events, flushUsage} = deps;
	let stopped = false;
	const prepare = async (next: Snapshot, previous: Snapshot): Promise<void> => {
		const changed = [...next.keysById.values()].filter(key => key.limits && limitsSignature(key) !== limitsSignature(previous.keysById.get(key.id)));
		if (changed.length === 0 || stopped) return;
		try {
			await flushUsage();
			for (const [id, use] of await persistedUse(store, changed)) {
				const key = changed.find(item => item.id === id);
				// A budget set past its warning threshold warns now (a restart's restore stays quiet).
				if (key && !stopped) await limiter.restore(key, use, true);
			}
		} catch (error) {
			if (stopped) return;
			const names = changed.map(key => `"${key.name}"`).join(', ');
			events.emit('warning', {
				message: `The limits of ${changed.length === 1 ? 'key' : 'keys'} ${names} changed, but what ${changed.length === 1 ? 'it' : 'they'} used in their current windows could not be read from the store (${(error as Error).message}): this gateway counts from what it has seen itself until it restarts. Restart it once the store answers.`,
			});
		}
	};
	return {
		prepare,
		stop: () => {
			stopped = true;
		},
	};
}

/** A key's limits as one comparable string (not the text shown to people: that is services/limit-flags.ts's `limitsText`). */
const limitsSignature = (key: KeyRecord | undefined): string => JSON.stringify(key?.limits ?? null);
