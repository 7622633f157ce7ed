/**
 * How a streamed answer leaves for the client (issue 14), pinned by counting the socket's writes
 * rather than timing them: what is written in one turn of the event loop — the head, a translated
 * stream's frames, the end — goes out in one system call, not one per piece (Node's own corking
 * lasts until its next tick only: without ours, the frames below took two), and nothing is held
 * past its turn.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import type {Socket} from 'node:net';
import type {FastifyReply} from 'fastify';
import {ClientStream} from '../../source/proxy/client-stream.js';

type Writes = {readonly calls: number; readonly body: string};

/** A server whose one answer is written by `answer` through a ClientStream; resolves with the socket's writes and what the client read. */
async function serve(answer: (out: ClientStream) => Promise<void>): Promise<Writes> {
	let calls = 0;
	const server = http.createServer((_request, response) => {
		// What reaches the kernel: each _write or _writev of the socket is one system call (writev for several buffers).
		const socket = response.socket as Socket & {_write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void};
		const write = socket._write.bind(socket);
		const writev = socket._writev.bind(socket);
		socket._write = (...args: unknown[]) => {
			calls++;
			write(...args);
		};
		socket._writev = (...args: unknown[]) => {
			calls++;
			writev(...args);
		};
		// A Fastify reply as ClientStream uses it: the raw response, no headers of Fastify's own, hijack a no-op.
		const reply = {raw: response, getHeaders: () => ({}), hijack: () => {}} as unknown as FastifyReply;
		void answer(new ClientStream(reply));
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	try {
		const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
		const body = await response.text();
		return {calls, body};
	} finally {
		await new Promise(resolve => server.close(resolve));
	}
}

const frames = Array.from({length: 20}, (_, index) => `data: {"n":${index}}\n\n`);

test('the head, twenty frames written in one turn and the end leave in one write', async () => {
	const {calls, body} = await serve(async out => {
		out.open(200, {'content-type': 'text/event-stream'});
		for (const frame of frames) await out.write(frame);
		out.end();
	});
	assert.equal(body, frames.join(''));
	assert.equal(calls, 1, `${calls} socket writes for the head, 20 frames and the end`);
});

test('pieces written in different turns are not held back for each other: each turn is sent when it ends', async () => {
	const {calls, body} = await serve(async out => {
		out.open(200, {'content-type': 'text/event-stream'});
		for (const frame of frames.slice(0, 3)) {
			await out.write(frame);
			await new Promise(resolve => setTimeout(resolve, 20));
		}
		out.end();
	});
	assert.equal(body, frames.slice(0, 3).join(''));
	assert.ok(calls >= 3, `${calls} socket writes for three turns`);
});
