/**
 * Request and response bodies for the request log's details — opt-in (`--capture-bodies`,
 * GATEWAY_TUI_CAPTURE_BODIES=1, or `b` in the TUI's request details), for debugging a tool's traffic.
 *
 * Bounded twice: each body keeps its first `maxBytes` (64 KiB), and only the newest `keep` (100)
 * requests keep theirs. Kept in this gateway's memory only — never in the store or a log file — and
 * masked (every known key, every credential-shaped value) once, when the request ends. While off,
 * a request costs one boolean test: nothing is copied, no write is wrapped.
 */
import type {FastifyReply, FastifyRequest} from 'fastify';
import type {BodiesLookup, RequestBodies} from '../base/events.js';
import type {Scrubber} from '../base/secrets.js';
import {BodyTee, capturedBody, maskedHeaders} from './body-text.js';

export type BodyCaptureOptions = {
	readonly capturing: boolean;
	/** Bytes kept of each body. */
	readonly maxBytes: number;
	/** Requests whose bodies are kept: the newest. */
	readonly keep: number;
};

export const defaultBodyCapture: BodyCaptureOptions = {capturing: false, maxBytes: 64 * 1024, keep: 100};

/** GATEWAY_TUI_CAPTURE_BODIES=1|on|true|yes turns capture on (the TUI passes `--capture-bodies` to its worker this way). */
export function bodyCaptureFromEnv(env: NodeJS.ProcessEnv = process.env): BodyCaptureOptions {
	const value = env.GATEWAY_TUI_CAPTURE_BODIES?.trim().toLowerCase() ?? '';
	return {...defaultBodyCapture, capturing: ['1', 'on', 'true', 'yes'].includes(value)};
}

export class BodyCapture {
	capturing: boolean;
	readonly maxBytes: number;
	readonly keep: number;
	/** Insertion order is age: the first entry is the oldest. */
	private readonly kept = new Map<string, RequestBodies>();

	constructor(options: Partial<BodyCaptureOptions> = {}) {
		const settings = {...defaultBodyCapture, ...options};
		this.capturing = settings.capturing;
		this.maxBytes = settings.maxBytes;
		this.keep = settings.keep;
	}

	/** Start copying what the response writes (call only while `capturing`). */
	tee(reply: FastifyReply): BodyTee {
		return new BodyTee(reply.raw, this.maxBytes);
	}

	/** The request has ended: keep its bodies, masked, dropping the oldest past `keep`. */
	record(id: string, request: FastifyRequest, reply: FastifyReply, tee: BodyTee, scrubber: Scrubber): RequestBodies {
		const bodies: RequestBodies = {
			id,
			requestHeaders: maskedHeaders(request.headers, scrubber),
			request: this.requestBody(request, scrubber),
			response: tee.total === 0 ? null : capturedBody(tee.bytes, tee.total, this.maxBytes, headerText(reply.raw.getHeader('content-type')) ?? tee.contentType, scrubber),
		};
		this.kept.set(id, bodies);
		for (const oldest of this.kept.keys()) {
			if (this.kept.size <= this.keep) break;
			this.kept.delete(oldest);
		}
		return bodies;
	}

	get(id: string): RequestBodies | null {
		return this.kept.get(id) ?? null;
	}

	lookup(id: string): BodiesLookup {
		return {capturing: this.capturing, maxBytes: this.maxBytes, keep: this.keep, bodies: this.get(id)};
	}

	/** The parsed JSON body as compact JSON (the gateway reads only JSON bodies); the raw bytes are not kept past parsing. */
	private requestBody(request: FastifyRequest, scrubber: Scrubber) {
		if (request.body === undefined || request.body === null) return null;
		const text = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
		const bytes = Buffer.from(text);
		return capturedBody(bytes, bytes.length, this.maxBytes, headerText(request.headers['content-type']), scrubber);
	}
}

function headerText(value: number | string | string[] | undefined): string | null {
	if (value === undefined) return null;
	return Array.isArray(value) ? value.join(', ') : String(value);
}
