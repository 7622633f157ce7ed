/**
 * parseSse, the SSE reader under every translated stream: messages across any cut of the bytes, the
 * last event without its blank line, and what happens to the source when the reader stops early
 * (handed over to `leftover`, or returned), fails, or runs out.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {parseSse, type SseMessage} from '../../source/formats/sse.js';

/** A source of chunks that records how it was used. */
function source(chunks: ReadonlyArray<string | Error>) {
	const log = {pulls: 0, returned: false};
	let index = 0;
	const iterator: AsyncIterator<Uint8Array | string> & AsyncIterable<Uint8Array | string> = {
		[Symbol.asyncIterator]: () => iterator,
		next: async () => {
			log.pulls++;
			const chunk = chunks[index++];
			if (chunk instanceof Error) throw chunk;
			return chunk === undefined ? {done: true, value: undefined} : {done: false, value: Buffer.from(chunk)};
		},
		return: async () => {
			log.returned = true;
			return {done: true, value: undefined};
		},
	};
	return {iterator, log};
}

const stream = 'event: a\ndata: {"n":1}\n\nevent: b\ndata: {"n":2}\ndata: more\n\n: a comment\nid: 3\ndata: é\n\ndata: last';

test('messages come out the same however the bytes are cut, the last one without its blank line included', async () => {
	const expected: SseMessage[] = [
		{event: 'a', data: '{"n":1}', id: undefined},
		{event: 'b', data: '{"n":2}\nmore', id: undefined},
		{event: undefined, data: 'é', id: '3'},
		{event: undefined, data: 'last', id: undefined},
	];
	const bytes = Buffer.from(stream);
	for (let cut = 0; cut <= bytes.length; cut++) {
		const chunks = [bytes.subarray(0, cut).toString('latin1'), bytes.subarray(cut).toString('latin1')];
		const parts: Uint8Array[] = chunks.map(chunk => Buffer.from(chunk, 'latin1'));
		async function* raw() {
			yield* parts;
		}
		const seen: SseMessage[] = [];
		for await (const message of parseSse(raw())) seen.push({event: message.event, data: message.data, id: message.id});
		assert.deepEqual(seen, expected, `cut at byte ${cut}`);
	}
});

test('a reader that stops early hands the rest of the source to leftover, which reads on from where the parser stopped', async () => {
	const {iterator, log} = source(['data: 1\n\ndata: 2\n\n', 'data: 3\n\n', 'tail']);
	const handed: {rest: AsyncIterator<Uint8Array | string> | null} = {rest: null};
	const messages = parseSse(iterator, left => (handed.rest = left));
	for await (const message of messages) {
		assert.equal(message.data, '1');
		break;
	}
	assert.ok(handed.rest, 'leftover was called');
	assert.equal(log.returned, false, 'the source was handed over, not returned');
	const next = await handed.rest.next();
	assert.equal(Buffer.from(next.value as Uint8Array).toString(), 'data: 3\n\n');
	assert.deepEqual(await messages.next(), {done: true, value: undefined});
});

test('without leftover, stopping early returns the source; running out never pulls again', async () => {
	const early = source(['data: 1\n\n', 'data: 2\n\n']);
	for await (const message of parseSse(early.iterator)) {
		assert.equal(message.data, '1');
		break;
	}
	assert.equal(early.log.returned, true);

	const all = source(['data: 1\n\ndata: 2\n\n']);
	const messages = parseSse(all.iterator, () => assert.fail('nothing was left to hand over'));
	const seen: string[] = [];
	for await (const message of messages) seen.push(message.data);
	assert.deepEqual(seen, ['1', '2']);
	const pulls = all.log.pulls;
	assert.deepEqual(await messages.next(), {done: true, value: undefined});
	assert.equal(all.log.pulls, pulls);
	assert.equal(all.log.returned, false);
});

test('a source that fails mid-stream fails the reader after the messages before it', async () => {
	const {iterator, log} = source(['data: 1\n\n', new Error('socket hang up')]);
	const seen: string[] = [];
	await assert.rejects(
		(async () => {
			for await (const message of parseSse(iterator, () => assert.fail('a failed source is not handed over'))) seen.push(message.data);
		})(),
		/socket hang up/,
	);
	assert.deepEqual(seen, ['1']);
	assert.equal(log.returned, false);
});
