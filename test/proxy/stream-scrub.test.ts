/**
 * The frame ends a passed-through stream is cut at (stream-scrub.ts). `lastFrameEnd` and
 * `nextFrameEnd` take a fast path for streams framed by LF alone and for chunks that end with their
 * frame; here they are held, on texts and bytes of every framing mixed at random, to the plain
 * definition — the furthest (or nearest) blank line, read line by line as the SSE spec reads lines
 * (ended by CRLF, LF or CR, mixed: `\n\r\n` is one), that starts at or before (at or after) the
 * index — and `OutboundStreamScrub` to forwarding exactly the whole frames; the
 * passed-through stream of an OpenAI client that did not ask for usage loses every usage-only frame,
 * and only those, however the provider's writes split it.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {OutboundStreamScrub, lastFrameEnd, nextFrameEnd, onlyData} from '../../source/proxy/stream-scrub.js';
import {Scrubber} from '../../source/base/secrets.js';
import {Outgoing} from '../../source/proxy/passthrough-stream.js';
import {SseFeed} from '../../source/formats/sse.js';
import {StreamMeter} from '../../source/proxy/meter.js';
import {inboundAdapters} from '../../source/formats/index.js';
import {openaiHttp} from '../../source/formats/openai/openai-http.js';
import type {TranslationContext} from '../../source/formats/adapter.js';
import {randomOf} from '../helpers/random.js';

/**
 * The blank lines of a text, read line by line as the SSE spec defines its lines (each ends with
 * CRLF, LF or CR): a line end right after another. `key` is the index of the first one's last
 * character, `end` the index just past the second.
 */
function blankLines(text: string): Array<{key: number; end: number}> {
	const found: Array<{key: number; end: number}> = [];
	let previousEnd = -1;
	for (let index = 0; index < text.length; index++) {
		const code = text[index];
		if (code !== '\n' && code !== '\r') continue;
		const end = code === '\r' && text[index + 1] === '\n' ? index + 2 : index + 1;
		if (index === previousEnd) found.push({key: index - 1, end});
		previousEnd = end;
		index = end - 1;
	}
	return found;
}

function expectedLast(text: string, from: number): number {
	let end = 0;
	for (const blank of blankLines(text)) if (blank.key <= from) end = blank.end;
	return end;
}

function expectedNext(text: string, from: number): number {
	return blankLines(text).find(blank => blank.key >= from)?.end ?? text.length;
}

const pieces = ['data: {"a":1}', 'x', '\n', '\r', '\n\n', '\r\n', '\r\n\r\n', '\r\r', '\n\r\n', '\r\n\n', '\r\r\n', ': ping', 'event: e', 'é'];

function randomText(random: (below: number) => number, lfOnly: boolean): string {
	let text = '';
	const count = random(30);
	for (let index = 0; index < count; index++) {
		const piece = pieces[random(pieces.length)]!;
		text += lfOnly ? piece.replaceAll('\r', '') : piece;
	}
	return text;
}

test('lastFrameEnd and nextFrameEnd find the blank lines the SSE spec defines, on text and on bytes, LF-only or with CRLF, LF and CR mixed', () => {
	const random = randomOf(0x9e3779b9);
	for (let round = 0; round < 4000; round++) {
		const text = randomText(random, round % 2 === 0);
		// Latin-1 keeps a character a byte, as the proxy reads bytes.
		const bytes = Buffer.from(text, 'latin1');
		const latin = bytes.toString('latin1');
		assert.equal(lastFrameEnd(latin), expectedLast(latin, latin.length), JSON.stringify(latin));
		assert.equal(lastFrameEnd(bytes), expectedLast(latin, latin.length), JSON.stringify(latin));
		for (const from of [0, random(latin.length + 1), latin.length - 1]) {
			if (from < 0) continue;
			assert.equal(lastFrameEnd(latin, from), expectedLast(latin, from), `${JSON.stringify(latin)} from ${from}`);
			assert.equal(lastFrameEnd(bytes, from), expectedLast(latin, from), `${JSON.stringify(latin)} from ${from} (bytes)`);
			assert.equal(nextFrameEnd(latin, from), expectedNext(latin, from), `${JSON.stringify(latin)} next from ${from}`);
		}
	}
});

