/**
 * The build's ansi-tokenize (source/ui/ansi-tokenize.ts, in place of the package for Ink's output):
 * the same styled characters and the same text as the package for every line, and the built TUI
 * uses it.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {randomOf} from '../helpers/random.js';
import {builtSources} from '../helpers/dist.js';
import * as pkg from '@alcalzone/ansi-tokenize';
import {styledCharsFromTokens, styledCharsToString, tokenize} from '../../source/ui/ansi-tokenize.js';
import {narrowSymbolRanges} from '../../source/ui/string-width.js';

const codes = [
	'\u001B[0m', '\u001B[m', '\u001B[1m', '\u001B[2m', '\u001B[22m', '\u001B[3m', '\u001B[23m', '\u001B[4m', '\u001B[24m', '\u001B[7m', '\u001B[27m', '\u001B[9m', '\u001B[29m',
	'\u001B[31m', '\u001B[36m', '\u001B[90m', '\u001B[39m', '\u001B[42m', '\u001B[100m', '\u001B[49m', '\u001B[38;5;208m', '\u001B[48;5;17m', '\u001B[38;2;10;20;30m', '\u001B[1;36m', '\u001B[22;39m',
	'\u001B]8;;https://example.com\u0007', '\u001B]8;;\u0007',
];
const glyphs = ['a', 'Z', ' ', ' ', ' ', '·', '…', '●', '█', '│', '↑', '✓', '日', '🤖', 'e\u0301', '한'];

// A fixed sequence, not Math.random: a failure names a line that fails again.
const next = randomOf(11);

function line(): string {
	let text = '';
	const length = next(60);
	for (let index = 0; index < length; index++) text += next(5) === 0 ? codes[next(codes.length)] : glyphs[next(glyphs.length)];
	return text;
}

/** A row as Ink's output holds it: the line's characters at some column, blanks of their own around them, wide characters' second cells sharing their styles. */
function row(chars: pkg.StyledChar[], at: number, width: number): pkg.StyledChar[] {
	const cells: pkg.StyledChar[] = Array.from({length: width}, () => ({type: 'char', value: ' ', fullWidth: false, styles: []}));
	let x = at;
	for (const char of chars) {
		cells[x] = char;
		if (char.fullWidth) cells[x + 1] = {type: 'char', value: '', fullWidth: false, styles: char.styles};
		x += char.fullWidth ? 2 : 1;
	}
	return cells.slice(0, width);
}

const narrow: string[] = [];
for (const [low, high] of narrowSymbolRanges) for (let code = low; code <= high; code++) narrow.push(String.fromCharCode(code));
const sequences = [...codes, '\u001B[38;5m', '\u001B[38;2;1;2m', '\u001B[1;38;5;208;48;2;1;2;3;4m', '\u001B[;m', '\u001B[2K', '\u001B[1', '\u001B', '\u001B(B', '\u009B31m'];
const others = ['🤖', '日', 'e\u0301', '\uFE0F', '\u200D', '\r\n', '\t', '\u00AD', 'ｱ', '\u{1F1E9}\u{1F1EA}'];

test('a line split into characters and escape sequences: the package\'s tokens, whether the line takes the narrow path or goes to the package', () => {
	for (let round = 0; round < 5000; round++) {
		let text = '';
		const length = next(50);
		const mixed = round % 3 === 0;
		for (let index = 0; index < length; index++) {
			const pick = next(10);
			text += pick === 0 ? sequences[next(mixed ? sequences.length : codes.length - 2)] : mixed && pick === 1 ? others[next(others.length)] : narrow[next(narrow.length)];
		}
		assert.deepEqual(tokenize(text), pkg.tokenize(text), JSON.stringify(text));
		if (round % 10 === 0) assert.deepEqual(tokenize(text, 7), pkg.tokenize(text, 7), `${JSON.stringify(text)} up to 7 columns`);
	}
	assert.deepEqual(tokenize(''), []);
});

test('the styled characters of a line and the text back: what the package makes, line for line', () => {
	for (let round = 0; round < 3000; round++) {
		const text = line();
		const tokens = pkg.tokenize(text);
		const ours = styledCharsFromTokens(tokens);
		const theirs = pkg.styledCharsFromTokens(tokens);
		assert.deepEqual(ours, theirs, JSON.stringify(text));
		assert.equal(styledCharsToString(ours), pkg.styledCharsToString(theirs), JSON.stringify(text));
		const at = next(8);
		assert.equal(styledCharsToString(row(ours, at, at + 130)), pkg.styledCharsToString(row(theirs, at, at + 130)), `${JSON.stringify(text)} in a row at ${at}`);
	}
	assert.equal(styledCharsToString([]), '');
	assert.equal(styledCharsToString(styledCharsFromTokens(pkg.tokenize('\u001B[1m\u001B[36mKeys\u001B[39m\u001B[22m  plain'))), '\u001B[1m\u001B[36mKeys\u001B[39m\u001B[22m  plain');
});

test('a run of one style shares one array of styles; a change of style makes a new one and leaves the earlier as it was', () => {
	const chars = styledCharsFromTokens(pkg.tokenize('\u001B[36mab\u001B[1mcd\u001B[0mef'));
	assert.equal(chars[0]!.styles, chars[1]!.styles);
	assert.equal(chars[2]!.styles, chars[3]!.styles);
	assert.notEqual(chars[1]!.styles, chars[2]!.styles);
	assert.deepEqual(chars.map(char => char.styles.map(code => code.code)), [['\u001B[36m'], ['\u001B[36m'], ['\u001B[36m', '\u001B[1m'], ['\u001B[36m', '\u001B[1m'], [], []]);
});

test('the built TUI draws with it: no copy of the package\'s own functions', () => {
	const found = builtSources().filter(source => /ansi-tokenize/.test(source)).map(source => source.replace(/^(\.\.\/)+/, '')).sort();
	assert.ok(found.includes('source/ui/ansi-tokenize.ts'), `bundled: ${found.join(', ')}`);
	assert.ok(!found.includes('node_modules/@alcalzone/ansi-tokenize/build/styledChars.js'), 'the package\'s styledChars.js is not bundled');
});
