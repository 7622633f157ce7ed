/**
 * Utf8Chunks against the decoder it replaces (TextDecoder in streaming mode), on the same bytes cut
 * into chunks at every place and at random: characters of one to four bytes split anywhere, a
 * byte-order mark at the start (dropped) and later (kept), and malformed bytes.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Utf8Chunks} from '../../source/base/utf8-chunks.js';

function viaTextDecoder(chunks: readonly Uint8Array[]): string {
	const decoder = new TextDecoder();
	return chunks.map(chunk => decoder.decode(chunk, {stream: true})).join('') + decoder.decode();
}

function viaUtf8Chunks(chunks: readonly Uint8Array[]): string {
	const decoder = new Utf8Chunks();
	return chunks.map(chunk => decoder.decode(chunk)).join('') + decoder.end();
}

/** Every way of cutting `bytes` in two, and in three at every pair of places (short inputs). */
function cuts(bytes: Buffer): Buffer[][] {
	const out: Buffer[][] = [[bytes]];
	for (let a = 0; a <= bytes.length; a++) {
		out.push([bytes.subarray(0, a), bytes.subarray(a)]);
		if (bytes.length <= 24) for (let b = a; b <= bytes.length; b++) out.push([bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)]);
	}
	return out;
}

const samples: Array<[string, Buffer]> = [
	['ASCII', Buffer.from('data: {"a":1}\n\n')],
	['two, three and four bytes', Buffer.from('é€😀 ok')],
	['a byte-order mark first', Buffer.from('\ufeffdata: é\n\n')],
	['a byte-order mark later', Buffer.from('a\ufeffb')],
	['only a byte-order mark', Buffer.from('\ufeff')],
	['a lone continuation byte', Buffer.from([0x61, 0x80, 0x62])],
	['a cut-off character at the end', Buffer.from([0x61, 0xe2, 0x82])],
	['an invalid lead byte', Buffer.from([0xff, 0x61, 0xfe])],
	['a surrogate encoded in UTF-8', Buffer.from([0xed, 0xa0, 0x80, 0x61])],
	['an overlong encoding', Buffer.from([0xc0, 0xaf, 0x61])],
	['the start of a mark, then text', Buffer.from([0xef, 0xbb, 0x61])],
];

for (const [name, bytes] of samples) {
	test(`decodes like TextDecoder, cut anywhere: ${name}`, () => {
		for (const chunks of cuts(bytes)) assert.equal(viaUtf8Chunks(chunks), viaTextDecoder(chunks), `cut into ${chunks.map(chunk => chunk.length).join(' + ')} bytes`);
	});
}

test('decodes like TextDecoder: a long mixed text in random chunks', () => {
	let seed = 7;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const alphabet = ['a', ' ', '\n', 'é', 'ß', '€', '中', '😀', '𝄞', '"', '\\'];
	for (let round = 0; round < 200; round++) {
		let text = round % 3 === 0 ? '\ufeff' : '';
		for (let index = 0; index < 200; index++) text += alphabet[Math.floor(random() * alphabet.length)];
		const bytes = Buffer.from(text);
		const chunks: Buffer[] = [];
		for (let at = 0; at < bytes.length; ) {
			const size = 1 + Math.floor(random() * 9);
			chunks.push(bytes.subarray(at, at + size));
			at += size;
		}
		assert.equal(viaUtf8Chunks(chunks), viaTextDecoder(chunks));
		assert.equal(viaUtf8Chunks(chunks), text.replace(/^\ufeff/, ''));
	}
});

test('takes any Uint8Array, not only Buffers', () => {
	const bytes = new Uint8Array(Buffer.from('€uro'));
	assert.equal(viaUtf8Chunks([bytes.subarray(0, 2), bytes.subarray(2)]), '€uro');
});