test('the scrub forwards whole frames only, and every whole frame at once, whatever the chunks and the framing, and the rest at the end', () => {
	const random = randomOf(12345);
	const scrubber = new Scrubber(['sk-never-shown-0123456789']);
	for (let round = 0; round < 2000; round++) {
		const text = randomText(random, round % 3 === 0);
		const bytes = Buffer.from(text, 'latin1');
		const scrub = new OutboundStreamScrub(scrubber, 'sse');
		let sent = '';
		let at = 0;
		while (at < bytes.length) {
			const size = 1 + random(12);
			const piece = scrub.push(bytes.subarray(at, at + size));
			at += size;
			const out = typeof piece === 'string' ? piece : Buffer.from(piece).toString('latin1');
			// Everything sent so far ends where a frame ends.
			sent += out;
			assert.equal(lastFrameEnd(sent), sent.length === 0 ? 0 : sent.length, `${JSON.stringify(text)}: sent ${JSON.stringify(sent)}`);
			// And no whole frame is held back: of what has come, only line ends may wait past the last blank line sent
			// (an empty line after it, or the LF of a CRLF whose CR ended a write and a frame) — never a frame's content.
			const received = bytes.subarray(0, Math.min(at, bytes.length)).toString('latin1');
			const held = received.slice(sent.length, Math.max(sent.length, expectedLast(received, received.length)));
			assert.match(held, /^[\r\n]*$/, `${JSON.stringify(received)}: sent only ${JSON.stringify(sent)}`);
		}
		const rest = scrub.end();
		sent += typeof rest === 'string' ? rest : Buffer.from(rest).toString('latin1');
		assert.equal(sent, text);
	}
});

test('every usage-only frame is cut, and nothing else, however the chunks fall and whatever the framing', () => {
	const random = randomOf(777);
	const hides = openaiHttp.passthrough({model: 'gpt-4o-mini', stream: true, messages: []}, {call: {operation: 'generate', model: 'gpt-4o-mini', stream: true, sse: true}, upstreamModel: 'gpt-4o-mini', headers: {}}).hides;
	assert.ok(hides, 'a client that did not ask for usage has its usage frame hidden');
	const ctx = {warn: (message: string) => assert.fail(message)} as unknown as TranslationContext;
	const chunk = (choices: unknown[], extra: object = {}) => JSON.stringify({id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices, ...extra});
	const usage = (tokens: number) => chunk([], {usage: {prompt_tokens: tokens, completion_tokens: 1, total_tokens: tokens + 1}});
	for (let round = 0; round < 500; round++) {
		// A frame's lines end with CRLF, LF or CR, and so does its blank line — mixed, as the spec allows (\n\r\n, \r\n\n…).
		const lineEnds = ['\n', '\r\n', '\r'] as const;
		const line = lineEnds[random(3)]!;
		const blank = lineEnds[random(3)]!;
		// A CR followed by an LF is one line end (CRLF), not two.
		const end = line === '\r' && blank === '\n' ? '\r\r\n' : line + blank;
		const frames: Array<{text: string; hidden: boolean}> = [];
		for (let index = 0; index < 1 + random(6); index++) {
			const kind = random(4);
			if (kind === 0) frames.push({text: `data: ${usage(index + 1)}${end}`, hidden: true});
			else if (kind === 1) frames.push({text: `: keep-alive${end}`, hidden: false});
			else if (kind === 2) frames.push({text: `id: ${index}${line}data: ${chunk([{index: 0, delta: {content: `é${index}`}, finish_reason: null}])}${end}`, hidden: false});
			else frames.push({text: `data: ${chunk([], {usage: null})}${end}`, hidden: false});
		}
		frames.push({text: `data: [DONE]${end}`, hidden: false});
		const bytes = Buffer.from(frames.map(frame => frame.text).join(''));
		const meter = new StreamMeter(inboundAdapters.openai, 'sse', ctx);
		const outgoing = new Outgoing(meter, 'sse', hides, new OutboundStreamScrub(new Scrubber([]), 'sse'));
		const sent: Buffer[] = [];
		for (let at = 0; at < bytes.length; ) {
			const size = random(3) === 0 ? bytes.length : 1 + random(80);
			const piece = outgoing.push(bytes.subarray(at, at + size));
			sent.push(Buffer.from(piece));
			at += size;
		}
		sent.push(Buffer.from(outgoing.end()));
		const expected = frames.filter(frame => !frame.hidden).map(frame => frame.text).join('');
		assert.equal(Buffer.concat(sent).toString('utf8'), expected, JSON.stringify(frames.map(frame => frame.text)));
		// The meter read every frame, the hidden ones too: the last usage frame's count, and the end.
		const last = frames.findLastIndex(frame => frame.hidden);
		const reading = meter.end();
		assert.equal(reading?.ending, 'complete');
		assert.equal(reading?.usage?.inputTokens ?? 0, last === -1 ? 0 : last + 1, JSON.stringify(frames.map(frame => frame.text)));
	}
});

