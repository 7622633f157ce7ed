/**
 * The provider's answer as the gateway reads it (source/proxy/upstream-body.ts, over undici's
 * dispatch handler instead of a Node stream): whole as text, chunk by chunk with backpressure, or
 * dropped — and what each does to the connection, seen from a real HTTP server that counts its
 * connections and sees them close.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http';
import type {AddressInfo, Socket} from 'node:net';
import type {ChannelRecord} from '../../source/base/records.js';
import {Hangup} from '../../source/proxy/hangup.js';
import {callUpstream, UpstreamPools} from '../../source/proxy/upstream.js';

type Provider = {
	url: string;
	connections: Socket[];
	/** Whether the connection that carried request `index` (0-based, in arrival order) has closed. */
	requestClosed: (index: number) => boolean;
	requests: () => number;
	close: () => Promise<void>;
};

async function provider(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Provider> {
	const connections: Socket[] = [];
	const carriers: Socket[] = [];
	const closed = new WeakSet<Socket>();
	const server: Server = createServer({keepAliveTimeout: 60_000}, (req, res) => {
		carriers.push(req.socket);
		req.resume();
		req.on('end', () => handle(req, res));
	});
	server.on('connection', (socket: Socket) => {
		connections.push(socket);
		socket.on('close', () => closed.add(socket));
	});
	await new Promise<void>(resolve => server.listen({host: '127.0.0.1', port: 0}, resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		connections,
		requestClosed: index => carriers[index] !== undefined && closed.has(carriers[index]),
		requests: () => carriers.length,
		close: async () => {
			server.closeAllConnections();
			await new Promise(resolve => server.close(resolve));
		},
	};
}

const channel = (baseUrl: string): ChannelRecord => ({v: 1, id: 'ch_body', name: 'body', format: 'openai', baseUrl, apiKey: 'sk-body-test-key', models: [{name: 'm', upstream: 'm'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'});

const pieceBytes = 256 * 1024;

/** Write `total` bytes in 256 KiB pieces (piece i all `fill(i)`), waiting for the socket to drain; `sent` counts what was handed to it. */
function writePieces(res: ServerResponse, total: number, fill: (index: number) => number, sent: {bytes: number}): void {
	res.writeHead(200, {'content-type': 'application/octet-stream'});
	let index = 0;
	const more = () => {
		while (sent.bytes < total) {
			sent.bytes += pieceBytes;
			if (!res.write(Buffer.alloc(pieceBytes, fill(index++)))) {
				res.once('drain', more);
				return;
			}
		}
		res.end();
	};
	more();
}

const until = async (check: () => boolean, what: string) => {
	for (let waited = 0; !check(); waited += 10) {
		if (waited > 5000) assert.fail(`timed out waiting for ${what}`);
		await new Promise(resolve => setTimeout(resolve, 10));
	}
};

test('text(): the whole body in several chunks, a leading byte-order mark dropped; a second read is refused', async () => {
	const upstream = await provider((_req, res) => {
		res.writeHead(200, {'content-type': 'application/json'});
		res.write(Buffer.from([0xef, 0xbb, 0xbf]));
		res.write('{"a":');
		setTimeout(() => res.end('"é"}'), 20);
	});
	const pools = new UpstreamPools();
	try {
		const response = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
		assert.equal(response.statusCode, 200);
		assert.equal(response.headers['content-type'], 'application/json');
		assert.equal(await response.body.text(), '{"a":"é"}');
		await assert.rejects(response.body.text(), /already read/);
	} finally {
		await pools.close();
		await upstream.close();
	}
});

test('an informational 103 before the answer is skipped: the caller sees the real status', async () => {
	const upstream = await provider((_req, res) => {
		res.writeEarlyHints({link: '</style.css>; rel=preload'});
		res.writeHead(201, {'content-type': 'text/plain'});
		res.end('made');
	});
	const pools = new UpstreamPools();
	try {
		const response = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
		assert.equal(response.statusCode, 201);
		assert.equal(await response.body.text(), 'made');
	} finally {
		await pools.close();
		await upstream.close();
	}
});

test('chunk by chunk with backpressure: a reader that waits pauses the connection instead of buffering the body', async () => {
	const total = 64 * 1024 * 1024;
	const sent = {bytes: 0};
	const upstream = await provider((_req, res) => writePieces(res, total, () => 0x61, sent));
	const pools = new UpstreamPools();
	try {
		const response = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
		// Nobody reads for a while: only the kernel's socket buffers and the 64 KiB high-water mark fill.
		await new Promise(resolve => setTimeout(resolve, 500));
		assert.ok(sent.bytes < total / 2, `the provider wrote ${sent.bytes} of ${total} bytes to a reader that read none`);
		let read = 0;
		for await (const chunk of response.body) read += chunk.byteLength;
		assert.equal(read, total);
	} finally {
		await pools.close();
		await upstream.close();
	}
});

test('dump(): a short rest is drained and the connection reused; a long one (over 128 KiB) gives the connection up', async () => {
	const upstream = await provider((req, res) => {
		res.writeHead(500, {'content-type': 'application/json'});
		res.end(req.url === '/long' ? 'x'.repeat(1024 * 1024) : '{"error":{"message":"boom"}}');
	});
	const pools = new UpstreamPools();
	try {
		for (let turn = 0; turn < 6; turn++) {
			const response = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/short', body: '{}'});
			await response.body.dump();
		}
		// undici's pool may open a second connection for a request sent the instant the first answer ends; never one per request.
		assert.ok(upstream.connections.length <= 2, `six drained answers used ${upstream.connections.length} connections`);
		for (let index = 0; index < 6; index++) assert.equal(upstream.requestClosed(index), false, `the connection of drained answer ${index + 1} was closed`);
		const long = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/long', body: '{}'});
		await long.body.dump();
		await until(() => upstream.requestClosed(6), 'the connection of the long answer to close');
	} finally {
		await pools.close();
		await upstream.close();
	}
});

test('release(): a reader that stops early — a sink or an iterator — leaves a short rest drained and the connection reused; a rest over 64 KiB gives the connection up', async () => {
	// The first line comes at once, the rest (a little, or 96 KiB) a moment later, as a stream's tail after its terminal event.
	const upstream = await provider((req, res) => {
		res.writeHead(200, {'content-type': 'text/event-stream'});
		res.write('data: {"done":true}\n\n');
		setTimeout(() => res.end(req.url === '/long' ? `: ${'x'.repeat(96 * 1024)}\n\n` : ': tail\n\n'), 20);
	});
	const pools = new UpstreamPools();
	const call = (path: string) => callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path, body: '{}'});
	try {
		for (let turn = 0; turn < 6; turn++) {
			const response = await call('/short');
			if (turn % 2 === 0) {
				// A sink that releases the body in its first call hears nothing more.
				const calls: string[] = [];
				response.body.consume({
					data: () => {
						calls.push('data');
						response.body.release();
					},
					end: () => calls.push('end'),
					fail: () => calls.push('fail'),
				});
				await until(() => calls.length > 0, 'the first chunk');
				await new Promise(resolve => setTimeout(resolve, 60));
				assert.deepEqual(calls, ['data']);
			} else {
				const chunks = response.body[Symbol.asyncIterator]();
				assert.equal((await chunks.next()).done, false);
				response.body.release();
				await new Promise(resolve => setTimeout(resolve, 60));
			}
		}
		assert.ok(upstream.connections.length <= 2, `six released answers used ${upstream.connections.length} connections`);
		for (let index = 0; index < 6; index++) assert.equal(upstream.requestClosed(index), false, `the connection of released answer ${index + 1} was closed`);
		const long = await call('/long');
		assert.equal((await long.body[Symbol.asyncIterator]().next()).done, false);
		long.body.release();
		await until(() => upstream.requestClosed(6), 'the connection of the long answer to close');
	} finally {
		await pools.close();
		await upstream.close();
	}
});

test('destroy(), leaving a for-await early and the abort signal each end the call and close its connection', async () => {
	const upstream = await provider((_req, res) => {
		res.writeHead(200, {'content-type': 'text/event-stream'});
		const timer = setInterval(() => res.write('data: {}\n\n'), 10);
		res.on('close', () => clearInterval(timer));
	});
	const pools = new UpstreamPools();
	try {
		const destroyed = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
		const chunks = destroyed.body[Symbol.asyncIterator]();
		await chunks.next();
		destroyed.body.destroy();
		await assert.rejects(chunks.next(), (error: Error) => error.name === 'RequestAbortedError' || /abort/i.test(error.message));
		await until(() => upstream.requestClosed(0), 'destroy() to close the connection');

		const left = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
		for await (const chunk of left.body) {
			assert.ok(chunk.byteLength > 0);
			break;
		}
		await until(() => upstream.requestClosed(1), 'leaving the loop to close the connection');

		const hangup = new Hangup();
		const aborted = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}', abort: hangup});
		const reading = (async () => {
			for await (const chunk of aborted.body) assert.ok(chunk.byteLength > 0);
		})();
		setTimeout(() => hangup.abort(new Error('client disconnected')), 30);
		await assert.rejects(reading, /client disconnected/);
		await until(() => upstream.requestClosed(2), 'the abort to close the connection');

		// Aborted before the call started: it never reaches the provider.
		const before = new Hangup();
		before.abort(new Error('client disconnected'));
		await assert.rejects(callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}', abort: before}), /client disconnected/);
		assert.equal(upstream.requests(), 3);
	} finally {
		await pools.close();
		await upstream.close();
	}
});

test('a connection that breaks mid-body fails the reader with the transport error, and a waiting text() too', async () => {
	const upstream = await provider((_req, res) => {
		res.writeHead(200, {'content-type': 'application/json', 'content-length': '100'});
		res.write('{"partial":');
		setTimeout(() => res.socket?.destroy(), 30);
	});
	const pools = new UpstreamPools();
	try {
		const response = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
		await assert.rejects(response.body.text(), (error: Error) => /other side closed|socket|terminated/i.test(`${error.name} ${error.message}`));
		const again = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
		await assert.rejects(
			(async () => {
				for await (const chunk of again.body) assert.ok(chunk.byteLength > 0);
			})(),
			(error: Error) => /other side closed|socket|terminated/i.test(`${error.name} ${error.message}`),
		);
	} finally {
		await pools.close();
		await upstream.close();
	}
});

test('Hangup: aborts once, tells its listeners in order (a late listener at once), a removed one never, and its AbortSignal follows', async () => {
	const hangup = new Hangup();
	const heard: string[] = [];
	hangup.onAbort(reason => heard.push(`first: ${reason.message}`));
	const removed = hangup.onAbort(() => heard.push('removed'));
	hangup.onAbort(reason => heard.push(`second: ${reason.message}`));
	removed();
	const signal = hangup.signal;
	assert.equal(signal.aborted, false);
	hangup.abort(new Error('client disconnected'));
	hangup.abort(new Error('again'));
	hangup.onAbort(reason => heard.push(`late: ${reason.message}`));
	assert.deepEqual(heard, ['first: client disconnected', 'second: client disconnected', 'late: client disconnected']);
	assert.equal(hangup.aborted, true);
	assert.equal(hangup.reason?.message, 'client disconnected');
	assert.equal(signal.aborted, true);
	assert.equal((signal.reason as Error).message, 'client disconnected');
	// A signal asked for after the abort is born aborted.
	const after = new Hangup();
	after.abort(new Error('gone'));
	assert.equal(after.signal.aborted, true);
});

test('consume(): every chunk in order, then the end, each once; a paused sink holds the body back (the connection pauses) and gets the rest, then the end, on resume', async () => {
	const total = 32 * 1024 * 1024;
	const sent = {bytes: 0};
	// Piece i is filled with i % 251: the order of what arrives can be checked at every piece's start.
	const upstream = await provider((_req, res) => writePieces(res, total, index => index % 251, sent));
	const pools = new UpstreamPools();
	try {
		const response = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
		const calls: string[] = [];
		let read = 0;
		let paused = false;
		let misplaced = 0;
		const ended = new Promise<void>((resolve, reject) => {
			response.body.consume({
				data: chunk => {
					assert.equal(paused, false, 'a chunk came while the sink was paused');
					// The first byte of every piece the provider wrote, where this chunk holds one.
					for (let at = Math.ceil(read / pieceBytes) * pieceBytes; at < read + chunk.byteLength; at += pieceBytes) {
						if (chunk[at - read] !== (at / pieceBytes) % 251) misplaced++;
					}
					read += chunk.byteLength;
					if (calls.at(-1) !== 'data') calls.push('data');
					// Once 4 MB are in, stop reading for half a second.
					if (read >= 4 * 1024 * 1024 && read - chunk.byteLength < 4 * 1024 * 1024) {
						paused = true;
						response.body.pause();
						setTimeout(() => {
							assert.ok(sent.bytes < total / 2, `the provider wrote ${sent.bytes} of ${total} bytes to a paused sink`);
							paused = false;
							response.body.resume();
						}, 500);
					}
				},
				end: () => {
					calls.push('end');
					resolve();
				},
				fail: reject,
			});
		});
		await ended;
		assert.equal(read, total);
		assert.deepEqual(calls, ['data', 'end']);
		assert.equal(misplaced, 0, 'pieces out of order');
		// A body has one reader.
		await assert.rejects(response.body.text(), /already read/);
	} finally {
		await pools.close();
		await upstream.close();
	}
});

test('consume(): a connection that breaks mid-body fails the sink, paused or not, and nothing is handed over after', async () => {
	for (const pauseFirst of [false, true]) {
		const upstream = await provider((_req, res) => {
			res.writeHead(200, {'content-type': 'text/event-stream'});
			res.write('data: {"a":1}\n\n');
			setTimeout(() => res.socket?.destroy(), 50);
		});
		const pools = new UpstreamPools();
		try {
			const response = await callUpstream(pools, {channel: channel(upstream.url), method: 'POST', path: '/x', body: '{}'});
			const calls: string[] = [];
			const failure = await new Promise<unknown>(resolve => {
				response.body.consume({
					data: () => {
						calls.push('data');
						if (pauseFirst) response.body.pause();
					},
					end: () => calls.push('end'),
					fail: error => {
						calls.push('fail');
						resolve(error);
					},
				});
			});
			assert.match(`${(failure as Error).name} ${(failure as Error).message}`, /other side closed|socket|terminated/i);
			response.body.resume();
			await new Promise(resolve => setTimeout(resolve, 50));
			assert.deepEqual(calls, ['data', 'fail'], `paused: ${pauseFirst}`);
		} finally {
			await pools.close();
			await upstream.close();
		}
	}
});
