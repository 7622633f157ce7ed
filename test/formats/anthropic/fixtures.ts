/**
 * Fixture loading for the Anthropic adapter tests.
 *
 * `test/fixtures/anthropic/<case>.json` holds one wire body (a response, a request or an error).
 * `test/fixtures/anthropic/<case>.chunks.txt` holds one SSE event per line, as `event|data`: the SSE
 * `event:` name, a `|`, then the event's JSON data exactly as Anthropic sends it on the `data:` line.
 * A line that starts with `{` is data only (the event name is then absent, as for OpenAI/Gemini).
 */
import {readFileSync} from 'node:fs';
export {collect, fromArray as replay, recordingContext, type RecordingContext} from '../../helpers/streams.js';
import {createServer, type Server} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {SseMessage} from '../../../source/formats/sse.js';

const root = new URL('../../fixtures/anthropic/', import.meta.url);

export function loadJson(name: string): unknown {
	return JSON.parse(readFileSync(new URL(`${name}.json`, root), 'utf8'));
}

export function loadChunks(name: string): SseMessage[] {
	return readFileSync(new URL(`${name}.chunks.txt`, root), 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '')
		.map(line => {
			if (line.startsWith('{')) return {data: line};
			const bar = line.indexOf('|');
			return {event: line.slice(0, bar), data: line.slice(bar + 1)};
		});
}




/** A tiny HTTP server answering every request with `body` (a JSON value or SSE text), for the official SDKs to read. */
export async function serveOnce(body: string, contentType: string): Promise<{url: string; close(): Promise<void>; requests: unknown[]}> {
	const requests: unknown[] = [];
	const server: Server = createServer((request, response) => {
		let text = '';
		request.on('data', chunk => {
			text += String(chunk);
		});
		request.on('end', () => {
			requests.push(text === '' ? undefined : JSON.parse(text));
			response.writeHead(200, {'content-type': contentType, 'request-id': 'req_test'});
			response.end(body);
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () => new Promise<void>(resolve => server.close(() => resolve())),
	};
}
