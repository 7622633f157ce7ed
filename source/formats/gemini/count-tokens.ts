/**
 * Gemini `models.countTokens` ↔ IR. A client sends either bare `contents` or a whole
 * `generateContentRequest` (with system instruction and tools); upstream we always send the latter,
 * whose `model` must be the `models/…` resource name. The answer is `{totalTokens}`.
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
 */
import {forgetfulSignatures} from '../signature.js';
import type {EncodedRequest, TranslationContext, UpstreamTarget} from '../adapter.js';
import type {IRRequest} from '../../base/ir.js';
import {GatewayError, invalidRequest} from '../../base/errors.js';
import {bareName} from './model-family.js';
import {decodeGeminiRequestBody, encodeGeminiRequestBody} from './request.js';
import {compact, isWireObject} from '../wire.js';
import {pickNumber, pickRecord} from './schema.js';

const noContext: TranslationContext = {
	warn() {},
	signatures: forgetfulSignatures,
	async fetchImage() {
		throw invalidRequest('Images given by URL cannot be counted here; send them inline.');
	},
};

export async function encodeGeminiCountTokensRequest(ir: IRRequest, target: UpstreamTarget, ctx: TranslationContext = noContext): Promise<EncodedRequest> {
	const model = bareName(target.model);
	const {contents, systemInstruction, tools} = await encodeGeminiRequestBody(ir, model, ctx);
	return {
		path: `/v1beta/models/${model}:countTokens`,
		body: {generateContentRequest: compact({model: `models/${model}`, contents, systemInstruction, tools})},
	};
}

export function decodeGeminiCountTokensRequest(body: unknown, model: string, ctx: TranslationContext = noContext): IRRequest {
	if (!isWireObject(body)) throw invalidRequest('The countTokens body must be a JSON object with contents or generateContentRequest.');
	const inner = pickRecord(body, 'generateContentRequest') ?? body;
	return decodeGeminiRequestBody(inner, bareName(model), false, ctx);
}

export function encodeGeminiCountTokensResponse(totalTokens: number): {totalTokens: number} {
	return {totalTokens};
}

export function decodeGeminiCountTokensResponse(body: unknown): number {
	const total = isWireObject(body) ? pickNumber(body, 'totalTokens') : undefined;
	if (total === undefined) throw new GatewayError('upstream', 502, 'Gemini answered countTokens without totalTokens.');
	return total;
}
