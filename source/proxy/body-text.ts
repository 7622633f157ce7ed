/**
 * Bodies as the request log may show them: cut to a byte cap, every known key masked by the
 * registry's scrubber, and credentials the scrubber cannot know (a Bearer token, an `api_key` field,
 * an Authorization header) masked by their shape.
 */
import type {CapturedBody} from '../base/events.js';
import {maskSecret, type Scrubber} from '../base/secrets.js';
import {asBuffer} from '../base/bytes.js';

/** Header names whose values are credentials, whatever they hold. */
const credentialHeader = /^(authorization|proxy-authorization|x-api-key|x-goog-api-key|api-key|cookie|set-cookie)$/i;

/** `"api_key": "…"`, `Authorization: Bearer …`, `x-goog-api-key=…` inside a body. */
const credentialField = /(["']?\b(?:authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|client[-_]?secret|password)["']?\s*[:=]\s*["']?)(?:(Bearer|Basic|Token)\s+)?([^\s"',;}&]{8,})/gi;
const bearer = /\b(Bearer|Basic)\s+([A-Za-z0-9._~+/=-]{8,})/g;

/** A credential value masked: the scheme kept (`Bearer sk-…abcd`). */
export function maskCredential(value: string): string {
	const match = /^(Bearer|Basic|Token)\s+(.*)$/i.exec(value.trim());
	return match ? `${match[1]} ${maskSecret(match[2]!)}` : maskSecret(value);
}

/** Every known key and every credential-shaped value in `text` masked. */
export function scrubBody(text: string, scrubber: Scrubber): string {
	return scrubber
		.scrub(text)
		.replace(credentialField, (_whole, prefix: string, scheme: string | undefined, value: string) => `${prefix}${scheme ? `${scheme} ` : ''}${maskSecret(value)}`)
		.replace(bearer, (_whole, scheme: string, value: string) => `${scheme} ${maskSecret(value)}`);
}

/** The request's headers as the log shows them: credentials masked, the rest scrubbed of known keys. */
export function maskedHeaders(headers: Readonly<Record<string, string | string[] | undefined>>, scrubber: Scrubber): Array<readonly [string, string]> {
	return Object.entries(headers).flatMap(([name, value]) => {
		if (value === undefined) return [];
		const text = Array.isArray(value) ? value.join(', ') : value;
		return [[name, credentialHeader.test(name) ? maskCredential(text) : scrubBody(text, scrubber)] as const];
	});
}

/** The end of a word cut by the cap: it may be the first half of a key, which the scrubber cannot recognise. */
const cutWord = /[^\s"'`,;:=&<>()[\]{}\\]{1,256}$/;

/**
 * `bytes` (the first bytes of a body of `total` bytes) as a CapturedBody: at most `maxBytes` kept;
 * where the body was cut, the partial word at the cut goes too, so half a key never shows.
 */
export function capturedBody(bytes: Buffer, total: number, maxBytes: number, contentType: string | null, scrubber: Scrubber): CapturedBody {
	const cut = total > maxBytes;
	let text = bytes.subarray(0, maxBytes).toString('utf8');
	if (cut) text = text.replace(cutWord, '');
	const kept = cut ? Buffer.byteLength(text) : total;
	return {text: scrubBody(text, scrubber), bytes: total, omittedBytes: Math.max(0, total - kept), contentType};
}

/**
 * A bounded copy of the bytes a response writes to the client: the first `maxBytes` of them and the
 * count of all. Installed on the response only while capture is on; the bytes still go out as
 * they are, unbuffered.
 */
export class BodyTee {
	private readonly chunks: Buffer[] = [];
	private kept = 0;
	total = 0;
	/** From the headers a stream writes itself (Fastify's own replies set theirs on the response). */
	contentType: string | null = null;

	constructor(
		raw: {write: (...args: never[]) => boolean; end: (...args: never[]) => unknown; writeHead: (...args: never[]) => unknown},
		private readonly maxBytes: number,
	) {
		const write = raw.write as (...args: unknown[]) => boolean;
		const end = raw.end as (...args: unknown[]) => unknown;
		const writeHead = raw.writeHead as (...args: unknown[]) => unknown;
		raw.writeHead = ((...args: unknown[]) => {
			const headers = args.find(arg => typeof arg === 'object' && arg !== null && !Array.isArray(arg)) as Record<string, unknown> | undefined;
			const type = headers && Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
			if (typeof type === 'string') this.contentType = type;
			return writeHead.apply(raw, args);
		}) as typeof raw.writeHead;
		raw.write = ((chunk: unknown, ...rest: unknown[]) => {
			this.take(chunk, rest[0]);
			return write.apply(raw, [chunk, ...rest]);
		}) as typeof raw.write;
		raw.end = ((chunk: unknown, ...rest: unknown[]) => {
			if (typeof chunk !== 'function') this.take(chunk, rest[0]);
			return end.apply(raw, [chunk, ...rest]);
		}) as typeof raw.end;
	}

	/** The bytes kept (at most the cap). */
	get bytes(): Buffer {
		return Buffer.concat(this.chunks);
	}

	private take(chunk: unknown, encoding: unknown): void {
		if (typeof chunk === 'string') {
			const coding = typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8';
			this.total += Buffer.byteLength(chunk, coding);
			// A character is at least one byte: the first `room` characters hold the room's bytes.
			if (this.room > 0) this.keep(Buffer.from(chunk.slice(0, this.room), coding));
		} else if (chunk instanceof Uint8Array) {
			this.total += chunk.byteLength;
			if (this.room > 0) this.keep(asBuffer(chunk));
		}
	}

	private get room(): number {
		return this.maxBytes - this.kept;
	}

	private keep(bytes: Buffer): void {
		// A copy: the caller may reuse its buffer once written.
		const part = Buffer.from(bytes.subarray(0, this.room));
		this.chunks.push(part);
		this.kept += part.length;
	}
}
