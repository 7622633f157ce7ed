/**
 * Inbound format != channel format: decode the request to the IR with the client's adapter, encode
 * it with the channel's, and do the same backwards for the answer, streamed event by event.
 */
import {adapters, inboundAdapters} from '../formats/index.js';
import type {IRStreamEvent, IRUsage} from '../base/ir.js';
import {parseSse} from '../formats/sse.js';
import {ClientStream, abortOnClientClose, streamErrorFrame} from './client-stream.js';
import {toGatewayError} from './errors.js';
import type {RelayContext} from './relay.js';
import {translationContext} from './translation-context.js';
import {upstreamFailure} from './upstream.js';
import {callChannel} from './upstream-call.js';
import {headerValue, mapUpstreamError, parseJson} from './upstream-errors.js';
import {countTokens} from './count-tokens.js';
import {mergeUsage} from './meter.js';

export async function translate(context: RelayContext): Promise<void> {
	if (context.operation === 'count_tokens') return countTokens(context);
	const {route, reply, exchange} = context;
	const ctx = translationContext(context);
	const client = inboundAdapters[context.inbound];
	const channel = adapters[route.channel.format];
	const ir = client.decodeRequest(context.body, {model: context.model, stream: context.stream}, ctx);
	const encoded = await channel.encodeRequest(ir, {model: route.upstreamModel, stream: context.stream, baseUrl: route.channel.baseUrl, defaultMaxTokens: context.options.defaultMaxTokens}, ctx);
	const abort = abortOnClientClose(reply);
	const upstream = await callChannel(context, {method: 'POST', path: encoded.path, query: encoded.query, body: JSON.stringify(encoded.body), signal: abort.signal});
	if (!upstream) return;
	if (upstream.statusCode >= 400) {
		const body = parseJson(await upstream.body.text());
		throw mapUpstreamError(route.channel, channel.decodeError(upstream.statusCode, body), headerValue(upstream.headers, 'retry-after'));
	}
	if (!context.stream) {
		const answer = channel.decodeResponse(parseJson(await upstream.body.text()), ctx);
		exchange.usage = answer.usage;
		exchange.firstByteAt = performance.now();
		await reply.code(200).type('application/json').send(client.encodeResponse(answer, {model: context.model, request: context.body}, ctx));
		return;
	}
	const out = new ClientStream(reply, exchange);
	const sse = context.inbound !== 'gemini' || context.sse;
	out.open(200, {'content-type': sse ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8'});
	const events = meterEvents(channel.decodeStream(parseSse(upstream.body), ctx), {
		usage: usage => {
			exchange.usage = usage;
		},
		error: message => {
			exchange.error = message;
		},
	});
	try {
		for await (const text of client.encodeStream(events, {model: context.model, request: context.body, includeUsage: ir.includeUsage === true, sse}, ctx)) {
			await out.write(text);
		}
	} catch (error) {
		if (!abort.signal.aborted) {
			const failure = toGatewayError(upstreamFailure(route.channel, error));
			exchange.error = failure.message;
			await out.write(streamErrorFrame(context.inbound, failure));
		}
	} finally {
		out.end();
	}
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
