/**
 * Provider host names, resolved once per burst of new connections. Every new upstream connection
 * to a host name asks `dns.lookup`, which runs getaddrinfo on libuv's thread pool — four threads by
 * default, which the sqlite store's reads and writes use too. A burst of new streams (an agent's
 * sub-agents, a team's morning) opens a connection per stream, so a thousand streams queued a
 * thousand lookups there: every first byte waited behind them, behind a slow resolver the more so,
 * and the usage flush waited with them. Here the lookups for one host that are in flight at once
 * share one call, and its answer serves the connections that open in the next `ttlMs` (10 s).
 * A failure is handed to every caller waiting for it and kept for none: the next connection asks
 * again. Only connections use this (undici's `connect.lookup`), never a request on an open one.
 *
 * @see https://nodejs.org/docs/latest-v20.x/api/net.html#socketconnectoptions-connectlistener (`lookup`)
 */
import dns, {type LookupAddress, type LookupAllOptions, type LookupOptions} from 'node:dns';

type Resolve = (hostname: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** net.connect's `lookup`: called with `all: true` when it tries every address (autoSelectFamily, Node's default), else for one. */
export type Lookup = (hostname: string, options: LookupOptions, callback: Callback) => void;

type Entry = {readonly addresses: readonly LookupAddress[]; readonly expires: number};

/** Past this many distinct (host, options) pairs, the cache starts over: a channel set is a few hosts. */
const maxEntries = 256;

export type LookupCacheOptions = {
	readonly ttlMs?: number;
	readonly now?: () => number;
	/** The resolver asked on a miss; the operating system's (`dns.lookup`) unless a test counts calls. */
	readonly resolve?: Resolve;
};

export class LookupCache {
	private entries = new Map<string, Entry>();
	private readonly pending = new Map<string, Array<(error: NodeJS.ErrnoException | null, addresses: readonly LookupAddress[]) => void>>();
	private readonly ttlMs: number;
	private readonly now: () => number;
	private readonly resolve: Resolve;

	constructor(options: LookupCacheOptions = {}) {
		this.ttlMs = options.ttlMs ?? 10_000;
		this.now = options.now ?? Date.now;
		this.resolve = options.resolve ?? ((hostname, lookupOptions, callback) => dns.lookup(hostname, lookupOptions, callback));
	}

	/** For undici's `connect` options (passed on to net.connect / tls.connect). */
	readonly lookup: Lookup = (hostname, options, callback) => {
		const answer = (error: NodeJS.ErrnoException | null, addresses: readonly LookupAddress[]) => {
			if (error) return callback(error, options.all ? [] : '');
			if (options.all) return callback(null, addresses.map(address => ({...address})));
			const first = addresses[0];
			if (!first) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {code: 'ENOTFOUND', hostname}), '');
			callback(null, first.address, first.family);
		};
		// net.connect passes only these (and `all`), the same for every connection to a host.
		const {family = 0, hints = 0} = options;
		const id = `${hostname}\n${family}\n${hints}`;
		const cached = this.entries.get(id);
		if (cached && cached.expires > this.now()) {
			// net.connect expects its lookup to answer later, as dns.lookup does.
			process.nextTick(answer, null, cached.addresses);
			return;
		}
		const waiting = this.pending.get(id);
		if (waiting) {
			waiting.push(answer);
			return;
		}
		this.pending.set(id, [answer]);
		this.resolve(hostname, {family, hints, all: true}, (error, addresses) => {
			const callers = this.pending.get(id) ?? [];
			this.pending.delete(id);
			if (!error) {
				if (this.entries.size >= maxEntries) this.entries = new Map();
				this.entries.set(id, {addresses, expires: this.now() + this.ttlMs});
			}
			for (const caller of callers) caller(error, addresses ?? []);
		});
	};
}
