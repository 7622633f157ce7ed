/**
 * The proxy's in-memory view of keys and channels, so no request touches the store.
 *
 * Keys are indexed by the SHA-256 of their secret. The view is reloaded whenever the store's
 * revision changes (polled twice a second), so a CLI command in another process — a revocation
 * included — takes effect within a second. A secret the view does not know is checked against the
 * store before it is refused (`recheck`), so a key created elsewhere works on its first request.
 * lastUsedAt is kept in memory and flushed in batches.
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

/**
 * A secret no key of the snapshot has: the request waits for `recheck` (a key created a moment ago
 * in another process) and is answered again before this is sent.
 */
export class UnknownKeyError extends GatewayError {
	constructor() {
		super('authentication', 401, 'The API key sent is not a gateway virtual key. Check the key, or create one with `gateway-tui keys create --name NAME`.', {code: 'invalid_api_key'});
	}
}

// The one-shot form: no Hash object per request.
const sha256 = (value: string) => hash('sha256', value, 'buffer');

export class Registry {
	private current: Snapshot = {keysByHash: new Map(), keysById: new Map(), providerKeyHashes: new Set(), channels: [], scrubber: Scrubber.empty};
	private revision = '';
	private timer: NodeJS.Timeout | undefined;
	/** Key id → when it was last used (ms), written to the store in batches. */
	private readonly lastUsed = new Map<string, number>();
	/**
	 * Presented secrets that matched a key of the current snapshot, and that key: a client's key is
	 * hashed on its first request, not on each one. Only matching secrets are kept (at most one per
	 * key), in memory only, and forgotten with the snapshot.
	 */
	private authenticated = new Map<string, KeyRecord>();

	/**
	 * Told of each new view before it replaces the current one, and waited for (at most
	 * `prepareMs`): the limiter seeds the counters of keys whose limits changed (limit-sync.ts), so
	 * that no request is admitted under new limits with counters that do not count the key's use yet.
	 */
	prepare: ((next: Snapshot, previous: Snapshot) => Promise<void>) | null = null;

