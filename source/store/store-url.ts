/**
 * Store URLs: `sqlite:///abs/path` (the default, `<home>/gateway.sqlite`), `redis://` / `rediss://`
 * and `postgres://` / `postgresql://`. A URL may carry a password; it never appears in a message:
 * every message shows the URL through `maskStoreUrl`, and driver errors through `scrubSecrets`.
 */
import {isAbsolute, join} from 'node:path';
import {UserError} from '../base/errors.js';

export type StoreKind = 'sqlite' | 'redis' | 'postgres';

export type StoreLocation = {
	readonly kind: StoreKind;
	/** The URL as given (with credentials): only ever handed to the driver. */
	readonly url: string;
	/** The URL with its password replaced by `****`: the only form used in messages. */
	readonly masked: string;
	/** The database file, for sqlite. */
	readonly file?: string;
};

const kinds: Readonly<Record<string, StoreKind>> = {
	'sqlite:': 'sqlite',
	'redis:': 'redis',
	'rediss:': 'redis',
	'postgres:': 'postgres',
	'postgresql:': 'postgres',
};

/** Query parameters that carry secrets in connection strings (libpq's `password`, `sslpassword` …). */
const secretParameter = /([?&](?:password|pass|pwd|sslpassword|token|secret)=)[^&#]*/gi;

export function defaultStoreUrl(home: string): string {
	return `sqlite://${join(home, 'gateway.sqlite')}`;
}

/** True when `text` looks like a URL (`scheme://…`) rather than a directory. */
export function isStoreUrl(text: string): boolean {
	return /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
}

/** `redis://user:secret@host:6379` → `redis://user:****@host:6379`; secret query parameters too. */
export function maskStoreUrl(url: string): string {
	const scheme = url.indexOf('://');
	if (scheme < 0 || url.toLowerCase().startsWith('sqlite:')) return url;
	const rest = url.slice(scheme + 3);
	// The last `@` before the query ends the user info: a password may itself contain `@` (unencoded).
	const query = rest.search(/[?#]/);
	const authorityEnd = query < 0 ? rest.length : query;
	const at = rest.lastIndexOf('@', authorityEnd);
	let masked = rest;
	if (at >= 0) {
		const userInfo = rest.slice(0, at);
		const colon = userInfo.indexOf(':');
		if (colon >= 0) masked = `${userInfo.slice(0, colon)}:****${rest.slice(at)}`;
	}
	return `${url.slice(0, scheme + 3)}${masked.replace(secretParameter, '$1****')}`;
}

/** The secrets a URL holds (its password, raw and decoded, and secret query parameters). */
function secretsOf(url: string): string[] {
	const out = new Set<string>();
	try {
		const parsed = new URL(url);
		if (parsed.password) {
			out.add(parsed.password);
			out.add(decodeURIComponent(parsed.password));
		}
		for (const [name, value] of parsed.searchParams) if (/^(password|pass|pwd|sslpassword|token|secret)$/i.test(name) && value) out.add(value);
	} catch {
		// An unparsable URL was refused before any driver saw it; nothing to scrub.
	}
	return [...out].filter(secret => secret.length > 0).sort((a, b) => b.length - a.length);
}

/** A driver's message with the URL's secrets (should a driver echo them) replaced by `****`. */
export function scrubSecrets(text: string, url: string): string {
	let out = text.split(url).join(maskStoreUrl(url));
	for (const secret of secretsOf(url)) out = out.split(secret).join('****');
	return out;
}

function refuse(text: string, why: string): never {
	throw new UserError(
		`The store URL ${maskStoreUrl(text)} ${why}. Give --store (or GATEWAY_TUI_STORE) as sqlite:///absolute/path/gateway.sqlite, redis://[user:password@]host:6379[/db], rediss://… or postgres://user:password@host:5432/database.`,
	);
}

/** Parse a store URL; a malformed or unsupported one is a UserError naming it (masked). */
export function parseStoreUrl(text: string): StoreLocation {
	const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(text)?.[1]?.toLowerCase();
	const kind = scheme ? kinds[scheme] : undefined;
	if (!kind) refuse(text, 'is not one gateway-tui can use (sqlite://, redis://, rediss://, postgres:// or postgresql://)');
	const masked = maskStoreUrl(text);
	if (kind === 'sqlite') {
		// `sqlite:///abs/path`: everything after `sqlite://` is the path, percent-decoded.
		const file = decodeURIComponent(text.slice(text.indexOf('://') + 3).replace(/[?#].*$/, ''));
		if (!isAbsolute(file)) refuse(text, 'does not name an absolute file path (note the three slashes in sqlite:///…)');
		return {kind, url: text, masked, file};
	}
	let parsed: URL;
	try {
		parsed = new URL(text);
	} catch {
		refuse(text, 'cannot be parsed (a password with @, / or : must be percent-encoded)');
	}
	// libpq allows no host (`postgresql:///db?host=/run/postgresql`: a local socket); Redis needs one.
	if (kind === 'redis' && !parsed.hostname) refuse(text, 'names no host');
	return {kind, url: text, masked};
}
