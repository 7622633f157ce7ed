/**
 * A channel that speaks the client's wire (affinity 2): the body goes upstream as the client's
 * adapter says (the model name rewritten, a few headers forwarded), the client's auth replaced by the
 * channel's real key, and the answer comes back byte for byte. Usage is read on the side by the
 * client format's own stream decoder.
 */
import type {SseMessage} from '../formats/sse.js';
import {parseSse, sseFrame} from '../formats/sse.js';
import {answered, callChannel, failed, type Attempt, type AttemptResult} from './attempt.js';
import {ClientStream, abortOnClientClose, forwardedHeaders} from './client-stream.js';
import {toGatewayError} from './errors.js';
import {StreamMeter} from './meter.js';
import {upstreamFailure, type UpstreamResponse} from './upstream.js';
import {headerValue, scrub, upstreamError} from './upstream-errors.js';

export async function passthrough(attempt: Attempt): Promise<AttemptResult> {
	const {inbound, call, route, reply, ctx} = attempt;
	const out = inbound.passthrough(attempt.body, {call, upstreamModel: route.upstreamModel, headers: attempt.headers});
	const abort = abortOnClientClose(reply);
	const called = await callChannel(attempt, inbound, {method: 'POST', path: out.path, query: out.query, headers: out.headers, body: JSON.stringify(out.body), signal: abort.signal});
	if (!called.ok) return called.result;
	const upstream = called.response;
	if (upstream.statusCode >= 400) {
		const text = await upstream.body.text();
		if (upstream.statusCode === 401 || upstream.statusCode === 403) return failed(upstreamError(route.channel, inbound, upstream.statusCode, text, upstream.headers));
		const clean = scrub(text, route.channel);
		await reply.code(upstream.statusCode).headers(forwardedHeaders(upstream.headers)).send(clean);
		return answered(null, clean.slice(0, 500), performance.now());
	}
	if (!call.stream) {
		const text = await upstream.body.text();
		const firstByteAt = performance.now();
		let usage = null;
		if (call.operation === 'generate') {
			try {
				usage = inbound.decodeResponse(JSON.parse(text), ctx).usage;
			} catch (error) {
				ctx.warn(`usage could not be read from the answer (${(error as Error).message})`);
			}
		}
		await reply.code(upstream.statusCode).headers(forwardedHeaders(upstream.headers)).send(text);
		return answered(usage, null, firstByteAt);
	}
	return pipeStream(attempt, upstream, out.hides, abort);
}

async function pipeStream(attempt: Attempt, upstream: UpstreamResponse, hides: ((message: SseMessage) => boolean) | undefined, abort: AbortController): Promise<AttemptResult> {
	const {inbound, route, call, ctx} = attempt;
	const sse = /text\/event-stream/i.test(headerValue(upstream.headers, 'content-type') ?? '');
	let usage = null as Parameters<typeof answered>[0];
	let error: string | null = null;
	const meter = new StreamMeter(inbound, hides ? 'messages' : sse ? 'sse' : 'json-array', ctx, {usage: value => (usage = value), error: message => (error = message)});
	const client = new ClientStream(attempt.reply);
	client.open(upstream.statusCode, forwardedHeaders(upstream.headers));
	try {
		if (hides) {
			for await (const message of parseSse(upstream.body)) {
				meter.pushMessage(message);
				if (!hides(message)) await client.write(sseFrame(message.data, message.event));
			}
		} else {
			for await (const chunk of upstream.body) {
				meter.pushBytes(chunk as Uint8Array);
				await client.write(chunk as Uint8Array);
			}
		}
	} catch (failure) {
		if (!abort.signal.aborted) {
			const gatewayError = toGatewayError(upstreamFailure(route.channel, failure));
			error = gatewayError.message;
			await client.write(inbound.renderStreamError(gatewayError, {sse: call.sse}));
		}
	} finally {
		meter.end();
		await meter.done;
		client.end();
	}
	return answered(usage, error, client.firstByteAt);
}
