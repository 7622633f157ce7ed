/**
 * A channel that speaks the client's wire (affinity 2): the body goes upstream as the client's
 * adapter says (the model name rewritten, a few headers forwarded), the client's auth replaced by the
 * channel's real key, and the answer comes back byte for byte. Usage is read on the side by the
 * client format's own stream decoder.
 *
 * An answer that cannot be used — a body that breaks off or is not JSON, a stream that ends before
 * its first byte — fails over like a refused connection; a stream that breaks after its first byte
 * ends with the format's own error frame (see stream-end.ts), never silently.
 */
import {GatewayError} from '../base/errors.js';
import {answered, failed, gone, goneWhileAnswered, scrubberOf, streamTimeoutsOf, type Attempt, type AttemptResult, type ChannelFault} from './attempt.js';
import {callChannel, failedBeforeAnswer, FirstByteDeadline} from './call-channel.js';
import {abortOnClientClose, forwardedHeaders} from './client-stream.js';
import {pipeStream} from './passthrough-stream.js';
import type {PassthroughRequest} from '../formats/adapter.js';
import type {Hangup} from './hangup.js';
import {clientBytes} from './json-body.js';
import {usageFromTail} from '../formats/answer-usage.js';
import type {BodyText, UpstreamResponse} from './upstream.js';
import {failOverMissingModel, headerValue, jsonOrText, mapUpstreamError} from './upstream-errors.js';

export async function passthrough(attempt: Attempt): Promise<AttemptResult> {
	const {inbound, call, route, reply} = attempt;
	const out = inbound.passthrough(attempt.body, {call, upstreamModel: route.upstreamModel, headers: attempt.headers});
	const abort = abortOnClientClose(reply);
	const deadline = call.stream ? new FirstByteDeadline(streamTimeoutsOf(attempt).firstByteMs, abort) : undefined;
	try {
		const called = await callChannel(attempt, inbound, {method: 'POST', path: out.path, query: out.query, headers: out.headers, body: upstreamBody(attempt, out), hangup: abort, deadline});
		if (!called.ok) return called.result;
		const upstream = called.response;
		if (upstream.statusCode >= 400) return errorAnswer(attempt, upstream, called.fault, abort);
		if (!call.stream || !deadline) return wholeAnswer(attempt, upstream, abort);
		return await pipeStream(attempt, upstream, out.hides, abort, deadline);
	} finally {
		deadline?.clear();
	}
}

/**
 * The client's own bytes when the adapter left its body unchanged (and no key it routes by is
 * duplicated) — with what the adapter added written in front of the first key — else the body
 * re-encoded.
 */
export function upstreamBody(attempt: Attempt, out: PassthroughRequest): BodyText {
	const text = out.verbatim ? clientBytes(attempt.reply.request, out.body, out.verbatim) : null;
	if (text === null) return JSON.stringify(out.added ? {...out.added.value, ...out.body} : out.body);
	if (!out.added) return text;
	// The text is a JSON object's: its first `{` opens it (whitespace at most before it).
	const open = text.indexOf('{') + 1;
	return [text.slice(0, open), `${out.added.members},`, text.slice(open)];
}

/**
 * Read an answer's whole body; a connection that breaks while it is read is the channel's failure,
 * and a client that leaves meanwhile is `whenGone` (an error answer bills nothing, an answer does).
 */
async function readBody(attempt: Attempt, upstream: UpstreamResponse, client: Hangup, whenGone: AttemptResult): Promise<{text: string} | {result: AttemptResult}> {
	try {
		return {text: await upstream.body.text()};
	} catch (error) {
		return {result: client.aborted ? whenGone : failedBeforeAnswer(attempt, error)};
	}
}

/**
 * The provider's error answer, passed on as it came (scrubbed by the server's onSend), or mapped when
 * it refused the real key. The request log gets the message as a translated request's log would —
 * with what to do about a model the provider no longer has — and the provider's request id.
 */
async function errorAnswer(attempt: Attempt, upstream: UpstreamResponse, fault: ChannelFault | null, client: Hangup): Promise<AttemptResult> {
	const {inbound, route, reply} = attempt;
	const read = await readBody(attempt, upstream, client, gone);
	if ('result' in read) return read.result;
	// A refused real key is the channel's problem, not the client's, whatever status the provider uses for it (Gemini: 400 API_KEY_INVALID).
	const decoded = inbound.decodeError(upstream.statusCode, jsonOrText(read.text));
	if (upstream.statusCode === 401 || upstream.statusCode === 403 || decoded.kind === 'authentication' || decoded.kind === 'permission') {
		return failed(mapUpstreamError(route, {...decoded, status: decoded.kind === 'permission' ? 403 : 401}, undefined));
	}
	// A model this channel's provider no longer has may be served by the next channel: the client gets that one's answer instead.
	const onward = failOverMissingModel(attempt, decoded);
	if (onward) return onward;
	const scrubber = scrubberOf(attempt);
	void reply.code(upstream.statusCode).headers(scrubber.scrubHeaders(forwardedHeaders(upstream.headers))).send(read.text);
	const providerId = headerValue(upstream.headers, 'request-id') ?? headerValue(upstream.headers, 'x-request-id');
	const logged = mapUpstreamError(route, decoded, undefined).message + (providerId ? ` (provider request id ${providerId})` : '');
	return answered(null, scrubber.scrub(logged).slice(0, 1000), performance.now(), fault);
}

async function wholeAnswer(attempt: Attempt, upstream: UpstreamResponse, client: Hangup): Promise<AttemptResult> {
	const {inbound, call, route, reply, ctx} = attempt;
	const read = await readBody(attempt, upstream, client, goneWhileAnswered);
	if ('result' in read) return read.result;
	// The usage is read from the answer's end; only an answer where it cannot be is parsed whole (and refused if it is not JSON).
	let usage = call.operation === 'generate' ? (usageFromTail(read.text, inbound.answerUsage) ?? null) : null;
	if (usage === null) {
		let body: unknown;
		try {
			body = JSON.parse(read.text);
		} catch {
			const error = new GatewayError('upstream', 502, `Channel "${route.channel.name}" answered HTTP ${upstream.statusCode} with a body that is not JSON (${read.text.length} bytes). Check its base URL with \`gateway-tui channels test ${route.channel.name}\`.`, {code: 'upstream_invalid_response'});
			return failed(error, attempt.canFailOver, {kind: 'server', reason: 'an answer that is not JSON'});
		}
		if (call.operation === 'generate') {
			try {
				usage = inbound.decodeResponse(body, ctx).usage;
			} catch (error) {
				ctx.warn(`usage could not be read from the answer (${(error as Error).message})`);
			}
		}
	}
	const firstByteAt = performance.now();
	// Not awaited: a reply is a thenable that waits for the response to finish, which nothing here needs (the request log waits for it).
	void reply.code(upstream.statusCode).headers(scrubberOf(attempt).scrubHeaders(forwardedHeaders(upstream.headers))).send(read.text);
	return answered(usage, null, firstByteAt);
}
