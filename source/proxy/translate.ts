/**
 * A channel of another wire: decode the request to the IR with the client's adapter, encode it with
 * the channel's, and do the same backwards for the answer, streamed event by event.
 */
import type {IRStreamEvent, IRUsage} from '../base/ir.js';
import {parseSse} from '../formats/sse.js';
import {answered, callChannel, failed, type Attempt, type AttemptResult} from './attempt.js';
import {ClientStream, abortOnClientClose} from './client-stream.js';
import {countTokens} from './count-tokens.js';
import {toGatewayError} from './errors.js';
import {mergeUsage} from './meter.js';
import {upstreamFailure} from './upstream.js';
import {parseJson, upstreamError} from './upstream-errors.js';

export async function translate(attempt: Attempt): Promise<AttemptResult> {
	const {inbound, outbound, call, route, reply, ctx} = attempt;
	if (call.operation === 'count_tokens') return countTokens(attempt);
	const ir = inbound.decodeRequest(attempt.body, {model: call.model, stream: call.stream}, ctx);
	const target = {model: route.upstreamModel, stream: call.stream, baseUrl: route.channel.baseUrl, defaultMaxTokens: attempt.services.options.defaultMaxTokens};
	const encoded = await outbound.encodeRequest(ir, target, ctx);
	const abort = abortOnClientClose(reply);
	const called = await callChannel(attempt, outbound, {method: 'POST', path: encoded.path, query: encoded.query, body: JSON.stringify(encoded.body), signal: abort.signal});
	if (!called.ok) return called.result;
	const upstream = called.response;
	if (upstream.statusCode >= 400) return failed(upstreamError(route.channel, outbound, upstream.statusCode, await upstream.body.text(), upstream.headers));
	if (!call.stream) {
		const answer = outbound.decodeResponse(parseJson(await upstream.body.text()), ctx);
		const firstByteAt = performance.now();
		await reply.code(200).type('application/json').send(inbound.encodeResponse(answer, {model: call.model, request: attempt.body}, ctx));
		return answered(answer.usage, null, firstByteAt);
	}
	const out = new ClientStream(reply);
	out.open(200, {'content-type': inbound.streamContentType({sse: call.sse})});
	let usage: IRUsage | null = null;
	let error: string | null = null;
	const events = meterEvents(outbound.decodeStream(parseSse(upstream.body), ctx), {usage: value => (usage = value), error: message => (error = message)});
	try {
		for await (const text of inbound.encodeStream(events, {model: call.model, request: attempt.body, includeUsage: ir.includeUsage === true, sse: call.sse}, ctx)) {
			await out.write(text);
		}
	} catch (failure) {
		if (!abort.signal.aborted) {
			const gatewayError = toGatewayError(upstreamFailure(route.channel, failure));
			error = gatewayError.message;
			await out.write(inbound.renderStreamError(gatewayError, {sse: call.sse}));
		}
	} finally {
		out.end();
	}
	return answered(usage, error, out.firstByteAt);
}

/** Pass IR events through, noting usage and upstream stream errors on the request log. */
async function* meterEvents(events: AsyncIterable<IRStreamEvent>, on: {usage(usage: IRUsage): void; error(message: string): void}): AsyncGenerator<IRStreamEvent> {
	let usage: IRUsage | null = null;
	for await (const event of events) {
		if ((event.type === 'start' || event.type === 'usage') && event.usage) usage = mergeUsage(usage, event.usage);
		if (event.type === 'finish') usage = mergeUsage(usage, event.usage);
		if (usage) on.usage(usage);
		if (event.type === 'error') on.error(event.error.message);
		yield event;
	}
}
