import type {IRUsage, JsonObject} from '../../base/ir.js';
import {asNumber, asObject, type WireObject} from '../wire.js';

/**
 * Responses `usage` → IR. Its conventions match the IR: `input_tokens` includes
 * `input_tokens_details.cached_tokens`, `output_tokens` includes `output_tokens_details.reasoning_tokens`.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function decodeResponsesUsage(usage: WireObject | undefined): IRUsage {
	if (!usage) return {inputTokens: 0, outputTokens: 0};
	const inputDetails = asObject(usage.input_tokens_details);
	const outputDetails = asObject(usage.output_tokens_details);
	const cached = inputDetails && asNumber(inputDetails.cached_tokens);
	const cacheWrite = inputDetails && asNumber(inputDetails.cache_write_tokens);
	const reasoning = outputDetails && asNumber(outputDetails.reasoning_tokens);
	return {
		inputTokens: asNumber(usage.input_tokens) ?? 0,
		outputTokens: asNumber(usage.output_tokens) ?? 0,
		...(cached ? {cachedTokens: cached} : {}),
		...(cacheWrite ? {cacheCreationTokens: cacheWrite} : {}),
		...(reasoning ? {reasoningTokens: reasoning} : {}),
	};
}

/**
 * IR → Responses `usage`, in the shape the API sends (details objects always present). Codex reads
 * `input_tokens`, `cached_tokens`, `output_tokens`, `reasoning_tokens` and `total_tokens` from it.
 */
export function encodeResponsesUsage(usage: IRUsage): JsonObject {
	const inputDetails: JsonObject = {cached_tokens: usage.cachedTokens ?? 0};
	if (usage.cacheCreationTokens) inputDetails.cache_write_tokens = usage.cacheCreationTokens;
	return {
		input_tokens: usage.inputTokens,
		input_tokens_details: inputDetails,
		output_tokens: usage.outputTokens,
		output_tokens_details: {reasoning_tokens: usage.reasoningTokens ?? 0},
		total_tokens: usage.inputTokens + usage.outputTokens,
	};
}
