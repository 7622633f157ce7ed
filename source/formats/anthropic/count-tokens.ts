/**
 * `POST /v1/messages/count_tokens`: the Messages request without `max_tokens`, `stream` and the
 * sampling/stop/metadata fields (the endpoint rejects them), answered with `{input_tokens}`.
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
import {forgetfulSignatures} from '../signature.js';
import type {EncodedRequest, TranslationContext, UpstreamTarget} from '../adapter.js';
import type {IRRequest, JsonObject} from '../../base/ir.js';
import {GatewayError} from '../../base/errors.js';
import {buildAnthropicBody, decodeAnthropicRequest} from './request.js';
import {isWireObject, asNumber, toJsonObject} from '../wire.js';

const silent: TranslationContext = {
	warn() {},
	signatures: forgetfulSignatures,
	async fetchImage() {
		throw new GatewayError('internal', 500, 'Anthropic token counting never fetches images.');
	},
};

export function decodeAnthropicCountTokensRequest(body: unknown, ctx: TranslationContext = silent): IRRequest {
	return decodeAnthropicRequest(body, {stream: false}, ctx);
}

export function encodeAnthropicCountTokensRequest(request: IRRequest, target: UpstreamTarget, ctx: TranslationContext = silent): EncodedRequest {
	const {max_tokens, stream, metadata, stop_sequences, temperature, top_p, top_k, ...counted} = buildAnthropicBody(request, {...target, stream: false}, ctx);
	return {path: '/v1/messages/count_tokens', body: toJsonObject(counted)};
}

export function encodeAnthropicCountTokensResponse(inputTokens: number): JsonObject {
	return {input_tokens: inputTokens};
}

export function decodeAnthropicCountTokensResponse(body: unknown): number {
	const count = isWireObject(body) ? asNumber(body.input_tokens) : undefined;
	if (count === undefined) throw new GatewayError('upstream', 502, 'Anthropic answered count_tokens without a numeric "input_tokens".');
	return count;
}