test('the meter reads a passed-through stream the same however its writes split it: a byte-order mark first, characters split between writes', () => {
	const random = randomOf(4242);
	const ctx = {warn: (message: string) => assert.fail(message)} as unknown as TranslationContext;
	const chunk = (choices: unknown[], extra: object = {}) => JSON.stringify({id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices, ...extra});
	for (let round = 0; round < 300; round++) {
		const mark = round % 2 === 0 ? '\ufeff' : '';
		// The only usage frame first, so a mark left in front of it would lose it.
		let text = `${mark}data: ${chunk([{index: 0, delta: {content: ''}, finish_reason: null}], {usage: {prompt_tokens: 7 + round, completion_tokens: 3, total_tokens: 10 + round}})}\n\n`;
		for (let index = 0; index < random(5); index++) text += `data: ${chunk([{index: 0, delta: {content: 'é😀日本'.repeat(1 + random(3))}, finish_reason: null}])}\n\n`;
		text += `data: ${chunk([{index: 0, delta: {}, finish_reason: 'stop'}])}\n\ndata: [DONE]\n\n`;
		const bytes = Buffer.from(text);
		const meter = new StreamMeter(inboundAdapters.openai, 'sse', ctx);
		const outgoing = new Outgoing(meter, 'sse', undefined, new OutboundStreamScrub(new Scrubber([]), 'sse'));
		const sent: Buffer[] = [];
		for (let at = 0; at < bytes.length; ) {
			const size = 1 + random(40);
			sent.push(Buffer.from(outgoing.push(bytes.subarray(at, at + size))));
			at += size;
		}
		sent.push(Buffer.from(outgoing.end()));
		assert.deepEqual(Buffer.concat(sent), bytes, 'the client gets the bytes as they came, the mark included');
		const reading = meter.end();
		assert.equal(reading?.ending, 'complete');
		assert.equal(reading?.usage?.inputTokens, 7 + round);
		assert.equal(reading?.usage?.outputTokens, 3);
	}
});

test('a frame read without the SSE parser (one data line, LF) reads as the parser reads it; any other frame is left to the parser', () => {
	const random = randomOf(99);
	const parts = ['data:', 'data: ', 'data:  ', 'event: x\n', 'id: 1\n', ': c\n', '{"a":"b"}', ' x ', '\r', '\n', 'é', 'data', ':'];
	let read = 0;
	for (let round = 0; round < 5000; round++) {
		let frame = round % 3 === 0 ? 'data: ' : '';
		for (let index = 0; index < random(5); index++) frame += parts[random(parts.length)]!;
		frame += round % 4 === 0 ? '\r\n\r\n' : '\n\n';
		const messages: string[] = [];
		const feed = new SseFeed(message => messages.push(message.data));
		feed.push(frame);
		const data = onlyData(frame);
		if (data === undefined) continue;
		read++;
		assert.deepEqual([data], messages, JSON.stringify(frame));
	}
	assert.ok(read > 500, `${read} frames read without the parser`);
});