	/** The longest a new view waits for `prepare`: a revocation must still apply within a second. */
	static readonly prepareMs = 500;

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
		const next: Snapshot = {
			keysByHash: new Map(keys.map(key => [key.hash, key])),
			keysById: new Map(keys.map(key => [key.id, key])),
			providerKeyHashes: new Set(channels.flatMap(channel => (channel.apiKey ? [sha256(channel.apiKey).toString('hex')] : []))),
			channels,
			scrubber: new Scrubber([...channels.map(channel => channel.apiKey), ...keys.map(key => key.secret)]),
		};
		if (this.prepare) await atMost(this.prepare(next, this.current), Registry.prepareMs);
		this.authenticated = new Map();
		this.current = next;
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
		const key = this.authenticated.get(presented) ?? this.lookUp(presented);
		switch (keyState(key, now)) {
			case 'revoked':
				throw new RefusedKeyError(key, `The virtual key "${key.name}" was revoked at ${key.revokedAt}. Create a new key with \`gateway-tui keys create\`.`);
			case 'expired':
				throw new RefusedKeyError(key, `The virtual key "${key.name}" expired at ${key.expiresAt}. Create a new key with \`gateway-tui keys create\`.`);
			case 'active':
				this.lastUsed.set(key.id, now);
				return key;
		}
	}

	/** The key a secret belongs to, by its SHA-256 (kept for the snapshot's life), or the 401 that says why there is none. */
	private lookUp(presented: string): KeyRecord {
		const digest = sha256(presented);
		const hex = digest.toString('hex');
		const key = this.current.keysByHash.get(hex);
		if (!key || !timingSafeEqual(Buffer.from(key.hash, 'hex'), digest)) {
			if (!this.current.providerKeyHashes.has(hex)) throw new UnknownKeyError();
			throw new GatewayError('authentication', 401, "The API key sent is a provider's real key, not a gateway virtual key. Never give real keys to clients: send a virtual key (`gateway-tui keys create --name NAME`).", {code: 'invalid_api_key'});
		}
		this.authenticated.set(presented, key);
		return key;
	}

	/** Write lastUsedAt of the keys used since the last flush. */
	async flush(): Promise<void> {
		if (this.lastUsed.size === 0) return;
		const batch = new Map([...this.lastUsed].map(([id, at]) => [id, new Date(at).toISOString()]));
		this.lastUsed.clear();
		await recordLastUsed(this.store, batch);
	}

	/** The store read under way (the poll's or a request's), the one queued after it, and when the last ended. */
	private reading: Promise<void> | undefined;
	private queued: Promise<void> | undefined;
	private readEndedAt = Number.NEGATIVE_INFINITY;

	/**
	 * Tell this process's readers (the TUI's store view) that the store has something new the
	 * revision does not announce to other processes: the gateway's own `--probe-every` round, kept
	 * with the same findings (store/channel-tests.ts keepProbeRound).
	 */
	announce(): void {
		this.events?.emit('store:changed', {revision: this.revision});
	}

	/** A read starts at least this long after the last one ended (a flood of unknown keys: at most twenty a second). */
	static readonly recheckSpacingMs = 50;

	/**
	 * Read the store's revision and reload the view if it moved; settles once a read that started
	 * after this call has finished. One read at a time, `recheckSpacingMs` apart: calls made while a
	 * read runs or waits share the next one (a flood of unknown keys never costs a read per request),
	 * and the poll's reads take the same turns, so an older read never replaces a newer view.
	 * Rejects when the store cannot be read.
	 */
	recheck(): Promise<void> {
		if (this.queued) return this.queued;
		if (this.reading) {
			this.queued = this.reading.then(
				() => this.next(),
				() => this.next(),
			);
			return this.queued;
		}
		const wait = this.readEndedAt + Registry.recheckSpacingMs - performance.now();
		if (wait > 0) {
			this.queued = new Promise(resolve => setTimeout(resolve, wait)).then(() => this.next());
			return this.queued;
		}
		this.reading = this.readChanges().finally(() => {
			this.reading = undefined;
			this.readEndedAt = performance.now();
		});
		return this.reading;
	}

	private next(): Promise<void> {
		this.queued = undefined;
		return this.recheck();
	}

	private async readChanges(): Promise<void> {
		if ((await this.store.revision()) !== this.revision) await this.refresh();
	}

	private busy = false;
	/** When the store stopped answering the poll (ms since the epoch), while it does not; else null. */
	private outageSince: number | null = null;

	private async tick(): Promise<void> {
		if (this.busy) return;
		this.busy = true;
		try {
			await this.flush();
			await this.recheck();
			this.recovered();
		} catch (error) {
			this.failedToRead(error);
		} finally {
			this.busy = false;
		}
	}

	/** An outage is logged when it starts and when it ends, not on every poll (twice a second). */
	private failedToRead(error: unknown): void {
		if (this.outageSince !== null) return;
		this.outageSince = Date.now();
		const reason = (error instanceof Error ? error.message : String(error)).replace(/\.?$/, '.');
		this.events?.emit('warning', {
			message: `Could not read the store: ${reason} Meanwhile the gateway keeps serving with the keys and channels it read last; changes made elsewhere (a revoked key included) take effect once the store answers again. This is not repeated while the store stays unreachable.`,
		});
	}

	private recovered(): void {
		if (this.outageSince === null) return;
		const seconds = Math.max(1, Math.round((Date.now() - this.outageSince) / 1000));
		this.outageSince = null;
		this.events?.emit('warning', {message: `The store can be read again (after ${seconds} s without it); keys and channels are up to date.`});
	}
}

/** Waits for `work` (which never rejects), but no longer than `ms`: what it does after that, it does in the background. */
async function atMost(work: Promise<void>, ms: number): Promise<void> {
	let timer: NodeJS.Timeout | undefined;
	await Promise.race([work, new Promise<void>(resolve => (timer = setTimeout(resolve, ms)))]);
	clearTimeout(timer);
}
