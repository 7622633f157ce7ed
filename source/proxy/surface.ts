/**
 * What the gateway exposes, and to whom: the Host (and Origin) a request may carry, how long a
 * client may take to send it, how large it may be, and how many connections are served at once.
 *
 * The Host check is what stops DNS rebinding: a web page in the user's browser can make its own
 * domain resolve to 127.0.0.1, but its requests still say `Host: evil.example`. An IP literal cannot
 * be rebound, so when the gateway listens on every address (0.0.0.0, ::) any IP literal is accepted;
 * a name must be a localhost name or one given with `--allow-host`.
 */
import {readFileSync} from 'node:fs';
import {isIP} from 'node:net';
import type {Server, IncomingMessage} from 'node:http';
import type {Socket} from 'node:net';

export type SurfaceOptions = {
	/** The address the gateway listens on. */
	readonly host: string;
	/** Host names (or IPs) accepted besides the listen address and the localhost names (`--allow-host`). */
	readonly allowHosts: readonly string[];
	/** Largest request body (bytes). */
	readonly bodyLimitBytes: number;
	/** Largest body of the endpoints that need no key (Claude Code's probes and telemetry). */
	readonly openBodyLimitBytes: number;
	/** Deepest JSON nesting accepted. */
	readonly maxDepth: number;
	/** Time a client has to send its request headers. */
	readonly headersTimeoutMs: number;
	/** Time a client has to send its whole request (headers and body). */
	readonly requestTimeoutMs: number;
	/** How long an idle keep-alive connection stays open. */
	readonly keepAliveTimeoutMs: number;
	/** Connections served at once; more get a 503 with retry-after (and are closed). */
	readonly maxConnections: number;
};

export const defaultSurface: Omit<SurfaceOptions, 'host' | 'allowHosts' | 'maxConnections'> = {
	bodyLimitBytes: 32 * 1024 * 1024,
	openBodyLimitBytes: 8 * 1024,
	maxDepth: 128,
	headersTimeoutMs: 10_000,
	requestTimeoutMs: 30_000,
	keepAliveTimeoutMs: 5_000,
};

/** What a caller may set; the rest comes from the defaults and the environment. */
export type SurfaceSettings = Partial<Omit<SurfaceOptions, 'host'>>;

/** `GATEWAY_TUI_ALLOW_HOST`: comma-separated names, as `--allow-host` takes them (the TUI's core thread reads it too). */
export function allowHostsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
	return (env.GATEWAY_TUI_ALLOW_HOST ?? '').split(',').map(name => name.trim()).filter(Boolean);
}

/** `GATEWAY_TUI_BODY_LIMIT`: bytes, as `--body-limit` sets it (the TUI's core thread reads it too). */
function bodyLimitFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
	const bytes = Number(env.GATEWAY_TUI_BODY_LIMIT);
	return Number.isInteger(bytes) && bytes > 0 ? bytes : undefined;
}

export function surfaceOptions(host: string, settings: SurfaceSettings = {}): SurfaceOptions {
	const bodyLimitBytes = settings.bodyLimitBytes ?? bodyLimitFromEnv() ?? defaultSurface.bodyLimitBytes;
	return {...defaultSurface, maxConnections: defaultMaxConnections(), ...settings, bodyLimitBytes, allowHosts: settings.allowHosts ?? allowHostsFromEnv(), host};
}

const localNames: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The hostname of a Host header value (`[::1]:11580` → `::1`, `Example.com:80` → `example.com`). */
export function hostnameOf(value: string): string {
	const trimmed = value.trim().toLowerCase();
	if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']') === -1 ? undefined : trimmed.indexOf(']'));
	const colon = trimmed.lastIndexOf(':');
	return colon === -1 || trimmed.indexOf(':') !== colon ? trimmed : trimmed.slice(0, colon);
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '';

/** Whether a request naming `hostname` may be served by a gateway listening as `options` says. */
export function hostAllowed(hostname: string, options: Pick<SurfaceOptions, 'host' | 'allowHosts'>): boolean {
	const name = hostname.replace(/\.$/, '');
	if (!name) return false;
	if (localNames.has(name) || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name)) return true;
	if (name === options.host.toLowerCase() || options.allowHosts.some(allowed => allowed.toLowerCase() === name || allowed === '*')) return true;
	return isWildcard(options.host) && isIP(name) !== 0;
}

/** Why a request's Host or Origin is refused, or null when it may be served. */
export function refusedOrigin(request: Pick<IncomingMessage, 'headers'>, options: Pick<SurfaceOptions, 'host' | 'allowHosts'>): string | null {
	const host = request.headers.host;
	if (!host) return 'The request has no Host header.';
	if (!hostAllowed(hostnameOf(host), options)) return `The Host "${host.slice(0, 100)}" is not this gateway's address.`;
	const origin = request.headers.origin;
	if (origin === undefined) return null;
	let originHost: string;
	try {
		originHost = new URL(origin).hostname;
	} catch {
		return `The Origin "${origin.slice(0, 100)}" is not a URL this gateway accepts.`;
	}
	return hostAllowed(hostnameOf(originHost), options) ? null : `The Origin "${origin.slice(0, 100)}" is a web page of another site.`;
}

/**
 * Counts open connections and marks those past the cap: they are answered with a 503 in the
 * client's format (see server.ts) and closed, instead of failing later for want of a file descriptor.
 */
export class ConnectionCap {
	private open = 0;
	/** The most connections open at once since `load()` was last called. */
	private peak = 0;
	private readonly over = new WeakSet<Socket>();

	constructor(readonly limit: number) {}

	watch(server: Server): void {
		server.on('connection', (socket: Socket) => {
			this.open++;
			if (this.open > this.peak) this.peak = this.open;
			if (this.open > this.limit) this.over.add(socket);
			socket.once('close', () => this.open--);
		});
	}

	/** The connections open now, and the most open at once since the last call (a burst between two calls is not missed). */
	load(): {open: number; peak: number} {
		const load = {open: this.open, peak: this.peak};
		this.peak = this.open;
		return load;
	}

	isOver(socket: Socket): boolean {
		return this.over.has(socket);
	}
}

/**
 * The default connection cap: half the process's open-file limit (each client connection may hold
 * an upstream connection too) less a reserve for the store, logs and pools; 1024 where the limit
 * cannot be read (non-Linux).
 */
export function defaultMaxConnections(): number {
	const limit = openFileLimit();
	return limit === null ? 1024 : Math.max(32, Math.floor((limit - 64) / 2));
}

function openFileLimit(): number | null {
	try {
		const match = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
		return match ? Number(match[1]) : null;
	} catch {
		return null;
	}
}
