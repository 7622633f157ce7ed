/**
 * Shared plumbing for the strict fake provider servers (node:http only, no fastify, so the fakes stay
 * independent from the gateway under test): types, request recording, abort tracking, reply queue,
 * SSE frame writer and small helpers.
 */
import http from 'node:http';
import type {IncomingMessage, ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {randomBytes} from 'node:crypto';

export type FakeFormat = 'openai' | 'anthropic' | 'gemini';

export type ReceivedRequest = {
	method: string;
	/** Path without the query string. */
	path: string;
	query: Record<string, string>;
	/** Lower-cased header names. */
	headers: Record<string, string | undefined>;
	/** Parsed JSON body, or undefined (no body / not JSON). */
	body: unknown;
	/** The body's text exactly as it arrived. */
	text: string;
	/** True if the client disconnected before the fake finished responding. */
	aborted: boolean;
};

/** A scripted answer, format-neutral; each fake renders it in its own wire format. */
export type FakeReply = {
	text?: string;
	thinking?: {text: string; signature?: string};
	toolCalls?: Array<{id?: string; name: string; args: Record<string, unknown>}>;
	finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
	/** `output` includes `reasoning`; `reasoningOutside` makes the OpenAI fake report them as xAI does (completion_tokens without reasoning). */
	usage?: {input: number; output: number; cached?: number; reasoning?: number; reasoningOutside?: boolean};
	error?: {status: number; message?: string; retryAfter?: string};
	midStreamError?: {afterChunks: number; message?: string};
	chunkDelayMs?: number;
	chunks?: number;
	dropConnection?: boolean;
	hangMs?: number;
};

export type FakeProvider = {
	format: FakeFormat;
	url: string;
	apiKey: string;
	models: string[];
	received: ReceivedRequest[];
	enqueue(...replies: FakeReply[]): void;
	reset(): void;
	close(): Promise<void>;
};

export type FakeOptions = {
	apiKey?: string;
	models?: string[];
	/** Anthropic only: models its list marks deprecated (`lifecycle: "deprecated"`), each with its `retires_at` (RFC 3339) or null. */
	deprecated?: Readonly<Record<string, string | null>>;
	/**
	 * OpenAI-compatible only: names the server answers to (GET /v1/models/{id}, chat completions) that its
	 * list leaves out, each → the listed model it stands for (as xAI's `grok-4` for `grok-4-0709`).
	 */
	aliases?: Readonly<Record<string, string>>;
};

export type JsonBody = {ok: true; value: unknown} | {ok: false; raw: string};

export type Ctx = {
	req: IncomingMessage;
	res: ServerResponse;
	rec: ReceivedRequest;
	url: URL;
	body: JsonBody | undefined;
	apiKey: string;
	models: string[];
	/** Next scripted reply (or the default `{}`); call once per generation request. */
	nextReply(): FakeReply;
	/** Destroy the socket ourselves (not counted as a client abort). */
	destroy(): void;
};

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function randomId(length: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
	const bytes = randomBytes(length);
	let out = '';
	for (const byte of bytes) out += alphabet[byte % alphabet.length];
	return out;
}

/** Split text into at most n non-empty pieces of near-equal length (code-point safe). */
export function splitText(text: string, n: number): string[] {
	const chars = Array.from(text);
	const count = Math.max(1, Math.min(Math.floor(n), chars.length));
	const pieces: string[] = [];
	for (let i = 0; i < count; i++) {
		const piece = chars.slice(Math.floor((i * chars.length) / count), Math.floor(((i + 1) * chars.length) / count)).join('');
		if (piece !== '') pieces.push(piece);
	}
	return pieces;
}

/** Resolves after ms, or early when the response closes (client gone / server closing). */
export function sleep(ms: number, res: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		if (res.destroyed || ms <= 0) {
			resolve();
			return;
		}
		const done = (): void => {
			clearTimeout(timer);
			res.off('close', done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		res.on('close', done);
	});
}

/** Mask a key like the real APIs do: never echo it whole. */
export function maskKey(key: string): string {
	if (key.length <= 12) return `${key.slice(0, 2)}${'*'.repeat(Math.max(1, key.length - 2))}`;
	return `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	if (res.headersSent || res.destroyed) return;
	const text = JSON.stringify(body);
	res.writeHead(status, {'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers});
	res.end(text);
}

export function startStream(res: ServerResponse, contentType: string, headers: Record<string, string> = {}): void {
	res.writeHead(200, {'content-type': contentType, 'cache-control': 'no-cache', connection: 'keep-alive', ...headers});
	res.flushHeaders();
}

/** Writes stream frames with an optional delay between them; fails (once) after `failAfter` frames. */
export class FrameWriter {
	frames = 0;
	private stopped = false;
	constructor(
		private readonly res: ServerResponse,
		private readonly delayMs: number,
		private readonly failAfter: number | undefined,
		private readonly fail: () => void,
	) {}

	get closed(): boolean {
		return this.stopped || this.res.destroyed || this.res.writableEnded;
	}

	async write(text: string): Promise<boolean> {
		if (this.closed) return false;
		if (this.failAfter !== undefined && this.frames >= this.failAfter) {
			this.stopped = true;
			this.fail();
			return false;
		}
		if (this.frames > 0 && this.delayMs > 0) {
			await sleep(this.delayMs, this.res);
			if (this.closed) return false;
		}
		this.res.write(text);
		this.frames++;
		return true;
	}

	end(): void {
		if (!this.closed) this.res.end();
	}
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('aborted', () => resolve(Buffer.concat(chunks).toString('utf8')));
	});
}

export function defaultKey(prefix: string): string {
	return `${prefix}${randomId(32)}`;
}

/** Start a fake on 127.0.0.1:0; `handle` implements the format's endpoints. */
export async function startFakeServer(
	format: FakeFormat,
	apiKey: string,
	models: string[],
	basePath: string,
	handle: (ctx: Ctx) => Promise<void>,
): Promise<FakeProvider> {
	const received: ReceivedRequest[] = [];
	const queue: FakeReply[] = [];

	const server = http.createServer((req, res) => {
		void onRequest(req, res);
	});

	async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const headers: Record<string, string | undefined> = {};
		for (const [name, value] of Object.entries(req.headers)) {
			headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
		}
		const query: Record<string, string> = {};
		for (const [name, value] of url.searchParams) query[name] = value;
		const rec: ReceivedRequest = {method: req.method ?? 'GET', path: url.pathname, query, headers, body: undefined, text: '', aborted: false};
		received.push(rec);
		let selfDestroyed = false;
		res.on('close', () => {
			if (!res.writableFinished && !selfDestroyed) rec.aborted = true;
		});
		const raw = await readBody(req);
		rec.text = raw;
		let body: JsonBody | undefined;
		if (raw.trim() !== '') {
			try {
				body = {ok: true, value: JSON.parse(raw) as unknown};
				rec.body = body.value;
			} catch {
				body = {ok: false, raw};
			}
		}
		const ctx: Ctx = {
			req,
			res,
			rec,
			url,
			body,
			apiKey,
			models,
			nextReply: () => queue.shift() ?? {},
			destroy: () => {
				selfDestroyed = true;
				res.destroy();
				req.socket.destroy();
			},
		};
		try {
			await handle(ctx);
		} catch (error) {
			if (!res.headersSent) sendJson(res, 500, {error: {message: `fake-${format} crashed: ${String(error)}`}});
			else ctx.destroy();
		}
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve());
	});
	const {port} = server.address() as AddressInfo;

	return {
		format,
		url: `http://127.0.0.1:${port}${basePath}`,
		apiKey,
		models,
		received,
		enqueue: (...replies) => {
			queue.push(...replies);
		},
		reset: () => {
			received.length = 0;
			queue.length = 0;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** Shared defaults for scripted replies. */
export function replyText(reply: FakeReply, format: FakeFormat): string {
	if (reply.text !== undefined) return reply.text;
	return reply.toolCalls && reply.toolCalls.length > 0 ? '' : `Hello from fake-${format}`;
}

export function replyFinish(reply: FakeReply): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
	return reply.finishReason ?? (reply.toolCalls && reply.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}

export function replyUsage(reply: FakeReply): {input: number; output: number; cached: number; reasoning: number} {
	const usage = reply.usage ?? {input: 11, output: 7};
	return {input: usage.input, output: usage.output, cached: usage.cached ?? 0, reasoning: usage.reasoning ?? 0};
}

export function replyChunks(reply: FakeReply): number {
	return Math.max(1, Math.floor(reply.chunks ?? 3));
}

/** Apply hangMs / dropConnection. Returns false when the request must not be answered. */
export async function applyTransport(ctx: Ctx, reply: FakeReply): Promise<boolean> {
	if (reply.hangMs !== undefined && reply.hangMs > 0) await sleep(reply.hangMs, ctx.res);
	if (ctx.res.destroyed) return false;
	if (reply.dropConnection) {
		ctx.destroy();
		return false;
	}
	return true;
}

/** Standard or URL-safe base64 without any `data:` prefix. */
export function isBase64(data: string): boolean {
	return /^[A-Za-z0-9+/_-]*={0,2}$/.test(data) && data.length > 0;
}
