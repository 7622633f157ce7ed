/** How secrets may appear anywhere a person or a client can see them. */

/** The real key as it may be shown anywhere: its first 3 and last 4 characters. */
export function maskSecret(secret: string | null): string {
	if (!secret) return '(none)';
	if (secret.length < 12) return '…' + secret.slice(-2);
	return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}

/** Shorter values are too likely to occur by chance in ordinary text to be replaced. */
const minimumSecretLength = 8;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Masks every known secret — each channel's real key, each virtual key — in a string about to leave
 * the gateway (an error body, a stream error frame, a header, a log line, a health reason). Built once
 * per registry snapshot; one regular expression over all secrets, so a string is scanned once
 * however many channels there are. Only error and log strings go through it: successful answer
 * bytes never carry a key from the gateway, and scanning them would cost every request.
 */
export class Scrubber {
	private readonly pattern: RegExp | null;
	private readonly masks: ReadonlyMap<string, string>;

	constructor(secrets: Iterable<string | null | undefined>) {
		const unique = [...new Set([...secrets].filter((secret): secret is string => typeof secret === 'string' && secret.length >= minimumSecretLength))];
		// Longest first: a key that contains another is masked whole.
		unique.sort((a, b) => b.length - a.length);
		this.masks = new Map(unique.map(secret => [secret, maskSecret(secret)]));
		this.pattern = unique.length === 0 ? null : new RegExp(unique.map(escapeRegExp).join('|'), 'g');
	}

	/** `text` with every secret masked, except `allowed` (the caller's own virtual key, which it already holds). */
	scrub(text: string, allowed?: string): string {
		if (!this.pattern || text.length < minimumSecretLength) return text;
		return text.replace(this.pattern, secret => (secret === allowed ? secret : (this.masks.get(secret) ?? maskSecret(secret))));
	}

	/** Header values with every secret masked. */
	scrubHeaders(headers: Readonly<Record<string, string>>, allowed?: string): Record<string, string> {
		const out: Record<string, string> = {};
		for (const name in headers) if (Object.hasOwn(headers, name)) out[name] = this.scrub(headers[name]!, allowed);
		return out;
	}

	static readonly empty = new Scrubber([]);
}
