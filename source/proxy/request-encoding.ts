/**
 * Compressed request bodies: Codex sends `content-encoding: zstd`, other clients gzip, deflate or
 * br. The body is decompressed as it streams in, before it is parsed; the body limit applies to what
 * it decompresses to, so a small bomb cannot grow past it. An encoding the gateway cannot read is a
 * 415 that names it; a body that does not decompress is a 400 — both in the client's format.
 */
import {Transform, type Readable} from 'node:stream';
import {createBrotliDecompress, createGunzip, createInflate} from 'node:zlib';
import type {FastifyInstance} from 'fastify';
import {Decompress} from 'fzstd';
import {GatewayError} from '../base/errors.js';

/** zstd through fzstd (Node 20's zlib has no zstd): a Transform over its push decoder. */
function zstdStream(): Transform {
	let decoder: Decompress | undefined;
	return new Transform({
		transform(chunk: Buffer, _encoding, callback) {
			try {
				decoder ??= new Decompress(data => this.push(Buffer.from(data)));
				decoder.push(chunk);
				callback();
			} catch (error) {
				callback(error as Error);
			}
		},
		flush(callback) {
			try {
				decoder?.push(new Uint8Array(0), true);
				callback();
			} catch (error) {
				callback(error as Error);
			}
		},
	});
}

function decoderFor(encoding: string): Transform | null {
	switch (encoding) {
		case 'gzip':
		case 'x-gzip':
			return createGunzip();
		case 'deflate':
			return createInflate();
		case 'br':
			return createBrotliDecompress();
		case 'zstd':
			return zstdStream();
		case 'identity':
			return null;
		default:
			throw new GatewayError('invalid_request', 415, `The request body is encoded as "${encoding.slice(0, 40)}", which gateway-tui cannot read. Send it uncompressed, or with gzip, deflate, br or zstd.`, {code: 'unsupported_encoding'});
	}
}

/** Decompress bodies whose `content-encoding` says so, before Fastify reads them. */
export function useRequestEncodings(app: FastifyInstance): void {
	// Fastify's callback form: an async hook would cost every request with a body a promise and a microtask turn.
	app.addHook('preParsing', (request, _reply, payload, done) => {
		const header = request.headers['content-encoding'];
		const encoding = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
		if (!encoding) return done(null, payload);
		let decoder: Transform | null;
		try {
			decoder = decoderFor(encoding);
		} catch (error) {
			return done(error as Error);
		}
		if (!decoder) return done(null, payload);
		// Fastify compares the declared content-length with what was received, not with what it inflates to.
		// Counted on the source: a 'data' listener on the decoder would set it flowing before Fastify listens,
		// and what it decoded meanwhile would be lost (an empty body, when the request's hooks run synchronously).
		const decoded = decoder as Transform & {receivedEncodedLength?: number};
		let received = 0;
		const source = payload as Readable;
		source.on('data', (chunk: Buffer) => (decoded.receivedEncodedLength = received += chunk.length));
		source.pipe(decoder);
		source.on('error', error => decoder.destroy(error));
		// Heard before Fastify's own listener: a body that does not decompress is the client's error (400).
		decoder.on('error', error => {
			Object.assign(error, {statusCode: 400, message: `the body is not valid ${encoding} (${error.message}); send it compressed as content-encoding says, or uncompressed`});
		});
		done(null, decoded);
	});
}
