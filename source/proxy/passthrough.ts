/**
 * Inbound format == channel format (or a Responses API request to an OpenAI channel that speaks it):
 * the body goes upstream unchanged but for the model name, the client's auth is replaced by the
 * channel's real key, and the answer comes back byte for byte. Usage is read on the side by the
 * decoder of the wire format spoken, which is the client's.
 *
 * One deliberate change: an OpenAI stream is always asked for usage (`stream_options.include_usage`),
 * so the gateway can count tokens; when the client did not ask, that extra chunk is not forwarded.
 */
import type {FastifyRequest} from 'fastify';
import {assertNever} from '../base/ir.js';
import {inboundAdapters} from '../formats/index.js';
import {parseSse, sseFrame, type SseMessage} from '../formats/sse.js';
import {ClientStream, abortOnClientClose, forwardedHeaders, streamErrorFrame} from './client-stream.js';
import {toGatewayError} from './errors.js';
import {StreamMeter} from './meter.js';
import type {RelayContext} from './relay.js';
import {upstreamFailure, type UpstreamResponse} from './upstream.js';
import {callChannel} from './upstream-call.js';
import {headerValue, mapUpstreamError, parseJson, scrub} from './upstream-errors.js';
import {translationContext} from './translation-context.js';
import type {TranslationContext} from '../formats/adapter.js';

type Outgoing = {path: string; query?: Record<string, string>; body: Record<string, unknown>; headers: Record<string, string>; stripUsage: boolean};

function anthropicHeaders(request: FastifyRequest): Record<string, string> {
	const out: Record<string, string> = {};
	for (const name of ['anthropic-version', 'anthropic-beta']) {
		const value = request.headers[name];
		if (typeof value === 'string' && value) out[name] = value;
	}
	return out;
}

function outgoing(context: RelayContext): Outgoing {
	const {route, body, stream, operation} = context;
	const model = route.upstreamModel;
	switch (context.inbound) {
		case 'openai': {
			const options = body.stream_options as {include_usage?: unknown} | undefined;
			const stripUsage = stream && options?.include_usage !== true;
			const streamOptions = stripUsage ? {...options, include_usage: true} : options;
			return {path: '/chat/completions', body: {...body, model, ...(stream ? {stream_options: streamOptions} : {})}, headers: {}, stripUsage};
		}
		case 'anthropic':
			return {path: operation === 'count_tokens' ? '/v1/messages/count_tokens' : '/v1/messages', body: {...body, model}, headers: anthropicHeaders(context.request), stripUsage: false};
		case 'gemini': {
			const method = operation === 'count_tokens' ? 'countTokens' : stream ? 'streamGenerateContent' : 'generateContent';
			const inner = body.generateContentRequest as Record<string, unknown> | undefined;
			const rewritten = inner && typeof inner === 'object' ? {...body, generateContentRequest: {...inner, model: `models/${model}`}} : body;
			return {path: `/v1beta/models/${encodeURIComponent(model)}:${method}`, query: stream && context.sse ? {alt: 'sse'} : undefined, body: rewritten, headers: {}, stripUsage: false};
		}
		case 'responses':
			return {path: '/responses', body: {...body, model}, headers: {}, stripUsage: false};
		default:
			return assertNever(context.inbound, 'format');
	}
}

export async function passthrough(context: RelayContext): Promise<void> {
	const {route, reply, exchange} = context;
	const out = outgoing(context);
	const abort = abortOnClientClose(reply);
	const upstream = await callChannel(context, {method: 'POST', path: out.path, query: out.query, headers: out.headers, body: JSON.stringify(out.body), signal: abort.signal});
	if (!upstream) return;
	const ctx = translationContext(context);
	if (upstream.statusCode >= 400) {
		const text = await upstream.body.text();
		if (upstream.statusCode === 401 || upstream.statusCode === 403) {
			throw mapUpstreamError(route.channel, inboundAdapters[context.inbound].decodeError(upstream.statusCode, parseJson(text)), undefined);
		}
		exchange.error = scrub(text, route.channel).slice(0, 500);
		await reply.code(upstream.statusCode).headers(forwardedHeaders(upstream.headers)).send(scrub(text, route.channel));
		return;
	}
	if (!context.stream) {
		const text = await upstream.body.text();
		exchange.firstByteAt = performance.now();
		if (context.operation === 'generate') {
			try {
				exchange.usage = inboundAdapters[context.inbound].decodeResponse(JSON.parse(text), ctx).usage;
			} catch (error) {
				ctx.warn(`usage could not be read from the answer (${(error as Error).message})`);
			}
		}
		await reply.code(upstream.statusCode).headers(forwardedHeaders(upstream.headers)).send(text);
		return;
	}
	await pipeStream(context, ctx, upstream, out.stripUsage, abort);
}

async function pipeStream(context: RelayContext, ctx: TranslationContext, upstream: UpstreamResponse, stripUsage: boolean, abort: AbortController): Promise<void> {
	const {route, exchange} = context;
	const sse = /text\/event-stream/i.test(headerValue(upstream.headers, 'content-type') ?? '');
	const meter = new StreamMeter(
		context.inbound,
		stripUsage ? 'messages' : sse ? 'sse' : 'json-array',
		ctx,
		usage => {
			exchange.usage = usage;
		},
		message => {
			exchange.error = message;
		},
	);
	const client = new ClientStream(context.reply, exchange);
	client.open(upstream.statusCode, forwardedHeaders(upstream.headers));
	try {
		if (stripUsage) {
			for await (const message of parseSse(upstream.body)) {
				meter.pushMessage(message);
				if (!isUsageOnlyChunk(message)) await client.write(sseFrame(message.data, message.event));
			}
		} else {
			for await (const chunk of upstream.body) {
				meter.pushBytes(chunk as Uint8Array);
				await client.write(chunk as Uint8Array);
			}
		}
	} catch (error) {
		if (!abort.signal.aborted) {
			const failure = toGatewayError(upstreamFailure(route.channel, error));
			exchange.error = failure.message;
			await client.write(streamErrorFrame(context.inbound, failure));
		}
	} finally {
		meter.end();
		await meter.done;
		client.end();
	}
}

/** The chunk an OpenAI stream adds for `include_usage`: no choices, only usage. */
function isUsageOnlyChunk(message: SseMessage): boolean {
	if (!message.data.includes('"usage"')) return false;
	const chunk = parseJson(message.data) as {choices?: unknown; usage?: unknown};
	return Array.isArray(chunk.choices) && chunk.choices.length === 0 && typeof chunk.usage === 'object' && chunk.usage !== null;
}
