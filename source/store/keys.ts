/**
 * The keys and key-activity namespaces: virtual keys as stored (the secret's SHA-256 is the lookup
 * index) and when each was last used. Read by the gateway's registry and by the admin services.
 */
import {createHash} from 'node:crypto';
import {activityRecordSchema, keyRecordSchema, type KeyRecord} from '../base/records.js';
import type {Store} from './index.js';
import {compareIso} from '../base/iso-time.js';

export function hashSecret(secret: string): string {
	return createHash('sha256').update(secret).digest('hex');
}

/** The secret is sealed at rest (store/sealing.ts); the hash, the lookup index, is not. */
export const keys = (store: Store) => store.collection('keys', keyRecordSchema, 'key', ['secret'], id => `gateway-tui keys delete ${id}`);
export const activity = (store: Store) => store.collection('activity', activityRecordSchema, 'key activity');

export type KeyState = 'active' | 'expired' | 'revoked';

export function keyState(key: Pick<KeyRecord, 'expiresAt' | 'revokedAt'>, now = Date.now()): KeyState {
	if (key.revokedAt) return 'revoked';
	if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired';
	return 'active';
}

export async function listKeys(store: Store): Promise<KeyRecord[]> {
	return (await keys(store).list()).sort((a, b) => compareIso(a.createdAt, b.createdAt));
}

/** Key id → when it was last used: one read of the activity namespace (no key, no secret is opened). */
export async function lastUsed(store: Store): Promise<Map<string, string>> {
	return new Map((await activity(store).entries()).map(([id, record]) => [id, record.lastUsedAt]));
}

/** Persist lastUsedAt for several keys (called in batches by the proxy, never per request). */
export async function recordLastUsed(store: Store, times: ReadonlyMap<string, string>): Promise<void> {
	for (const [id, lastUsedAt] of times) await activity(store).set(id, {v: 1, lastUsedAt});
}

