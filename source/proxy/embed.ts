/**
 * Embeddings (OpenAI `POST /v1/embeddings`, Gemini `:embedContent` / `:batchEmbedContents`): passed
 * through to a channel of the client's wire, translated between OpenAI and Gemini otherwise. Where
 * the provider reports no usage (Gemini), the input is counted with the tokenizer and the usage is
 * marked estimated. Priced like any request (input price only), limited, logged.
 */
import {GatewayError} from '../base/errors.js';
import type {IREmbedRequest, IRUsage} from '../base/ir.js';
import {answered, failed, type Attempt, type AttemptResult} from './attempt.js';
import {callChannel} from './call-channel.js';
import {abortOnClientClose, forwardedHeaders} from './client-stream.js';
import {upstreamBody} from './passthrough.js';
import {errorFailure, jsonOrText} from './upstream-errors.js';

/** The refusal when no channel serving the model has an embeddings API (Anthropic has none). */
export function noEmbeddingsApi(model: string, channels: readonly string[]): GatewayError {
	return new GatewayError('invalid_request', 400, `The model "${model}" is served only by ${channels.join(', ')}, whose provider format has no embeddings API (Anthropic has none). Ask for an embedding model of an OpenAI or Gemini channel, e.g. text-embedding-3-small or gemini-embedding-001.`, {code: 'embeddings_not_supported', param: 'model'});
}

function estimate(attempt: Attempt, request: IREmbedRequest): IRUsage {
	const texts = request.inputs.flatMap(input => (input.type === 'text' ? [input.text] : []));
	const tokens = request.inputs.reduce((sum, input) => sum + (input.type === 'tokens' ? input.tokens.length : 0), 0);
	return {inputTokens: tokens + attempt.services.tokenizer.countTexts(texts), outputTokens: 0, estimated: true, estimatedOnly: 'input'};
}

export async function embed(attempt: Attempt): Promise<AttemptResult> {
	const {inbound, outbound, call, route, reply} = attempt;
	const client = inbound.embeddings;
	const upstream = outbound.upstreamEmbeddings;
	if (!client || !upstream) return failed(noEmbeddingsApi(call.model, [`channel "${route.channel.name}" (${route.channel.format})`]));
	const request = client.decodeRequest(attempt.body, call);
	const abort = abortOnClientClose(reply);
	const same = inbound.affinity(route.channel) === 2;
	const passed = same ? inbound.passthrough(attempt.body, {call, upstreamModel: route.upstreamModel, headers: attempt.headers}) : null;
	const out = passed ?? upstream.encodeRequest(request, {model: route.upstreamModel, stream: false, baseUrl: route.channel.baseUrl, defaultMaxTokens: 0});
	const wire = same ? inbound : outbound;
	const called = await callChannel(attempt, wire, {method: 'POST', path: out.path, query: out.query, body: passed ? upstreamBody(attempt, passed) : JSON.stringify(out.body), hangup: abort});
	if (!called.ok) return called.result;
	const text = await called.response.body.text();
	const status = called.response.statusCode;
	if (status >= 400) return errorFailure(attempt, wire, status, text, called.response.headers, called.fault);
	const decoded = (same ? client : upstream).decodeResponse(jsonOrText(text));
	const usage = decoded.usage ?? estimate(attempt, request);
	const firstByteAt = performance.now();
	if (same) await reply.code(status).headers(forwardedHeaders(called.response.headers)).send(text);
	else await reply.code(200).type('application/json').send(client.encodeResponse({...decoded, usage}, {model: call.model, call, request: attempt.body}));
	return answered(usage, null, firstByteAt);
}
