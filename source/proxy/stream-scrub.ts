/**
 * A passed-through stream on its way to the client, with the provider's error frames scrubbed.
 * Successful bytes are forwarded as they are; only what may be an error is decoded and scrubbed:
 *
 * - SSE: bytes are forwarded in whole frames (a client can use nothing less), and a frame is
 *   scrubbed only if it mentions `error` — so a key can never be split between two writes.
 * - A JSON array (Gemini without alt=sse): chunks are forwarded as they come until one mentions
 *   `"error"`; from there to the end (an error element is the stream's last) the rest is forwarded in
 *   whole lines, each scrubbed.
 */
import type {Scrubber} from '../base/secrets.js';
import {asBuffer} from '../base/bytes.js';

const errorWord = Buffer.from('error');
const quotedError = Buffer.from('"error"');
/** Nothing held back (shared: a Buffer of no bytes is never written to). */
const noBytes = Buffer.alloc(0);

/**
 * What ends an SSE frame: a blank line — two line ends in a row, where a line ends with CRLF, LF or
 * CR, mixed as a stream likes. Every such pair contains one of these three (`\r\n\r\n` and
 * `\n\r\n` contain `\n\r`, `\r\r\n` contains `\r\r`, `\r\n\n` contains `\n\n`); a pair that
 * ends in a CR followed by an LF ends after the LF (`frameEndAfter`).
 */
const sseFrameEnds = ['\n\n', '\r\r', '\n\r'] as const;
const lfFrameEnd = '\n\n';
const lfFrameEndBytes = Buffer.from(lfFrameEnd);
const cr = 0x0d;
const lf = 0x0a;
const space = 0x20;

/**
 * Whether `text` has no CR: then its frames can end only with `\n\n`, found with one native search
 * (most streams; the three searches, two of which find nothing, went over the whole chunk each).
 */
const onlyLf = (text: Buffer | string): boolean => (typeof text === 'string' ? !text.includes('\r') : !text.includes(cr));

const codeAt = (text: Buffer | string, index: number): number | undefined => (typeof text === 'string' ? text.charCodeAt(index) : text[index]);

/** The index just past a blank line whose two line ends start at `at`: past the LF of a CRLF that ends it, when the text has it. */
function frameEndAfter(text: Buffer | string, at: number): number {
	return codeAt(text, at + 1) === cr && codeAt(text, at + 2) === lf ? at + 3 : at + 2;
}

/**
 * The index just past the last frame end that starts at or before `from` in `text` — bytes, or a
 * text whose indexes are its bytes' — or 0 when there is none: the end of the last whole frame.
 */
export function lastFrameEnd(text: Buffer | string, from = text.length): number {
	// A provider writes whole frames, so most chunks end with one: no frame can end later than that.
	if (from === text.length && endsWithFrameEnd(text)) return text.length;
	if (onlyLf(text)) {
		const at = typeof text === 'string' ? text.lastIndexOf(lfFrameEnd, from) : text.lastIndexOf(lfFrameEndBytes, from);
		return at === -1 ? 0 : at + lfFrameEnd.length;
	}
	let end = 0;
	for (const separator of sseFrameEnds) {
		const at = typeof text === 'string' ? text.lastIndexOf(separator, from) : text.lastIndexOf(separator, from);
		if (at !== -1) end = Math.max(end, frameEndAfter(text, at));
	}
	return end;
}

/** Whether the text ends with a blank line: LF or CR after a line end, or a CRLF after one. */
function endsWithFrameEnd(text: Buffer | string): boolean {
	const n = text.length;
	const last = codeAt(text, n - 1);
	const before = codeAt(text, n - 2);
	if (last === lf && before === cr) {
		const third = codeAt(text, n - 3);
		return third === lf || third === cr;
	}
	return (last === lf || last === cr) && (before === lf || before === cr);
}

/** The index just past the first frame end at or after `from` in `text`, or `text.length` when there is none. */
export function nextFrameEnd(text: string, from: number): number {
	if (onlyLf(text)) {
		const after = text.indexOf(lfFrameEnd, from);
		return after === -1 ? text.length : after + lfFrameEnd.length;
	}
	let end = text.length;
	for (const separator of sseFrameEnds) {
		const after = text.indexOf(separator, from);
		if (after !== -1) end = Math.min(end, frameEndAfter(text, after));
	}
	return end;
}

/**
 * The data of a frame that is a single `data:` line ended by `\n\n` — the message an SSE parser
 * would read from it (one space after the colon dropped) — or undefined for any other frame.
 */
export function onlyData(frame: string): string | undefined {
	const end = frame.length - 2;
	if (end < 5 || !frame.startsWith('data:') || frame.indexOf('\n') !== end || frame.charCodeAt(end + 1) !== lf || frame.includes('\r')) return undefined;
	return frame.slice(frame.charCodeAt(5) === space ? 6 : 5, end);
}

export class OutboundStreamScrub {
	private pending: Buffer = noBytes;
	private erroring = false;

	constructor(
		private readonly scrubber: Scrubber,
		private readonly framing: 'sse' | 'json-array',
		private readonly allowed?: string,
	) {}

	/** What may be written now (possibly nothing). */
	push(chunk: Uint8Array): Uint8Array | string {
		return this.clean(this.take(chunk));
	}

	/** The rest, at the end of the stream. */
	end(): string | Uint8Array {
		return this.clean(this.takeRest());
	}

	/**
	 * The bytes that may be written now, not yet scrubbed (`clean` does that): whole frames, or for a
	 * JSON array the chunk as it came until one mentions an error, whole lines from there.
	 */
	take(chunk: Uint8Array): Buffer {
		const buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : asBuffer(chunk);
		if (this.framing === 'json-array' && !this.erroring) {
			if (!buffer.includes(quotedError)) return this.keep(buffer, buffer.length);
			this.erroring = true;
		}
		const end = this.framing === 'sse' ? lastFrameEnd(buffer) : buffer.lastIndexOf(0x0a) + 1;
		return this.keep(buffer, end);
	}

	/** What was held back for a whole frame, at the end of the stream, not yet scrubbed. */
	takeRest(): Buffer {
		const rest = this.pending;
		this.pending = noBytes;
		return rest;
	}

	/**
	 * `ready` (from `take` or `takeRest`) as it may go out: the bytes themselves, or — when they may
	 * carry an error — their text with every secret masked. `text`: the bytes decoded as UTF-8, when
	 * the caller has done that already (the word is then looked for in the text, not the bytes again).
	 */
	clean(ready: Buffer, text?: string): Uint8Array | string {
		if (ready.length === 0) return ready;
		if (!this.erroring && !(text === undefined ? ready.includes(errorWord) : text.includes('error'))) return ready;
		return this.scrubber.scrub(text ?? ready.toString('utf8'), this.allowed);
	}

	private keep(buffer: Buffer, end: number): Buffer {
		if (end === buffer.length) {
			this.pending = noBytes;
			return buffer;
		}
		this.pending = Buffer.from(buffer.subarray(end));
		return buffer.subarray(0, end);
	}
}
