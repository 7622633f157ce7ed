/**
 * The gateway's own byte-pair counter (source/proxy/bpe.ts) against js-tiktoken's encoder, on the
 * same o200k_base ranks: the same count for every text — prose, code, every script, emoji, runs of
 * one character, numbers, contractions, special-token text, lone surrogates, thousands of random
 * strings — and its tables a fraction of js-tiktoken's heap.
 */
import assert from 'node:assert/strict';
import {createRequire} from 'node:module';
import {test} from 'node:test';
import {Tiktoken, type TiktokenBPE} from 'js-tiktoken/lite';
import {exposeGc} from '../../source/base/idle-trim.js';
import {BytePairCounter, type BpeRanks} from '../../source/proxy/bpe.js';

const ranks = createRequire(import.meta.url)('js-tiktoken/ranks/o200k_base') as TiktokenBPE & BpeRanks;

/** A small, seeded generator (mulberry32): the same strings every run. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Characters from the classes the encoding's pattern tells apart. */
const alphabets = [
	'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
	'0123456789',
	' \t\n\r  ',
	'.,;:!?\'"()[]{}<>/\\|@#$%^&*-_=+`~',
	'éèàüöäßçñÉÀÖøåœ',
	'日本語中文한국어テキスト',
	'привет мир Ελληνικά עברית العربية हिन्दी',
	'😀🎉👍🏽🚀❤️‍🔥',
	'\u0301\u0308\u200d\ufe0f',
];

function randomText(next: () => number): string {
	const length = Math.floor(next() * 60);
	let text = '';
	for (let index = 0; index < length; index++) {
		const alphabet = [...alphabets[Math.floor(next() * alphabets.length)]!];
		text += alphabet[Math.floor(next() * alphabet.length)];
	}
	return text;
}

const fixed = [
	'',
	'Say hello in five words.',
	'You are a coding agent.',
	"I'm sure they'll say we've done it; you'd agree? DON'T SHOUT.",
	'function f(x) { return x * 2; }\n\tconst y = [1, 2, 3].map(f);\n',
	'12345678901234567890 3.14159 1,000,000 0xdeadbeef',
	'Héllo wörld 😀 日本語のテキスト 👍🏽 مرحبا',
	'<|endoftext|> and <|endofprompt|> are text here',
	'a'.repeat(200),
	'!'.repeat(100),
	'é'.repeat(50),
	'    indented\n\n\n    more\r\n\r\n',
	'lone \ud83d surrogate \ude00 halves',
	Buffer.alloc(2000, 'token-').toString('base64'),
	'https://example.com/path?query=1&b=2#frag user@example.com',
	'Some earlier turn of a long coding session, with code: function f(x) { return x * 2; } '.repeat(20),
];

test('counts what js-tiktoken encodes, text for text', () => {
	const reference = new Tiktoken(ranks);
	const counter = new BytePairCounter(ranks);
	assert.equal(counter.size, 199_998, 'every rank of o200k_base');
	const next = random(20_261_127);
	const texts = [...fixed, ...Array.from({length: 3000}, () => randomText(next))];
	for (const text of texts) assert.equal(counter.count(text), reference.encode(text, [], []).length, JSON.stringify(text));
	// Joined, so pieces meet across what were separate texts.
	const joined = texts.join('');
	assert.equal(counter.count(joined), reference.encode(joined, [], []).length);
});

test('its tables take a fraction of the heap js-tiktoken\'s do', () => {
	const gc = exposeGc();
	assert.ok(gc, 'this Node exposes a collection');
	const heapAfter = (make: () => unknown): number => {
		gc();
		const before = process.memoryUsage().heapUsed;
		const made = make();
		gc();
		const grown = process.memoryUsage().heapUsed - before;
		assert.ok(made);
		return grown / 1e6;
	};
	const own = heapAfter(() => new BytePairCounter(ranks));
	const theirs = heapAfter(() => new Tiktoken(ranks));
	assert.ok(own < 25, `the counter's tables: ${own.toFixed(1)} MB of heap`);
	assert.ok(own < theirs / 3, `against js-tiktoken's ${theirs.toFixed(1)} MB`);
});

test('a rank file it cannot read is an error, not a wrong count', () => {
	assert.throws(() => new BytePairCounter({pat_str: ranks.pat_str, bpe_ranks: '! x aGk='}), /without its first rank/);
	assert.throws(() => new BytePairCounter({pat_str: ranks.pat_str, bpe_ranks: '!'}), /without its first rank/);
	assert.throws(() => new BytePairCounter({pat_str: ranks.pat_str, bpe_ranks: '! 0 aGk= a*b'}), /not base64: a\*b/);
	const small = new BytePairCounter({pat_str: ranks.pat_str, bpe_ranks: '! 0 aA== aQ==\n\n! 2 aGk='});
	assert.equal(small.size, 3, 'h, i and "hi", blank lines skipped');
	assert.equal(small.count('hi'), 1);
	assert.equal(small.count('ih'), 2);
	// A pattern that can match nothing steps on, as matchAll would, instead of looping.
	const emptyMatching = new BytePairCounter({pat_str: 'h*', bpe_ranks: '! 0 aA== aQ==\n! 2 aGg='});
	assert.equal(emptyMatching.count('ihhh😀'), 2, '"hhh" is "hh" and "h"; "i" and the emoji match nothing');
});
