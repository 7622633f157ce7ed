/**
 * count_tokens (Anthropic) and countTokens (Gemini) against a channel of another format: the
 * channel's own counting endpoint where it has one, otherwise a real tokenizer (OpenAI's o200k_base).
 * Never a 404: Claude Code and Gemini CLI call these before every turn.
 */
import {GatewayError} from '../base/errors.js';
import type {IRRequest} from '../base/ir.js';
import {assertNever} from '../base/ir.js';
import {adapters} from '../formats/index.js';
import {decodeAnthropicCountTokensRequest, decodeAnthropicCountTokensResponse, encodeAnthropicCountTokensRequest, encodeAnthropicCountTokensResponse} from '../formats/anthropic/count-tokens.js';
import {decodeGeminiCountTokensRequest, decodeGeminiCountTokensResponse, encodeGeminiCountTokensRequest, encodeGeminiCountTokensResponse} from '../formats/gemini/count-tokens.js';
import type {RelayContext} from './relay.js';
import {translationContext} from './translation-context.js';
import {callChannel} from './upstream-call.js';
import {mapUpstreamError, parseJson} from './upstream-errors.js';
import {countWithTokenizer} from './tokenizer.js';

export async function countTokens(context: RelayContext): Promise<void> {
	const ctx = translationContext(context);
	const {route} = context;
	let ir: IRRequest;
	switch (context.inbound) {
		case 'anthropic':
			ir = decodeAnthropicCountTokensRequest(context.body, ctx);
			break;
		case 'gemini':
			ir = decodeGeminiCountTokensRequest(context.body, context.model, ctx);
			break;
		case 'openai':
		case 'responses':
			throw new GatewayError('not_found', 404, 'OpenAI chat completions has no token counting endpoint.');
		default:
			return assertNever(context.inbound, 'format');
	}
	const target = {model: route.upstreamModel, stream: false, baseUrl: route.channel.baseUrl, defaultMaxTokens: context.options.defaultMaxTokens};
	let total: number;
	switch (route.channel.format) {
		case 'openai':
			total = countWithTokenizer(ir);
			break;
		case 'anthropic':
			total = await countUpstream(context, await encodeAnthropicCountTokensRequest(ir, target, ctx), decodeAnthropicCountTokensResponse);
			break;
		case 'gemini':
			total = await countUpstream(context, await encodeGeminiCountTokensRequest(ir, target, ctx), decodeGeminiCountTokensResponse);
			break;
		default:
			return assertNever(route.channel.format, 'format');
	}
	context.exchange.firstByteAt = performance.now();
	const body = context.inbound === 'anthropic' ? encodeAnthropicCountTokensResponse(total) : encodeGeminiCountTokensResponse(total);
	await context.reply.code(200).type('application/json').send(body);
}

async function countUpstream(context: RelayContext, encoded: {path: string; body: unknown}, decode: (body: unknown) => number): Promise<number> {
	const {route} = context;
	const upstream = await callChannel(context, {method: 'POST', path: encoded.path, body: JSON.stringify(encoded.body)});
	if (!upstream) throw new GatewayError('internal', 499, 'The client closed the request.');
	const body = parseJson(await upstream.body.text());
	if (upstream.statusCode >= 400) throw mapUpstreamError(route.channel, adapters[route.channel.format].decodeError(upstream.statusCode, body), undefined);
	return decode(body);
}
