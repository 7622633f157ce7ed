/**
 * `store rotate-key`: seal every secret in the store (keys' secrets, channels' real keys, stored
 * Responses conversations) under a new
 * master key — plaintexts written before sealing existed included. With a key file, the old key is
 * kept as `master.key.old` until every record is rewritten, so a rotation cut short loses nothing
 * (both keys open; run it again). With GATEWAY_TUI_MASTER_KEY, the new key is handed back to print:
 * every gateway on the store needs it.
 */
import {randomBytes} from 'node:crypto';
import {copyFileSync, existsSync, rmSync} from 'node:fs';
import type {Store} from './index.js';
import {channels} from './channels.js';
import {keys} from './keys.js';
import {resealTurns} from './responses.js';
import {Sealer, writeKeyFile} from './sealing.js';

export type Rotation = {readonly keys: number; readonly channels: number; readonly responses: number; readonly source: 'env' | 'file'; readonly where: string; readonly newKey?: string};

export async function rotateMasterKey(store: Store): Promise<Rotation> {
	const old = store.sealer();
	// Read everything with the old key first: a record it cannot open stops the rotation before any write.
	const [allKeys, allChannels] = await Promise.all([keys(store).list(), channels(store).list()]);
	const fresh = randomBytes(32);
	if (old.source.kind === 'file') {
		if (!existsSync(`${old.source.where}.old`)) copyFileSync(old.source.where, `${old.source.where}.old`);
		writeKeyFile(old.source.where, fresh);
	}
	const sealer = new Sealer(fresh, old.source);
	store.useSealer(sealer);
	for (const key of allKeys) await keys(store).set(key.id, key);
	for (const channel of allChannels) await channels(store).set(channel.id, channel);
	const responses = await resealTurns(store, old, sealer);
	await store.bumpRevision();
	if (old.source.kind === 'file') rmSync(`${old.source.where}.old`, {force: true});
	return {keys: allKeys.length, channels: allChannels.length, responses, source: old.source.kind, where: old.source.where, ...(old.source.kind === 'env' ? {newKey: fresh.toString('hex')} : {})};
}
