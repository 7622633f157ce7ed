/**
 * Calls to providers: undici Agents owned by one gateway (keep-alive pools per origin, no cap on
 * connections: a stream holds its connection for minutes, and a cap would queue the next client
 * behind it), the provider's own auth headers from the channel's adapter, and transport failures
 * turned into GatewayErrors that name the channel (never its key).
 */
import {Readable} from 'node:stream';
import {Agent, errors as undiciErrors} from './stack.js';
import {GatewayError} from '../base/errors.js';
import type {ChannelRecord} from '../base/records.js';
import {adapters} from '../formats/index.js';
import type {Hangup} from './hangup.js';
import {UpstreamCallHandler, type UpstreamResponse} from './upstream-body.js';
import {LookupCache, type LookupCacheOptions} from './upstream-lookup.js';

export type UpstreamTimeouts = {
	/** Time to open the TCP/TLS connection. */
	readonly connectMs: number;
	/** Time until the response headers arrive (a non-streaming answer can take minutes). */
	readonly headersMs: number;
	/** Longest silence between two body chunks. */
	readonly bodyMs: number;
};

export const defaultTimeouts: UpstreamTimeouts = {connectMs: 10_000, headersMs: 600_000, bodyMs: 300_000};

/** Where a request goes, as undici's dispatchers take it: no URL to parse per request. */
export type UpstreamTarget = {readonly origin: string; readonly path: string};

/** Targets kept per (base URL, path); past this many (an unbounded set of query strings), the cache starts over. */
const maxCachedTargets = 1024;

/** One gateway's upstream connections. Closing it closes only its own pools. */
export class UpstreamPools {
	private readonly agents = new Map<string, Agent>();
	private targets = new Map<string, UpstreamTarget>();
	/** Host names resolved once per burst of new connections, not once per connection (upstream-lookup.ts). */
	private readonly lookups: LookupCache;

	constructor(options: {readonly lookup?: LookupCacheOptions} = {}) {
		this.lookups = new LookupCache(options.lookup);
	}

	/** The origin and path of `path` on a channel's base URL, parsed once per base URL and path. */
	target(channel: Pick<ChannelRecord, 'baseUrl'>, path: string, query?: Readonly<Record<string, string>>): UpstreamTarget {
		const id = query === undefined ? `${channel.baseUrl}\n${path}` : `${channel.baseUrl}\n${path}\n${JSON.stringify(query)}`;
		let target = this.targets.get(id);
		if (!target) {
			const url = new URL(channelUrl(channel, path, query));
			target = {origin: url.origin, path: `${url.pathname}${url.search}`};
			if (this.targets.size >= maxCachedTargets) this.targets = new Map();
			this.targets.set(id, target);
		}
		return target;
	}

	agent(timeouts: UpstreamTimeouts): Agent {
		const id = `${timeouts.connectMs}/${timeouts.headersMs}/${timeouts.bodyMs}`;
		let agent = this.agents.get(id);
		if (!agent) {
			agent = new Agent({connect: {timeout: timeouts.connectMs, lookup: this.lookups.lookup}, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.bodyMs, keepAliveTimeout: 30_000});
			this.agents.set(id, agent);
		}
		return agent;
	}

	async close(): Promise<void> {
		const all = [...this.agents.values()];
		this.agents.clear();
		await Promise.all(all.map(agent => agent.close().catch(() => {})));
	}
}

export function channelUrl(channel: Pick<ChannelRecord, 'baseUrl'>, path: string, query?: Readonly<Record<string, string>>): string {
	const url = new URL(channel.baseUrl.replace(/\/+$/, '') + path);
	for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
	return url.toString();
}

export type UpstreamCall = {
	readonly channel: ChannelRecord;
	readonly method: 'GET' | 'POST';
	readonly path: string;
	readonly query?: Readonly<Record<string, string>>;
	/** Client headers the provider must see (an Anthropic client's `anthropic-beta`); never credentials. */
	readonly headers?: Readonly<Record<string, string>>;
	/** JSON text, or pieces of it in order (see `requestBody`). */
	readonly body?: BodyText;
	/** Stops the call at any point (the client hung up, a deadline passed). */
	readonly abort?: Hangup;
	readonly timeouts?: UpstreamTimeouts;
};

export type {UpstreamResponse};

/** Request bodies longer than this (in UTF-16 units, so at least this many bytes) are handed to undici as a stream (`requestBody`). */
const streamedBodyLength = 64 * 1024;

/**
 * A request body as undici should get it. undici keeps a string or Buffer body on its request until
 * the answer has ended — minutes, for a stream — so every request in flight would hold its body
 * twice (the parsed request and these bytes), and a coding agent's requests run to hundreds of
 * kilobytes. A large body goes as a stream of one chunk with its content-length set: undici holds
 * the bytes only while it writes them. A small one stays a string: one write with the headers,
 * where a stream costs an asynchronous write of its own.
 */
