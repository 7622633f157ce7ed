/**
 * Counting a text's tokens with a tiktoken byte-pair encoding (o200k_base here), from js-tiktoken's
 * rank files — only counting: the gateway never needs the token ids. js-tiktoken's own encoder
 * built its tables in ~450 ms and kept ~66 MB of heap for them (a key of decimal byte lists and a
 * `Uint8Array` for each of 200,000 tokens), and each `encode` call cost ~4 µs for a short text,
 * most of it before its first piece (a regular expression of the special tokens built, two sets),
 * then a `TextEncoder` call and a `join` per piece: on a chat-completions channel that put ~10 µs on every streamed answer to
 * an Anthropic client (its `message_start` states the prompt's size) and the tables' half second on
 * the first one. Here the tables are one `Map` from a token's bytes, as a Latin-1 string (one
 * character a byte), to its rank: ~12 MB, built in ~90 ms; a piece of ASCII is its own key.
 *
 * The count is tiktoken's: the text is split by the encoding's pattern, a piece that is a token
 * counts one, and any other is merged pair by pair — the adjacent pair of lowest rank first, the
 * leftmost of equals — until no pair is a token (`bpe.test.ts` checks it against js-tiktoken).
 * Special tokens are not recognised: a prompt that mentions `<|endoftext|>` is text, as a provider
 * reads it.
 */

/** A tiktoken rank file as js-tiktoken ships it: lines of `! <first rank> <token in base64>…`. */
export type BpeRanks = {readonly pat_str: string; readonly bpe_ranks: string};

/** Whether a string is all ASCII: its UTF-8 bytes are its characters. */
const ascii = /^[\u0000-\u007f]*$/;

export class BytePairCounter {
	private readonly ranks = new Map<string, number>();
	private readonly pattern: RegExp;

	constructor(source: BpeRanks) {
		this.pattern = new RegExp(source.pat_str, 'gu');
		// Walked in place (no array of 200,000 fields, no Buffer a token): the build's garbage is about its keys' own size.
		const text = source.bpe_ranks;
		for (let at = 0; at < text.length; ) {
			const end = endOf(text, '\n', at, text.length);
			if (end > at) this.readLine(text, at, end);
			at = end + 1;
		}
	}

	/** One line, `! <rank of its first token> <token in base64>…`: each token's bytes and rank into the table. */
	private readLine(text: string, start: number, end: number): void {
		const rankStart = endOf(text, ' ', start, end) + 1;
		const rankEnd = endOf(text, ' ', rankStart, end);
		let rank = rankStart < rankEnd ? Number(text.slice(rankStart, rankEnd)) : Number.NaN;
		if (!Number.isInteger(rank)) throw new Error(`a tiktoken rank file line without its first rank: ${text.slice(start, Math.min(end, start + 40))}`);
		for (let at = rankEnd + 1; at < end; ) {
			const tokenEnd = endOf(text, ' ', at, end);
			this.ranks.set(decodeBase64(text, at, tokenEnd), rank++);
			at = tokenEnd + 1;
		}
	}

	/** Tokens in the encoding's table. */
	get size(): number {
		return this.ranks.size;
	}

	/** The number of tokens `text` encodes to. */
	count(text: string): number {
		let tokens = 0;
		// `exec` from the start, not `matchAll` (its iterator and copy of the pattern cost as much as a short text's work).
		const pattern = this.pattern;
		pattern.lastIndex = 0;
		for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
			const piece = match[0];
			if (piece === '') {
				// The encoding's pattern matches nothing empty; were it to, this steps on a character as matchAll would (a
				// whole surrogate pair: a `u` pattern set inside one starts again at its first half).
				pattern.lastIndex += (text.codePointAt(pattern.lastIndex) ?? 0) > 0xffff ? 2 : 1;
				continue;
			}
			const bytes = ascii.test(piece) ? piece : Buffer.from(piece, 'utf8').toString('latin1');
			tokens += this.ranks.has(bytes) ? 1 : this.merged(bytes);
		}
		return tokens;
	}

	/** The tokens a piece that is not one token merges into: tiktoken's byte-pair merge, counted. */
	private merged(bytes: string): number {
		// Where each part starts, and the end: parts are merged by dropping the boundary between them.
		const starts: number[] = [];
		for (let index = 0; index <= bytes.length; index++) starts.push(index);
		while (starts.length > 2) {
			let lowest = Number.POSITIVE_INFINITY;
			let at = -1;
			for (let index = 0; index < starts.length - 2; index++) {
				const rank = this.ranks.get(bytes.slice(starts[index], starts[index + 2]));
				if (rank !== undefined && rank < lowest) {
					lowest = rank;
					at = index;
				}
			}
			if (at === -1) break;
			starts.splice(at + 1, 1);
		}
		return starts.length - 1;
	}
}

/** Base64 digits' values by character code; -1 for what is not one. */
const digits = (() => {
	const values = new Int8Array(128).fill(-1);
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	for (let index = 0; index < alphabet.length; index++) values[alphabet.charCodeAt(index)] = index;
	return values;
})();

/** The bytes `text.slice(start, end)` encodes in base64, as a Latin-1 string (a character a byte). */
function decodeBase64(text: string, start: number, end: number): string {
	while (end > start && text.charCodeAt(end - 1) === 0x3d) end--; // `=` padding
	const codes: number[] = [];
	let bits = 0;
	let held = 0;
	for (let index = start; index < end; index++) {
		const code = text.charCodeAt(index);
		const value = code < 128 ? digits[code]! : -1;
		if (value === -1) throw new Error(`a tiktoken rank file token that is not base64: ${text.slice(start, end)}`);
		bits = (bits << 6) | value;
		held += 6;
		if (held >= 8) {
			held -= 8;
			codes.push((bits >> held) & 0xff);
		}
	}
	return String.fromCharCode(...codes);
}

/** Where the next `separator` at or after `from` is, or `end` when there is none before it. */
function endOf(text: string, separator: string, from: number, end: number): number {
	const found = text.indexOf(separator, from);
	return found === -1 || found > end ? end : found;
}
