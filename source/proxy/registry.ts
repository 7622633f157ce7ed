/**
 * The proxy's in-memory view of keys and channels, so no request touches the store.
 *
 * Keys are indexed by the SHA-256 of their secret. The view is reloaded whenever the store's
 * revision changes (polled twice a second), so a CLI command in another process — a revocation
 * included — takes effect within a second. lastUsedAt is kept in memory and flushed in batches.
 */
import {hash, timingSafeEqual} from 'node:crypto';
import type {EventBus} from '../base/events.js';
import {GatewayError} from '../base/errors.js';
import type {Store} from '../store/index.js';
import type {ChannelRecord, KeyRecord} from '../base/records.js';
import {keyState, listKeys, recordLastUsed} from '../store/keys.js';
import {listChannels} from '../store/channels.js';
import {Scrubber} from '../base/secrets.js';

export type Snapshot = {
	readonly keysByHash: ReadonlyMap<string, KeyRecord>;
	/** The same keys by id, for what finished requests report (they carry the key's id). */
	readonly keysById: ReadonlyMap<string, KeyRecord>;
	/** Hashes of the channels' real keys: presenting one is refused with its own message. */
	readonly providerKeyHashes: ReadonlySet<string>;
	readonly channels: readonly ChannelRecord[];
	/** Masks every real key and every virtual key in error and log strings; rebuilt with the snapshot. */
	readonly scrubber: Scrubber;
};

/** A known key that may no longer be used (revoked, expired): the refusal names it, so does the log. */
export class RefusedKeyError extends GatewayError {
	readonly key: {readonly id: string; readonly name: string};

	constructor(key: KeyRecord, message: string) {
		super('authentication', 401, message, {code: 'invalid_api_key'});
		this.key = {id: key.id, name: key.name};
	}
}

// The one-shot form: no Hash object per request.
const sha256 = (value: string) => hash('sha256', value, 'buffer');

export class Registry {
	private current: Snapshot = {keysByHash: new Map(), keysById: new Map(), providerKeyHashes: new Set(), channels: [], scrubber: Scrubber.empty};
	private revision = '';
	private timer: NodeJS.Timeout | undefined;
	private readonly lastUsed = new Map<string, string>();

	constructor(
		private readonly store: Store,
		private readonly events?: EventBus,
		private readonly pollMs = 500,
	) {}

	get snapshot(): Snapshot {
		return this.current;
	}

	/** Load keys and channels now. */
	async refresh(): Promise<void> {
		const revision = await this.store.revision();
		const [keys, channels] = await Promise.all([listKeys(this.store), listChannels(this.store)]);
		this.current = {
			keysByHash: new Map(keys.map(key => [key.hash, key])),
			keysById: new Map(keys.map(key => [key.id, key])),
			providerKeyHashes: new Set(channels.flatMap(channel => (channel.apiKey ? [sha256(channel.apiKey).toString('hex')] : []))),
			channels,
			scrubber: new Scrubber([...channels.map(channel => channel.apiKey), ...keys.map(key => key.secret)]),
		};
		if (revision !== this.revision) {
			this.revision = revision;
			this.events?.emit('store:changed', {revision});
		}
	}

	async start(): Promise<void> {
		await this.refresh();
		this.timer = setInterval(() => void this.tick(), this.pollMs);
		this.timer.unref();
	}

	async stop(): Promise<void> {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
		await this.flush();
	}

	/** Authenticate a presented secret. Never echoes it; says which case it is. */
	authenticate(presented: string | undefined, now = Date.now()): KeyRecord {
		if (!presented) {
			throw new GatewayError('authentication', 401, 'No API key was sent. Send a gateway virtual key (create one with `gateway-tui keys create --name NAME`).', {code: 'invalid_api_key'});
		}
		const digest = sha256(presented);
		const hex = digest.toString('hex');
		const key = this.current.keysByHash.get(hex);
		if (!key || !timingSafeEqual(Buffer.from(key.hash, 'hex'), digest)) {
			const message = this.current.providerKeyHashes.has(hex)
				? "The API key sent is a provider's real key, not a gateway virtual key. Never give real keys to clients: send a virtual key (`gateway-tui keys create --name NAME`)."
				: 'The API key sent is not a gateway virtual key. Check the key, or create one with `gateway-tui keys create --name NAME`.';
			throw new GatewayError('authentication', 401, message, {code: 'invalid_api_key'});
		}
		switch (keyState(key, now)) {
			case 'revoked':
				throw new RefusedKeyError(key, `The virtual key "${key.name}" was revoked at ${key.revokedAt}. Create a new key with \`gateway-tui keys create\`.`);
			case 'expired':
				throw new RefusedKeyError(key, `The virtual key "${key.name}" expired at ${key.expiresAt}. Create a new key with \`gateway-tui keys create\`.`);
			case 'active':
				this.lastUsed.set(key.id, new Date(now).toISOString());
				return key;
		}
	}

	/** Write lastUsedAt of the keys used since the last flush. */
	async flush(): Promise<void> {
		if (this.lastUsed.size === 0) return;
		const batch = new Map(this.lastUsed);
		this.lastUsed.clear();
		await recordLastUsed(this.store, batch);
	}

	private busy = false;

	private async tick(): Promise<void> {
		if (this.busy) return;
		this.busy = true;
		try {
			await this.flush();
			if ((await this.store.revision()) !== this.revision) await this.refresh();
		} catch (error) {
			this.events?.emit('warning', {message: `Could not read the store: ${(error as Error).message}`});
		} finally {
			this.busy = false;
		}
	}
}
