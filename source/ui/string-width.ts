/**
 * The display width of a string, for Ink: the build puts this module in place of the `string-width`
 * package for everything it bundles (Ink's layout and output, widest-line, wrap-ansi, cli-truncate;
 * `--alias` in package.json's build script), and it answers as that package does.
 *
 * Why: string-width's first string outside printable ASCII compiles its Unicode property regular
 * expressions (`\p{RGI_Emoji}` among them) and starts an `Intl.Segmenter` — ~55 ms of the TUI's
 * first frame on a slow host, before the screen shows — and every string after it is segmented into
 * graphemes (~50 µs for a row of the request log). This UI draws ASCII and a few symbols (· … ↑ ↓
 * ● █ ▁ │ ✓), coloured with SGR escape sequences: a string of only those takes one column a
 * symbol, which a loop over its code units finds in a microsecond. Anything else — an emoji, CJK, a
 * combining mark, a variation selector, any other escape sequence, a line break — goes to
 * string-width itself, whole.
 * `test/ui/string-width.test.ts` checks every character of the fast path against string-width.
 */
import packageStringWidth, {type Options} from '../../node_modules/string-width/index.js';

export type {Options};

export default function stringWidth(text: string, options?: Options): number {
	if (typeof text === 'string' && (options === undefined || (options.ambiguousIsNarrow !== false && options.countAnsiEscapeCodes !== true))) {
		const width = narrowWidth(text);
		if (width >= 0) return width;
	}
	return packageStringWidth(text, options);
}

/**
 * The width of a string of narrow symbols and SGR escape sequences (`ESC [ 1;36 m`: the colours and
 * styles Ink's text carries, zero columns, as string-width strips them), or -1 for any other string.
 */
function narrowWidth(text: string): number {
	let width = 0;
	let index = 0;
	while (index < text.length) {
		const code = text.charCodeAt(index);
		if (code === 0x1b) {
			index = afterSgr(text, index);
			if (index < 0) return -1;
			continue;
		}
		if (!isNarrowSymbol(code)) return -1;
		width++;
		index++;
	}
	return width;
}

/** The index after the SGR sequence that starts at `escape`, or -1 when something else starts there. */
export function afterSgr(text: string, escape: number): number {
	if (text.charCodeAt(escape + 1) !== 0x5b) return -1;
	for (let index = escape + 2; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code === 0x6d) return index + 1;
		if ((code < 0x30 || code > 0x39) && code !== 0x3b) return -1;
	}
	return -1;
}

/**
 * Code units that are one column each and never join a neighbour in a grapheme cluster: printable
 * ASCII, Latin-1's printable characters but the soft hyphen, general punctuation (dashes, quotes,
 * bullets, ellipsis, ‰ ′ ‹ ›), arrows, box drawing, block elements, geometric shapes but the two
 * with emoji presentation (◽ ◾), and check and cross marks. Ambiguous-width ones (East Asian Width
 * "A": · × … ↑ ● █) count as narrow, string-width's default; its options can say otherwise, and then
 * it answers.
 */
export const narrowSymbolRanges: ReadonlyArray<readonly [number, number]> = [
	[0x20, 0x7e],
	[0xa0, 0xac],
	[0xae, 0xff],
	[0x2010, 0x2027],
	[0x2030, 0x205e],
	[0x2190, 0x21ff],
	[0x2500, 0x25fc],
	[0x2713, 0x2718],
];

export function isNarrowSymbol(code: number): boolean {
	if (code <= 0x7e) return code >= 0x20;
	for (let index = 1; index < narrowSymbolRanges.length; index++) {
		const [low, high] = narrowSymbolRanges[index]!;
		if (code < low) return false;
		if (code <= high) return true;
	}
	return false;
}
