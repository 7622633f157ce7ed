/**
 * Fault-injecting providers for the security and failover tests: a bare node:http server that plays
 * a script per request — an error whose message quotes the real key, a reset connection, a body cut
 * short, a non-JSON 200, a redirect, a stream that breaks or stalls after a few frames. Unlike the
 * strict fakes (test/helpers/fake-providers/), they check nothing: each test says exactly what
 * bytes go back. Frames below are minimal but real-shaped, so the official SDKs parse them.
 */
import http, {type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import type {Socket} from 'node:net';

export type Seen = {readonly method: string; readonly path: string; readonly headers: IncomingMessage['headers']; readonly body: string};

/** One scripted answer: write whatever it likes to `res` (or destroy the socket). */
export type Play = (res: ServerResponse, seen: Seen) => void | Promise<void>;

export type FaultyProvider = {
	readonly url: string;
	readonly seen: Seen[];
	/** Plays for the next requests, in order; when none is queued, `fallback` plays. */
	enqueue(...plays: Play[]): void;
	close(): Promise<void>;
};

export async function startFaulty(fallback: Play = json(500, {error: {message: 'no script'}})): Promise<FaultyProvider> {
	const seen: Seen[] = [];
	const queue: Play[] = [];
	const sockets = new Set<Socket>();
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const entry = {method: req.method ?? '', path: (req.url ?? '').split('?')[0]!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8')};
			seen.push(entry);
			void (queue.shift() ?? fallback)(res, entry);
		});
	});
	server.on('connection', socket => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		enqueue: (...plays) => queue.push(...plays),
		close: () =>
			new Promise(resolve => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

export const json =
	(status: number, body: unknown, headers: Record<string, string> = {}): Play =>
	res => {
		const text = JSON.stringify(body);
		res.writeHead(status, {'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers});
		res.end(text);
	};

export const raw =
	(status: number, contentType: string, text: string, headers: Record<string, string> = {}): Play =>
	res => {
		res.writeHead(status, {'content-type': contentType, ...headers});
		res.end(text);
	};

/** The connection is reset before any answer. */
export const reset: Play = res => {
	res.socket?.resetAndDestroy();
};

/** Headers promise more than is sent, then the connection closes. */
export const truncated =
	(text: string): Play =>
	res => {
		res.writeHead(200, {'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text) + 100)});
		res.write(text);
		setTimeout(() => res.socket?.destroy(), 20);
	};

export const redirect =
	(status: number, location: string): Play =>
	res => {
		res.writeHead(status, {location, 'content-length': '0'});
		res.end();
	};

/** Nothing at all, for `ms` (the gateway gives up first). */
export const silent =
	(ms: number): Play =>
	res => {
		const timer = setTimeout(() => res.destroy(), ms);
		res.on('close', () => clearTimeout(timer));
	};

/**
 * A stream: headers, then `frames` one by one, then `end`: `close` (a clean end without the
 * terminal event), `reset`, or `stall` (silence until the client gives up).
 */
export const stream =
	(contentType: string, frames: readonly string[], end: 'complete' | 'close' | 'reset' | 'stall' = 'complete'): Play =>
	async res => {
		res.writeHead(200, {'content-type': contentType, 'cache-control': 'no-cache'});
		res.flushHeaders();
		for (const frame of frames) {
			res.write(frame);
			await new Promise(resolve => setTimeout(resolve, 5));
		}
		if (end === 'complete' || end === 'close') res.end();
		else if (end === 'reset') res.socket?.resetAndDestroy();
	};

export const sse = 'text/event-stream';

/** Minimal real-shaped frames of each format's stream. */
export const frames = {
	openai: (text: string) => `data: ${JSON.stringify({id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{index: 0, delta: {role: 'assistant', content: text}, finish_reason: null}]})}\n\n`,
	openaiError: (message: string) => `data: ${JSON.stringify({error: {message, type: 'server_error', param: null, code: null}})}\n\n`,
	anthropic: (text: string) =>
		[
			`event: message_start\ndata: ${JSON.stringify({type: 'message_start', message: {id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: {input_tokens: 5, output_tokens: 1}}})}\n\n`,
			`event: content_block_start\ndata: ${JSON.stringify({type: 'content_block_start', index: 0, content_block: {type: 'text', text: ''}})}\n\n`,
			`event: content_block_delta\ndata: ${JSON.stringify({type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text}})}\n\n`,
		].join(''),
	anthropicError: (message: string) => `event: error\ndata: ${JSON.stringify({type: 'error', error: {type: 'api_error', message}})}\n\n`,
	gemini: (text: string) => `data: ${JSON.stringify({candidates: [{content: {role: 'model', parts: [{text}]}, index: 0}], modelVersion: 'gemini-2.5-flash', responseId: 'r1'})}\r\n\r\n`,
	geminiError: (message: string) => `data: ${JSON.stringify({error: {code: 500, message, status: 'INTERNAL'}})}\r\n\r\n`,
	geminiArrayStart: (text: string) => `[${JSON.stringify({candidates: [{content: {role: 'model', parts: [{text}]}, index: 0}], modelVersion: 'gemini-2.5-flash'})}`,
	responses: (text: string) =>
		[
			`event: response.created\ndata: ${JSON.stringify({type: 'response.created', sequence_number: 0, response: {id: 'resp_1', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-4o-mini', output: []}})}\n\n`,
			`event: response.output_item.added\ndata: ${JSON.stringify({type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: {id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: []}})}\n\n`,
			`event: response.content_part.added\ndata: ${JSON.stringify({type: 'response.content_part.added', sequence_number: 2, item_id: 'msg_1', output_index: 0, content_index: 0, part: {type: 'output_text', text: '', annotations: []}})}\n\n`,
			`event: response.output_text.delta\ndata: ${JSON.stringify({type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_1', output_index: 0, content_index: 0, delta: text, logprobs: []})}\n\n`,
		].join(''),
	responsesError: (message: string) => `event: error\ndata: ${JSON.stringify({type: 'error', sequence_number: 4, code: 'server_error', message, param: null})}\n\n`,
} as const;

/** Error bodies of each format that quote `key`, as a careless provider might. */
export const errorBodies = {
	openai: (key: string) => ({error: {message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key'}}),
	anthropic: (key: string) => ({type: 'error', error: {type: 'api_error', message: `internal failure while using key ${key}`}}),
	gemini: (key: string) => ({error: {code: 500, message: `backend failed for key=${key}`, status: 'INTERNAL'}}),
} as const;
