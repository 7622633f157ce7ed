/**
 * Secrets at rest: the real keys of channels and the secrets of virtual keys are sealed with
 * AES-256-GCM before they reach the store, so a copied or synced store file (or a dump of a shared
 * Redis or PostgreSQL) holds no usable key. The master key never goes into the store. It comes from
 * `GATEWAY_TUI_MASTER_KEY`, else the file `GATEWAY_TUI_MASTER_KEY_FILE`, else an existing `master.key`
 * (0600) in the per-user config directory, else the OS keychain (keychain.ts: its entry, created there
 * when missing), else a new `master.key`. `GATEWAY_TUI_MASTER_KEY_STORE=keychain|file` chooses
 * explicitly. Gateways sharing one store must share the key.
 * A value without the sealed prefix is a plaintext written before sealing existed: read as it is,
 * sealed the next time it is written (or by `store rotate-key`).
 */
import {createCipheriv, createDecipheriv, randomBytes, scryptSync} from 'node:crypto';
import {existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {dirname, join} from 'node:path';
import envPaths from 'env-paths';
import {writeFileAtomically} from '../base/atomic-write.js';
import {StoreError} from './errors.js';
import {systemKeychain, type Keychain} from './keychain.js';

const prefix = 'gtui-sealed:v1:';

/** Where the master key came from, for messages (never the key itself). */
export type KeySource = {readonly kind: 'env' | 'file' | 'keychain'; readonly where: string};

export class Sealer {
	/** `previous`: keys that may still open older values (a rotation cut short), never used to seal. */
	constructor(
		private readonly key: Buffer,
		readonly source: KeySource,
		private readonly previous: readonly Buffer[] = [],
	) {}

	static isSealed(value: string): boolean {
		return value.startsWith(prefix);
	}

	seal(plain: string): string {
		const iv = randomBytes(12);
		const cipher = createCipheriv('aes-256-gcm', this.key, iv);
		const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
		return prefix + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
	}

	/** The plaintext of a sealed value (a legacy plaintext as it is); throws when this key did not seal it. */
	open(value: string): string {
		if (!Sealer.isSealed(value)) return value;
		const raw = Buffer.from(value.slice(prefix.length), 'base64url');
		for (const key of [this.key, ...this.previous]) {
			try {
				const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
				decipher.setAuthTag(raw.subarray(12, 28));
				return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
			} catch {
				// not this key: try the next
			}
		}
		{
			throw new StoreError(
				`The store's secrets were sealed with another master key than the one this gateway has (${describe(this.source)}). ` +
					'Give it the key the store was written with: set GATEWAY_TUI_MASTER_KEY (or GATEWAY_TUI_MASTER_KEY_FILE) as on the other gateways. Nothing was changed.',
			);
		}
	}
}

export function describe(source: KeySource): string {
	return source.kind === 'env' ? 'from GATEWAY_TUI_MASTER_KEY' : `from ${source.where}`;
}

/** 32 bytes as 64 hex digits or base64; anything else is a passphrase, stretched with scrypt. */
export function parseMasterKey(text: string): Buffer {
	const trimmed = text.trim();
	if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
	const base64 = Buffer.from(trimmed, 'base64');
	if (base64.length === 32 && /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return base64;
	if (trimmed.length < 16) throw new StoreError('GATEWAY_TUI_MASTER_KEY is too short: give 32 bytes as 64 hex digits or base64, or a passphrase of at least 16 characters.');
	return scryptSync(trimmed, 'gateway-tui master key', 32);
}


/** The master key file: GATEWAY_TUI_MASTER_KEY_FILE, else `master.key` in the per-user config directory. */
export function defaultKeyFile(env: NodeJS.ProcessEnv = process.env): string {
	return env.GATEWAY_TUI_MASTER_KEY_FILE || join(configDirectory(env), 'master.key');
}

/** env-paths' config directory for gateway-tui, read from `env` (so a test's or a child's environment is the one obeyed). */
function configDirectory(env: NodeJS.ProcessEnv): string {
	if (env === process.env) return envPaths('gateway-tui', {suffix: ''}).config;
	const home = env.HOME || homedir();
	if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'gateway-tui');
	if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'gateway-tui', 'Config');
	return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'gateway-tui');
}

/**
 * Beside the key file, no secret in it: "the master key is in the keychain". Once it exists the keychain
 * is the only place the key is looked for (unless a key file or the environment gives one), so a
 * keychain that is locked or unreachable one day is an error, never a new key in a file that would
 * shadow the real one.
 */
export function keychainMarker(file: string): string {
	return join(dirname(file), 'master-key-in-keychain');
}

export type KeyStoreChoice = 'auto' | 'keychain' | 'file';

/** GATEWAY_TUI_MASTER_KEY_STORE: `keychain` or `file` to choose, unset (or `auto`) for the default order. */
export function keyStoreChoice(env: NodeJS.ProcessEnv = process.env): KeyStoreChoice {
	const value = (env.GATEWAY_TUI_MASTER_KEY_STORE ?? '').trim().toLowerCase();
	if (value === '' || value === 'auto') return 'auto';
	if (value === 'keychain' || value === 'file') return value;
	throw new StoreError(`GATEWAY_TUI_MASTER_KEY_STORE=${env.GATEWAY_TUI_MASTER_KEY_STORE} is not valid: give keychain or file (or leave it unset).`);
}