export function requestBody(text: BodyText, headers: Record<string, string>): string | Readable {
	if (typeof text === 'string' && text.length <= streamedBodyLength) return text;
	const pieces = typeof text === 'string' ? [text] : text;
	let length = 0;
	for (const piece of pieces) length += piece.length;
	if (length <= streamedBodyLength) return pieces.join('');
	let held: Buffer | null = utf8Of(pieces);
	headers['content-length'] = String(held.byteLength);
	// Not Readable.from([bytes]): its reader keeps the array, so the bytes would stay with the request after all.
	return new Readable({
		read() {
			this.push(held);
			held = null;
			this.push(null);
		},
	});
}

/**
 * A body's text as it goes upstream: one string, or pieces of it — the client's bytes with what the
 * gateway adds in front (passthrough.ts). Pieces are encoded one after another into one buffer: the
 * string they would make joined is a rope that V8 must flatten before encoding it, which cost about
 * as much as encoding the JSON of the whole body again (146 against 50 µs for a 177 KB body).
 */
export type BodyText = string | readonly string[];

function utf8Of(pieces: readonly string[]): Buffer {
	if (pieces.length === 1) return Buffer.from(pieces[0]!, 'utf8');
	let size = 0;
	for (const piece of pieces) size += Buffer.byteLength(piece, 'utf8');
	const bytes = Buffer.allocUnsafe(size);
	let at = 0;
	for (const piece of pieces) at += bytes.write(piece, at, 'utf8');
	return bytes;
}

/**
 * Send one request upstream. Connection failures and time-outs throw GatewayErrors (502/504) naming
 * the channel. An async function on purpose: a closure made here that outlived the dispatch (an
 * error mapper handed to the handler) would share this scope's context with `call`, keeping the
 * request's text alive as long as its answer (test/proxy/client-text-release.test.ts).
 */
export async function callUpstream(pools: UpstreamPools, call: UpstreamCall): Promise<UpstreamResponse> {
	const {channel} = call;
	const headers: Record<string, string> = {
		accept: 'application/json, text/event-stream',
		// Bodies are read on the side for usage; a compressed body could not be.
		'accept-encoding': 'identity',
		'user-agent': 'gateway-tui',
	};
	if (call.body !== undefined) headers['content-type'] = 'application/json';
	Object.assign(headers, adapters[channel.format].upstreamHeaders(channel.apiKey));
	// A client's own version header wins over the adapter's default; these never carry credentials.
	if (call.headers) Object.assign(headers, call.headers);
	try {
		const {origin, path} = pools.target(channel, call.path, call.query);
		const agent = pools.agent(call.timeouts ?? defaultTimeouts);
		const body = call.body === undefined ? undefined : requestBody(call.body, headers);
		return await new Promise<UpstreamResponse>((resolve, reject) => {
			agent.dispatch({origin, path, method: call.method, headers, body}, new UpstreamCallHandler(resolve, reject, call.abort));
		});
	} catch (error) {
		throw upstreamFailure(channel, error);
	}
}

/** Map a transport failure to a GatewayError; a client abort passes through unchanged. */
export function upstreamFailure(channel: Pick<ChannelRecord, 'name'>, error: unknown): unknown {
	if (error instanceof GatewayError) return error;
	if (error instanceof undiciErrors.RequestAbortedError || (error instanceof Error && error.name === 'AbortError')) return error;
	if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError || error instanceof undiciErrors.ConnectTimeoutError) {
		return new GatewayError('timeout', 504, `Channel "${channel.name}" did not answer in time (${describe(error)}). Try again, or check the provider's status.`, {cause: error});
	}
	if (!fromTransport(error)) {
		// A throw in the gateway's own code while it read this channel's answer (a decoder, an encoder): not the channel's fault.
		return new GatewayError('internal', 500, `The gateway failed while handling channel "${channel.name}"'s answer (${describe(error)}). This is a gateway bug, not the channel's: please report it with the request id.`, {cause: error});
	}
	return new GatewayError('upstream', 502, `Channel "${channel.name}" could not be reached (${describe(error)}). Check its base URL with \`gateway-tui channels test ${channel.name}\`.`, {cause: error});
}

/** An error of the connection or the HTTP client — undici's own, or a system error with its code (ECONNRESET, ENOTFOUND, ERR_INVALID_URL…). */
function fromTransport(error: unknown): boolean {
	return error instanceof undiciErrors.UndiciError || errorCode(error) !== undefined;
}

/** A system error's code (ECONNRESET…), its own or its cause's. */
function errorCode(error: unknown): string | undefined {
	if (!(error instanceof Error)) return undefined;
	const code = (error as {code?: unknown}).code ?? (error.cause as {code?: unknown} | undefined)?.code;
	return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const code = errorCode(error);
	// Node's socket errors name their code already ("connect ECONNREFUSED 127.0.0.1:443"): once is enough.
	return code === undefined || error.message.includes(code) ? error.message : `${code}: ${error.message}`;
}
