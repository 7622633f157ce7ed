/**
 * Secrets at rest: the real keys of channels and the secrets of virtual keys are sealed with
 * AES-256-GCM before they reach the store, so a copied or synced store file (or a dump of a shared
 * Redis or PostgreSQL) holds no usable key. The master key never goes into the store: it comes from
 * `GATEWAY_TUI_MASTER_KEY`, else the file `GATEWAY_TUI_MASTER_KEY_FILE`, else `master.key` (0600) in
 * the per-user config directory, created on first use. Gateways sharing one store must share the key.
 * A value without the sealed prefix is a plaintext written before sealing existed: read as it is,
 * sealed the next time it is written (or by `store rotate-key`).
 */
import {createCipheriv, createDecipheriv, randomBytes, scryptSync} from 'node:crypto';
import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import envPaths from 'env-paths';
import {StoreError} from './errors.js';

const prefix = 'gtui-sealed:v1:';

/** Where the master key came from, for messages (never the key itself). */
export type KeySource = {readonly kind: 'env' | 'file'; readonly where: string};

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

export function defaultKeyFile(env: NodeJS.ProcessEnv = process.env): string {
	return env.GATEWAY_TUI_MASTER_KEY_FILE || join(envPaths('gateway-tui', {suffix: ''}).config, 'master.key');
}

/** Write a master key to `file` (0600, directory 0700); returns it. */
export function writeKeyFile(file: string, key: Buffer): Buffer {
	mkdirSync(dirname(file), {recursive: true, mode: 0o700});
	writeFileSync(file, `${key.toString('hex')}\n`, {mode: 0o600});
	chmodSync(file, 0o600);
	return key;
}

/** A new random key in a file that does not exist yet; when another process made it first, theirs. */
function createKeyFile(file: string): Buffer {
	mkdirSync(dirname(file), {recursive: true, mode: 0o700});
	const key = randomBytes(32);
	try {
		writeFileSync(file, `${key.toString('hex')}\n`, {mode: 0o600, flag: 'wx'});
		return key;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parseMasterKey(readFileSync(file, 'utf8'));
		throw error;
	}
}

/** The master key of this process: from the environment, else its file (created when missing). */
export function loadSealer(env: NodeJS.ProcessEnv = process.env): Sealer {
	if (env.GATEWAY_TUI_MASTER_KEY) return new Sealer(parseMasterKey(env.GATEWAY_TUI_MASTER_KEY), {kind: 'env', where: 'GATEWAY_TUI_MASTER_KEY'});
	const file = defaultKeyFile(env);
	try {
		const key = existsSync(file) ? parseMasterKey(readFileSync(file, 'utf8')) : createKeyFile(file);
		// A rotation cut short leaves the old key beside the new one: both open, only the new one seals.
		const previous = existsSync(`${file}.old`) ? [parseMasterKey(readFileSync(`${file}.old`, 'utf8'))] : [];
		return new Sealer(key, {kind: 'file', where: file}, previous);
	} catch (error) {
		if (error instanceof StoreError) throw new StoreError(`The master key file ${file} is not valid: ${error.message}`);
		throw new StoreError(`Cannot read or create the master key file ${file} (${(error as Error).message}). Set GATEWAY_TUI_MASTER_KEY_FILE to a file you can write, or GATEWAY_TUI_MASTER_KEY.`, {cause: error});
	}
}
