import {asBuffer} from './bytes.js';

/**
 * UTF-8 bytes → text, chunk by chunk, as a body arrives: a character split between two chunks is
 * held back (at most three bytes) until the rest of it comes, and a byte-order mark at the very
 * start is dropped — what `new TextDecoder().decode(chunk, {stream: true})` does. A TextDecoder
 * opens an ICU converter for each stream, which cost a passed-through stream about 2 µs and a couple
 * of kilobytes of memory; this decodes with Buffer's own UTF-8 decoder instead (malformed bytes
 * become U+FFFD either way). test/base/utf8-chunks.test.ts holds the two side by side.
 */
export class Utf8Chunks {
	private held: Buffer | null = null;
	private started = false;

	decode(chunk: Uint8Array): string {
		let bytes = asBuffer(chunk);
		if (this.held) {
			bytes = Buffer.concat([this.held, bytes]);
			this.held = null;
		}
		let start = 0;
		if (!this.started) {
			// The mark can itself arrive split: wait for three bytes before deciding.
			if (bytes.length < 3 && isMarkPrefix(bytes)) {
				this.held = Buffer.from(bytes);
				return '';
			}
			this.started = true;
			if (startsWithByteOrderMark(bytes)) start = 3;
		}
		const end = completeLength(bytes);
		if (end < bytes.length) this.held = Buffer.from(bytes.subarray(end));
		return start === 0 && end === bytes.length ? bytes.toString('utf8') : bytes.toString('utf8', start, end);
	}

	/** The bytes have run out: what is still held is malformed (U+FFFD). */
	end(): string {
		const held = this.held;
		this.held = null;
		if (!held) return '';
		if (!this.started) {
			this.started = true;
			if (held.length === 3 && startsWithByteOrderMark(held)) return '';
		}
		return held.toString('utf8');
	}
}

/** Whether `bytes` begin with UTF-8's byte-order mark (EF BB BF). */
export const startsWithByteOrderMark = (bytes: Uint8Array): boolean => bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

const isMarkPrefix = (bytes: Buffer) => (bytes.length === 0 || bytes[0] === 0xef) && (bytes.length < 2 || bytes[1] === 0xbb);

/** How many bytes from the start end on a whole character: the last lead byte's sequence, if it is not complete yet, is left out. */
function completeLength(bytes: Buffer): number {
	const length = bytes.length;
	const lookBack = Math.min(3, length);
	for (let back = 1; back <= lookBack; back++) {
		const byte = bytes[length - back]!;
		if ((byte & 0xc0) === 0x80) continue;
		if (byte < 0xc0) return length;
		const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
		return back < need ? length - back : length;
	}
	return length;
}
