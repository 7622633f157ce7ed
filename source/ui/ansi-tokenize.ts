/**
 * Ink's styled characters, for its output: the build puts this module in place of the
 * `@alcalzone/ansi-tokenize` package (`--alias` in package.json's build script, as for
 * string-width.ts), and it answers as that package does.
 *
 * Why: Ink turns every frame into one styled character a cell (120×40 is 4,800 of them), then each
 * row back into text with the package's `styledCharsToString`, which works out the escape sequences
 * from one character to the next by building three `Set`s and several arrays a character — even
 * between two characters of the same style, which is nearly all of them (blanks, a word in one
 * colour). A frame of the TUI allocated ~10 MB that way; idle, that was most of what the UI thread
 * allocated, and under load it is a frame a second. Here two neighbours whose styles are the same
 * codes (a run, or two blanks) take nothing but the character, and the characters of a run share
 * one array of styles instead of a copy each. Where styles differ, the package's own functions
 * answer. And a line of only narrow symbols is split into characters without the package's grapheme
 * segmenter (`tokenize`, below). `test/ui/ansi-tokenize.test.ts` holds all three to the package's output.
 */
import {ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, tokenize as packageTokenize, type AnsiCode, type StyledChar, type Token} from '../../node_modules/@alcalzone/ansi-tokenize/build/index.js';
import {getEndCode} from '../../node_modules/@alcalzone/ansi-tokenize/build/ansiCodes.js';
import {afterSgr, isNarrowSymbol} from './string-width.js';

export * from '../../node_modules/@alcalzone/ansi-tokenize/build/index.js';

/**
 * A line's characters and escape sequences. The package finds the characters with an
 * `Intl.Segmenter` (graphemes), the most expensive step of a frame once the styles are cheap; a line
 * of only narrow symbols and SGR sequences — all this UI draws, as string-width.ts says — has one
 * character a code unit, which a loop finds. Any other line (an emoji, CJK, a combining mark, a
 * link, another escape sequence) and a call that stops at a width go to the package, whole.
 */
export function tokenize(text: string, endChar = Number.POSITIVE_INFINITY): Token[] {
	return (endChar === Number.POSITIVE_INFINITY ? narrowTokens(text) : undefined) ?? packageTokenize(text, endChar);
}

function narrowTokens(text: string): Token[] | undefined {
	const tokens: Token[] = [];
	let index = 0;
	while (index < text.length) {
		const code = text.charCodeAt(index);
		if (code === 0x1b) {
			const after = afterSgr(text, index);
			if (after < 0) return undefined;
			for (const part of sgrParts(text.slice(index, after))) tokens.push({type: 'ansi', code: part, endCode: getEndCode(part)});
			index = after;
			continue;
		}
		if (!isNarrowSymbol(code)) return undefined;
		tokens.push({type: 'char', value: text[index]!, fullWidth: false});
		index++;
	}
	return tokens;
}

/** A compound sequence (`ESC[1;38;5;208m`) as one sequence a style, 8-bit and 24-bit colours kept whole, as the package splits it. */
function sgrParts(sequence: string): string[] {
	if (!sequence.includes(';')) return [sequence];
	const parts = sequence.slice(2, -1).split(';');
	const out: string[] = [];
	for (let index = 0; index < parts.length; index++) {
		const part = parts[index]!;
		if ((part === '38' || part === '48') && index + 2 < parts.length && parts[index + 1] === '5') {
			out.push(parts.slice(index, index + 3).join(';'));
			index += 2;
		} else if ((part === '38' || part === '48') && index + 4 < parts.length && parts[index + 1] === '2') {
			out.push(parts.slice(index, index + 5).join(';'));
			index += 4;
		} else out.push(part);
	}
	return out.map(part => `\u001B[${part}m`);
}

/** The same codes in the same order (the escape sequences between the two are then none). */
function sameStyles(a: readonly AnsiCode[], b: readonly AnsiCode[]): boolean {
	if (a === b) return true;
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) {
		const [x, y] = [a[index]!, b[index]!];
		if (x !== y && (x.code !== y.code || x.endCode !== y.endCode)) return false;
	}
	return true;
}

/** Characters with the styles in force at each; a run of one style shares its array (never changed: a new code makes a new one). */
export function styledCharsFromTokens(tokens: Token[]): StyledChar[] {
	let codes: AnsiCode[] = [];
	const chars: StyledChar[] = [];
	for (const token of tokens) {
		if (token.type === 'ansi') codes = reduceAnsiCodesIncremental(codes, [token]);
		else chars.push({type: 'char', value: token.value, fullWidth: token.fullWidth, styles: codes});
	}
	return chars;
}

/** The characters as text, with the escape sequences that change the style where it changes, and those that end it at the end. */
export function styledCharsToString(chars: StyledChar[]): string {
	let text = '';
	for (let index = 0; index < chars.length; index++) {
		const char = chars[index]!;
		if (index === 0) {
			if (char.styles.length > 0) text += ansiCodesToString(char.styles);
		} else {
			const before = chars[index - 1]!.styles;
			if (!sameStyles(before, char.styles)) text += ansiCodesToString(diffAnsiCodes(before, char.styles));
		}
		text += char.value;
		if (index === chars.length - 1 && char.styles.length > 0) text += ansiCodesToString(diffAnsiCodes(char.styles, []));
	}
	return text;
}
