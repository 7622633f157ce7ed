/**
 * `store rotate-key`: seal every secret in the store (keys' secrets, channels' real keys, stored
 * Responses conversations) under a new master key — plaintexts written before sealing existed
 * included. The new key goes where the old one lives, and the old key stays beside it until every
 * record is rewritten, so a rotation cut short loses nothing (both keys open; run it again): with a key
 * file, the old key is kept in `master.key.old`; in the OS keychain, the entry holds the new key and
 * then the old ones. With GATEWAY_TUI_MASTER_KEY, the new key is handed back to print: every gateway on
 * the store needs it.
 */
import {randomBytes} from 'node:crypto';
import {appendFileSync, copyFileSync, existsSync, readFileSync, rmSync} from 'node:fs';
import type {Store} from './index.js';
import {channels} from './channels.js';
import {systemKeychain, type Keychain} from './keychain.js';
import {keys} from './keys.js';
import {resealTurns} from './responses.js';
import {Sealer, entryKeys, entryText, writeKeyFile, type KeySource} from './sealing.js';
import {StoreError} from './errors.js';

export type Rotation = {
	readonly keys: number;
	readonly channels: number;
	readonly responses: number;
	readonly source: KeySource['kind'];
	readonly where: string;
	readonly newKey?: string;
	/** Set when the old key could not be dropped afterwards (it still opens nothing but old values). */
	readonly warning?: string;
};

export type RotateOptions = {
	readonly env?: NodeJS.ProcessEnv;
	/** The OS keychain the key lives in (tests give one); default: this OS's. */
	readonly keychain?: Keychain | null;
};

/** Where the new key goes, before and after the records are rewritten. */
type KeyHome = {begin(fresh: Buffer): void; finish(fresh: Buffer): string | undefined};

function fileHome(file: string): KeyHome {
	return {
		begin(fresh) {
			// Keep every older key: a second rotation cut short must still open what the first one left.
			if (existsSync(`${file}.old`)) appendFileSync(`${file}.old`, `${readFileSync(file, 'utf8').trim()}\n`, {mode: 0o600});
			else copyFileSync(file, `${file}.old`);
			writeKeyFile(file, fresh);
		},
		finish() {
			rmSync(`${file}.old`, {force: true});
			return undefined;
		},
	};
}

function keychainHome(source: KeySource, options: RotateOptions): KeyHome {
	const keychain = options.keychain === undefined ? systemKeychain(options.env ?? process.env) : options.keychain;
	if (!keychain || keychain.where !== source.where) throw new StoreError(`Cannot reach ${source.where}, where the master key is: nothing was changed.`);
	return {
		begin(fresh) {
			const read = keychain.read();
			if (read.state !== 'found') throw new StoreError(`Cannot read the master key in ${keychain.where} (${read.state === 'failed' ? read.reason : 'no such entry'}): nothing was changed.`);
			// The new key first (it seals), then every key the entry held (they still open the records not yet rewritten).
			const wrote = keychain.write(entryText([fresh, ...entryKeys(read.secret, keychain.where)]));
			if (!wrote.ok) throw new StoreError(`Cannot store the new master key in ${keychain.where} (${wrote.reason}): nothing was changed.`);
		},
		finish(fresh) {
			const wrote = keychain.write(entryText([fresh]));
			return wrote.ok ? undefined : `every record is sealed under the new key, but the old key is still in ${keychain.where} beside it (${wrote.reason}); run \`gateway-tui store rotate-key\` again to drop it.`;
		},
	};
}

export async function rotateMasterKey(store: Store, options: RotateOptions = {}): Promise<Rotation> {
	const old = store.sealer();
	// Read everything with the old key first: a record it cannot open stops the rotation before any write.
	const [allKeys, allChannels] = await Promise.all([keys(store).list(), channels(store).list()]);
	const fresh = randomBytes(32);
	const home = old.source.kind === 'file' ? fileHome(old.source.where) : old.source.kind === 'keychain' ? keychainHome(old.source, options) : undefined;
	home?.begin(fresh);
	const sealer = new Sealer(fresh, old.source);
	store.useSealer(sealer);
	for (const key of allKeys) await keys(store).set(key.id, key);
	for (const channel of allChannels) await channels(store).set(channel.id, channel);
	const responses = await resealTurns(store, old, sealer);
	await store.bumpRevision();
	const warning = home?.finish(fresh);
	return {
		keys: allKeys.length,
		channels: allChannels.length,
		responses,
		source: old.source.kind,
		where: old.source.where,
		...(old.source.kind === 'env' ? {newKey: fresh.toString('hex')} : {}),
		...(warning ? {warning} : {}),
	};
}
