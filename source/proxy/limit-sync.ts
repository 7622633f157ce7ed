/**
 * Keeping a gateway's limiter in step with usage: seeded from the persisted usage at start (a
 * restart keeps a day's and a month's spend), then fed every finished request's tokens and cost.
 */
import type {EventBus} from '../base/events.js';
import type {KeyRecord} from '../base/records.js';
import type {Store} from '../store/index.js';
import {persistedUse} from '../store/limit-use.js';
import type {KeyLimiter} from './limits.js';
import type {Registry} from './registry.js';

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