/** Write a master key to `file` (0600, directory 0700), replacing it in one step; returns it. */
export function writeKeyFile(file: string, key: Buffer): Buffer {
	writeFileAtomically(file, `${key.toString('hex')}\n`);
	return key;
}

/** A new key file (or `key`'s) that does not exist yet; when another process made it first, theirs. */
function createKeyFile(file: string, key: Buffer = randomBytes(32)): Buffer {
	mkdirSync(dirname(file), {recursive: true, mode: 0o700});
	try {
		writeFileSync(file, `${key.toString('hex')}\n`, {mode: 0o600, flag: 'wx'});
		return key;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parseMasterKey(readFileSync(file, 'utf8'));
		throw error;
	}
}

/** The older keys a rotation cut short left beside the key file, one a line. */
function oldKeys(file: string): Buffer[] {
	if (!existsSync(`${file}.old`)) return [];
	return readFileSync(`${file}.old`, 'utf8').split('\n').filter(line => line.trim() !== '').map(parseMasterKey);
}

/** The key file's key and the older ones beside it. */
function fileKeys(file: string): Buffer[] {
	fileSealer(file); // the usual messages for a file that is not valid
	return [parseMasterKey(readFileSync(file, 'utf8')), ...oldKeys(file)];
}

function fileSealer(file: string, created?: readonly Buffer[]): Sealer {
	try {
		if (created && !existsSync(file)) {
			createKeyFile(file, created[0]);
			if (created.length > 1) writeFileAtomically(`${file}.old`, created.slice(1).map(key => `${key.toString('hex')}\n`).join(''));
		}
		const key = existsSync(file) ? parseMasterKey(readFileSync(file, 'utf8')) : createKeyFile(file);
		// A rotation cut short leaves the old keys beside the new one: all open, only the new one seals.
		return new Sealer(key, {kind: 'file', where: file}, oldKeys(file));
	} catch (error) {
		if (error instanceof StoreError) throw new StoreError(`The master key file ${file} is not valid: ${error.message}`);
		throw new StoreError(`Cannot read or create the master key file ${file} (${(error as Error).message}). Set GATEWAY_TUI_MASTER_KEY_FILE to a file you can write, or GATEWAY_TUI_MASTER_KEY.`, {cause: error});
	}
}

/**
 * The keys of a keychain entry: one key, or (a rotation cut short) the new key then the older ones,
 * comma-separated. The first seals; all open.
 */
export function entryKeys(secret: string, where: string): Buffer[] {
	try {
		return secret.split(',').map(parseMasterKey);
	} catch (error) {
		throw new StoreError(`The master key in ${where} is not valid: ${(error as Error).message}`);
	}
}

/** The entry's text for these keys. */
export function entryText(keys: readonly Buffer[]): string {
	return keys.map(key => key.toString('hex')).join(',');
}

function keychainSealer(keychain: Keychain, keys: readonly Buffer[]): Sealer {
	return new Sealer(keys[0]!, {kind: 'keychain', where: keychain.where}, keys.slice(1));
}

