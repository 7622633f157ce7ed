/**
 * The build's string-width (source/ui/string-width.ts, in place of the package for Ink and the
 * packages it uses): the same answer as the package for every string, its fast path only for the
 * strings that take one column a symbol — and the built TUI uses it, not the package's copies.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {randomOf} from '../helpers/random.js';
import {spawnSync} from 'node:child_process';
import {join} from 'node:path';
import {builtSources, dist} from '../helpers/dist.js';
import packageStringWidth from 'string-width';
import stringWidth, {narrowSymbolRanges} from '../../source/ui/string-width.js';

const alphabet: string[] = [];
for (const [low, high] of narrowSymbolRanges) for (let code = low; code <= high; code++) alphabet.push(String.fromCharCode(code));

test('every symbol of the fast path is one column to string-width, alone and after any other', () => {
	const wide = alphabet.filter(symbol => packageStringWidth(symbol) !== 1);
	assert.deepEqual(wide, [], 'symbols string-width does not count as one column');
	for (const symbol of alphabet) assert.equal(stringWidth(symbol), 1, `U+${symbol.charCodeAt(0).toString(16)}`);
	// No pair joins into one cluster: each after every symbol of the UI's own (a pair of each of the 640 would be 400k calls).
	for (const before of ['a', '·', '…', '●', '█', '│', '↑', '✓', 'é', '–']) {
		for (const symbol of alphabet) assert.equal(packageStringWidth(before + symbol), 2, `${before} then U+${symbol.charCodeAt(0).toString(16)}`);
	}
});

test('strings of those symbols and SGR colours: the width string-width gives', () => {
	const colours = ['\u001B[1m', '\u001B[22m', '\u001B[36m', '\u001B[39m', '\u001B[90m', '\u001B[38;5;208m', '\u001B[0m', '\u001B[m'];
	// A fixed sequence, not Math.random: a failure names a string that fails again (the tests' xorshift:
	// an LCG's `seed % below` repeats its low bits with a short period).
	const next = randomOf(7);
	for (let round = 0; round < 5000; round++) {
		let text = '';
		const length = next(40);
		for (let index = 0; index < length; index++) text += next(6) === 0 ? colours[next(colours.length)] : alphabet[next(alphabet.length)];
		assert.equal(stringWidth(text), packageStringWidth(text), JSON.stringify(text));
	}
	assert.equal(stringWidth('\u001B[1m\u001B[36mVirtual keys\u001B[39m\u001B[22m\u001B[90m  1 key · clients only ever see these\u001B[39m'), 49);
	assert.equal(stringWidth(''), 0);
});

test('anything else goes to string-width whole: emoji, CJK, marks, selectors, other escapes, line breaks, options', () => {
	const others = [
		'model 🤖 ready',
		'👩‍💻',
		'日本語のモデル',
		'e\u0301',
		'↑\uFE0F',
		'◽ ◾',
		'soft\u00ADhyphen',
		'zero\u200Bwidth',
		'tab\there',
		'two\nlines',
		'\u001B]8;;https://example.com\u0007link\u001B]8;;\u0007',
		'\u001B[2Kcleared',
		'\u001B[1',
		'ｱｲｳ',
		'한국어',
	];
	for (const text of others) assert.equal(stringWidth(text), packageStringWidth(text), JSON.stringify(text));
	assert.equal(stringWidth('·…●', {ambiguousIsNarrow: false}), packageStringWidth('·…●', {ambiguousIsNarrow: false}));
	assert.equal(stringWidth('·…●', {ambiguousIsNarrow: false}), 6);
	assert.equal(stringWidth('\u001B[1mbold\u001B[22m', {countAnsiEscapeCodes: true}), packageStringWidth('\u001B[1mbold\u001B[22m', {countAnsiEscapeCodes: true}));
});

test('the built TUI measures text with it: no copy of the package but the one it falls back to', () => {
	const widths = builtSources().filter(source => /string-width\/index\.js$|ui\/string-width\.ts$/.test(source)).map(source => source.replace(/^(\.\.\/)+/, '')).sort();
	assert.deepEqual(widths, ['node_modules/string-width/index.js', 'source/ui/string-width.ts'], 'the string-width modules bundled (wrap-ansi had a copy of its own before)');
});

test('the built TUI evaluates the string-width package on its first call, not as its UI loads (its top level compiles \\p{RGI_Emoji}: ~25 ms of the first frame)', () => {
	const bundle = join(dist, 'run.cjs');
	// Every expression the bundle builds with the RegExp constructor as it loads (esbuild writes a
	// `v`-flag literal for Node 20 as one), recorded; slice-ansi's, built at its top level, shows the record works.
	const script = `const seen = []; globalThis.RegExp = new Proxy(RegExp, {construct(target, args) { seen.push(String(args[0])); return Reflect.construct(target, args); }}); require(${JSON.stringify(bundle)}); console.log(JSON.stringify(seen));`;
	const ran = spawnSync(process.execPath, ['-e', script], {encoding: 'utf8', env: {...process.env, NODE_NO_WARNINGS: '1'}});
	assert.equal(ran.status, 0, ran.stderr);
	const seen = JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as string[];
	assert.ok(seen.some(pattern => pattern.includes('\\p{Emoji_Presentation}')), `slice-ansi's expression recorded: ${seen.join(', ')}`);
	assert.deepEqual(seen.filter(pattern => pattern.includes('RGI_Emoji')), [], 'string-width\'s expressions are not built as the UI loads');
});
