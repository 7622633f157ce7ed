/**
 * The upstream call of an attempt, and what about its answer is the channel's fault before a byte
 * went to the client: a refused or reset connection, a time-out, a redirect (never followed: it
 * would carry the real key to wherever it points), a 5xx or a 429. Those fail over when another
 * channel can take the request. When none can, a 429 or 503 asking to retry within a few seconds
 * is retried here, on the same channel, a capped number of times.
 */
import {setTimeout as sleep} from 'node:timers/promises';
import {GatewayError} from '../base/errors.js';
import type {InboundAdapter} from '../formats/adapter.js';
import {defaultRetryPolicy, failed, gone, goneWhileAnswered, streamTimeoutsOf, transportFault, type Attempt, type AttemptResult, type ChannelFault} from './attempt.js';
import {toGatewayError} from './errors.js';
import {Hangup} from './hangup.js';
import {forgetClientBytes} from './json-body.js';
import {callUpstream, defaultTimeouts, upstreamFailure, type UpstreamCall, type UpstreamResponse, type UpstreamTimeouts} from './upstream.js';
import {headerValue, upstreamError} from './upstream-errors.js';

export type Called = {readonly ok: true; readonly response: UpstreamResponse; readonly fault: ChannelFault | null} | {readonly ok: false; readonly result: AttemptResult};

type ChannelCall = Omit<UpstreamCall, 'channel' | 'timeouts' | 'abort'> & {
	/** The client's hang-up. */
	readonly hangup: Hangup;
	/** A streamed answer: its first byte must come within the channel's first-byte deadline. */
	readonly deadline?: FirstByteDeadline;
};

/** Its hang-up aborts the upstream call when the client goes away, or when the first byte has not come in time (cleared once it has). */
export class FirstByteDeadline {
	readonly hangup = new Hangup();
	private readonly timer: NodeJS.Timeout;
	expired = false;

	constructor(
		readonly ms: number,
		client: Hangup,
	) {
		client.onAbort(reason => this.hangup.abort(reason));
		this.timer = setTimeout(() => {
			this.expired = true;
			this.hangup.abort(new Error('first-byte deadline'));
		}, ms);
	}

	clear(): void {
		clearTimeout(this.timer);
	}

	/** The error a request that waited too long fails with. */
	error(channel: string): GatewayError {
		return new GatewayError('timeout', 504, `Channel "${channel}" sent no answer within ${this.ms / 1000} s (its first-byte deadline). Try again, or raise it with \`gateway-tui channels edit ${channel} --first-byte-timeout …\`.`);
	}
}

function timeoutsOf(attempt: Attempt, streamed: boolean): UpstreamTimeouts {
	const base = attempt.services.options.timeouts ?? defaultTimeouts;
	if (!streamed) return base;
	const stream = streamTimeoutsOf(attempt);
	// The first-byte deadline (FirstByteDeadline) bounds the headers; undici's body time-out is the silence limit.
	return {connectMs: base.connectMs, headersMs: stream.firstByteMs, bodyMs: stream.idleMs};
}

/** A failure before anything reached the client: retryable when another channel may take the request. */
export function failedBeforeAnswer(attempt: Attempt, error: unknown, deadline?: FirstByteDeadline): AttemptResult {
	if (deadline?.expired) {
		const late = deadline.error(attempt.route.channel.name);
		return failed(late, attempt.canFailOver, {kind: 'timeout', reason: late.message});
	}
	const failure = toGatewayError(upstreamFailure(attempt.route.channel, error));
	return failed(failure, attempt.canFailOver, transportFault(failure));
}

async function callOnce(attempt: Attempt, wire: Pick<InboundAdapter, 'decodeError'>, call: ChannelCall): Promise<Called> {
	const {route, canFailOver} = attempt;
	const {channel} = route;
	let response: UpstreamResponse;
	try {
		const upstreamCall: UpstreamCall = {channel, method: call.method, path: call.path, query: call.query, headers: call.headers, body: call.body, abort: call.deadline?.hangup ?? call.hangup, timeouts: timeoutsOf(attempt, call.deadline !== undefined)};
		response = await callUpstream(attempt.services.pools, upstreamCall);
	} catch (error) {
		// Waiting for the provider's answer (a whole one comes only once generated): it had the request.
		if (call.hangup.aborted) return {ok: false, result: goneWhileAnswered};
		return {ok: false, result: failedBeforeAnswer(attempt, error, call.deadline)};
	}
	const status = response.statusCode;
	if (status >= 300 && status < 400) {
		await response.body.dump().catch(() => {});
		const where = headerValue(response.headers, 'location') ?? 'nowhere';
		const error = new GatewayError('upstream', 502, `Channel "${channel.name}" answered with a redirect (HTTP ${status} to ${where.slice(0, 200)}), which the gateway never follows. Set its base URL to where it redirects: \`gateway-tui channels edit ${channel.name} --base-url …\`.`, {code: 'upstream_redirect'});
		return {ok: false, result: failed(error, canFailOver, {kind: 'server', reason: `HTTP ${status} redirect`})};
	}
	if (status < 500 && status !== 429) return {ok: true, response, fault: null};
	const fault: ChannelFault = {kind: status === 429 ? 'rate_limit' : 'server', reason: `HTTP ${status}`};
	if (!canFailOver) return {ok: true, response, fault};
	let text: string;
	try {
		text = await response.body.text();
	} catch (error) {
		return {ok: false, result: failedBeforeAnswer(attempt, error, call.deadline)};
	}
	return {ok: false, result: failed(upstreamError(route, wire, status, text, response.headers), true, fault)};
}

/** Seconds of a `retry-after` header (a number or an HTTP date), or null. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
	if (!value) return null;
	if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Call the attempt's channel. An error answer in `wire` (the format spoken upstream) may become a retryable failure. */
export async function callChannel(attempt: Attempt, wire: Pick<InboundAdapter, 'decodeError'>, call: ChannelCall): Promise<Called> {
	// Every upstream call comes through here with its body built: when no attempt can follow this
	// one, the client's text kept for forwarding byte for byte (json-body.ts) is not needed again,
	// and it would otherwise live as long as the answer (a coding agent's request runs to hundreds of
	// kilobytes, its stream to minutes).
	if (!attempt.canFailOver) forgetClientBytes(attempt.reply.request);
	const policy = attempt.services.options.retry ?? defaultRetryPolicy;
	for (let retry = 0; ; retry++) {
		const called = await callOnce(attempt, wire, call);
		if (!called.ok || !called.fault || retry >= policy.maxRetries) return called;
		const status = called.response.statusCode;
		const wait = status === 429 || status === 503 ? retryAfterMs(headerValue(called.response.headers, 'retry-after')) : null;
		if (wait === null || wait > policy.maxWaitMs) return called;
		await called.response.body.dump().catch(() => {});
		attempt.services.health.failed(attempt.route.channel, called.fault.kind, called.fault.reason);
		try {
			await sleep(wait, undefined, {signal: call.hangup.signal});
		} catch {
			return {ok: false, result: gone};
		}
	}
}
