/**
 * Which instance a gateway process records as. A process adopts the most recently *cleanly closed*
 * instance, so a user who restarts the gateway all day keeps one journal rather than hundreds; a
 * process that crashed is never adopted (its totals stay as they were flushed) and two processes
 * running at once always hold different instances.
 *
 * Keyv has no compare-and-set, so a claim is written, left to settle, and read back: of two
 * processes starting together and claiming the same instance, only the last writer finds its own
 * token and keeps it; the other starts a fresh instance.
 */
import {randomBytes} from 'node:crypto';
import type {Store} from './index.js';
import {journals, type Journal} from './usage.js';
import {compareIso} from '../base/iso-time.js';

export function newJournal(owner: string, now = new Date()): Journal {
	const time = now.toISOString();
	return {v: 1, instance: `inst_${randomBytes(6).toString('hex')}`, owner, startedAt: time, updatedAt: time, closedAt: null, nextSeq: 0, chunks: [], days: []};
}

export function newOwnerToken(): string {
	return randomBytes(9).toString('base64url');
}

/** The adopted instance's journal (now owned by `owner`), or null: then the caller starts a fresh one. */
export async function claimInstance(store: Store, owner: string, settleMs = 150): Promise<Journal | null> {
	const closed = (await journals(store).list()).filter(journal => journal.closedAt !== null).sort((a, b) => compareIso(b.closedAt!, a.closedAt!));
	const candidate = closed[0];
	if (candidate) {
		const now = new Date().toISOString();
		await journals(store).set(candidate.instance, {...candidate, owner, closedAt: null, updatedAt: now});
		await new Promise(resolve => setTimeout(resolve, settleMs));
		const check = await journals(store).get(candidate.instance);
		if (check?.owner === owner && check.closedAt === null) return check;
	}
	return null;
}