function sleep(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export type LoadOptions = {
	/** The OS keychain (tests give one with another runner); default: this OS's, null for none. */
	readonly keychain?: Keychain | null;
	/** One line for the user (default: stderr, as `warning: …`). */
	readonly warn?: (line: string) => void;
};

const choose = 'Set GATEWAY_TUI_MASTER_KEY_STORE=keychain to insist on the keychain, or =file to stop trying it';

/**
 * The master key of this process: GATEWAY_TUI_MASTER_KEY, else GATEWAY_TUI_MASTER_KEY_FILE, else an
 * existing `master.key`, else the OS keychain (its entry; a new one created there), else a new
 * `master.key`. GATEWAY_TUI_MASTER_KEY_STORE=keychain|file chooses; an existing key is only ever copied
 * to the chosen place, never replaced by a new one.
 */
export function loadSealer(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Sealer {
	if (env.GATEWAY_TUI_MASTER_KEY) return new Sealer(parseMasterKey(env.GATEWAY_TUI_MASTER_KEY), {kind: 'env', where: 'GATEWAY_TUI_MASTER_KEY'});
	if (env.GATEWAY_TUI_MASTER_KEY_FILE) return fileSealer(env.GATEWAY_TUI_MASTER_KEY_FILE);
	const choice = keyStoreChoice(env);
	const file = defaultKeyFile(env);
	const marker = keychainMarker(file);
	const warn = options.warn ?? ((line: string) => void process.stderr.write(`warning: ${line}\n`));
	const keychain = (): Keychain | null => (options.keychain === undefined ? systemKeychain(env) : options.keychain);

	if (choice === 'file') {
		if (existsSync(file) || !existsSync(marker)) return fileSealer(file);
		// The key is in the keychain and the user wants it in a file: copy it there, never a new one.
		const chain = keychain();
		const read = chain?.read();
		if (!chain || read?.state !== 'found') {
			const why = !chain ? 'this system has no keychain tool' : read?.state === 'failed' ? read.reason : 'there is no such entry';
			throw new StoreError(`GATEWAY_TUI_MASTER_KEY_STORE=file, but the master key is in ${chain?.where ?? 'the OS keychain'} (${marker}) and cannot be copied to ${file}: ${why}. Unlock the keychain and try again, or give the key with GATEWAY_TUI_MASTER_KEY.`);
		}
		const sealer = fileSealer(file, entryKeys(read.secret, chain.where));
		warn(`copied the master key from ${chain.where} to ${file} (GATEWAY_TUI_MASTER_KEY_STORE=file); the keychain entry and ${marker} are left as they were.`);
		return sealer;
	}
	if (choice === 'auto' && existsSync(file)) return fileSealer(file);

	const chain = keychain();
	const required = choice === 'keychain' || existsSync(marker);
	const why = choice === 'keychain' ? 'GATEWAY_TUI_MASTER_KEY_STORE=keychain' : `${marker} says so`;
	if (!chain) {
		if (!required) return fileSealer(file);
		throw new StoreError(`The master key is to be in the OS keychain (${why}), but this system has none that gateway-tui can use (secret-tool on Linux, security on macOS). Give the key with GATEWAY_TUI_MASTER_KEY, or set GATEWAY_TUI_MASTER_KEY_STORE=file.`);
	}
	let read = chain.read();
	// Another process may be creating the entry right now (it made the marker first): give it the time-out.
	const since = existsSync(marker) ? Date.now() - statMtime(marker) : Infinity;
	for (const until = Date.now() + chain.timeoutMs; read.state === 'absent' && since < 30_000 && Date.now() < until; read = chain.read()) sleep(100);
	if (read.state === 'found') {
		if (!existsSync(marker)) mark(marker, chain);
		return keychainSealer(chain, entryKeys(read.secret, chain.where));
	}
	if (read.state === 'failed') {
		if (required) throw new StoreError(`The master key is in ${chain.where} (${why}), which cannot be read: ${read.reason}. Unlock the keychain and try again, or give the key with GATEWAY_TUI_MASTER_KEY.`);
		if (!read.missing && (read.timedOut || !chain.quietWhenUnreachable)) warn(`${chain.name} could not be read (${read.reason}), so the master key goes in ${file}. ${choose}.`);
		return fileSealer(file);
	}
	if (existsSync(marker)) {
		throw new StoreError(`${marker} says the master key is in ${chain.where}, but no such entry answers (gone, or in a locked keyring that cannot ask for its password here). Unlock it or put the key back there, or give it with GATEWAY_TUI_MASTER_KEY; to start over with a new key (the secrets sealed with the old one are lost), delete ${marker}.`);
	}
	// No entry: a new key in the keychain (with GATEWAY_TUI_MASTER_KEY_STORE=keychain, the key file's, if there is one).
	const copied = choice === 'keychain' && existsSync(file);
	const keys = copied ? fileKeys(file) : [randomBytes(32)];
	if (!claim(marker, chain)) {
		// Another process got there first: its entry.
		return loadSealer(env, options);
	}
	const wrote = chain.write(entryText(keys));
	if (!wrote.ok) {
		rmSync(marker, {force: true});
		if (required) throw new StoreError(`Cannot store the master key in ${chain.where} (GATEWAY_TUI_MASTER_KEY_STORE=keychain): ${wrote.reason}. Unlock the keychain and try again, or set GATEWAY_TUI_MASTER_KEY_STORE=file.`);
		warn(`${chain.name} did not take the master key (${wrote.reason}), so it goes in ${file}. ${choose}.`);
		return fileSealer(file);
	}
	if (copied) warn(`copied the master key of ${file} into ${chain.where} (GATEWAY_TUI_MASTER_KEY_STORE=keychain); ${file} is no longer read while that is set: delete it once you no longer need it as a backup.`);
	return keychainSealer(chain, keys);
}

function statMtime(file: string): number {
	try {
		return statSync(file).mtimeMs;
	} catch {
		return 0;
	}
}

function markerText(keychain: Keychain): string {
	return `The gateway-tui master key is in ${keychain.where}. This file holds no secret; delete it only to start over with a new key.\n`;
}

function mark(marker: string, keychain: Keychain): void {
	try {
		writeFileAtomically(marker, markerText(keychain));
	} catch {
		// Only a guard against a shadowing key file later: the key itself is safe in the keychain.
	}
}

/** Make the marker, unless another process just did (then false). */
function claim(marker: string, keychain: Keychain): boolean {
	mkdirSync(dirname(marker), {recursive: true, mode: 0o700});
	try {
		writeFileSync(marker, markerText(keychain), {mode: 0o600, flag: 'wx'});
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw new StoreError(`Cannot write ${marker} (${(error as Error).message}). Set GATEWAY_TUI_MASTER_KEY_FILE to a file you can write, or GATEWAY_TUI_MASTER_KEY.`, {cause: error});
	}
}
