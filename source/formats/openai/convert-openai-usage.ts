import type {IRUsage, JsonObject} from '../../base/ir.js';
import {numberField, objectField, type WireObject} from './schema.js';

/**
 * OpenAI `usage` → IR. OpenAI's conventions already match the IR: `prompt_tokens` includes
 * `prompt_tokens_details.cached_tokens` (and `cache_write_tokens`), `completion_tokens` includes
 * `completion_tokens_details.reasoning_tokens`. DeepSeek reports cache hits as `prompt_cache_hit_tokens`
 * instead (also included in `prompt_tokens`).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 * @see https://api-docs.deepseek.com/api/create-chat-completion
 */
export function convertOpenaiUsage(usage: WireObject | undefined): IRUsage {
	if (!usage) return {inputTokens: 0, outputTokens: 0};
	const promptDetails = objectField(usage, 'prompt_tokens_details');
	const completionDetails = objectField(usage, 'completion_tokens_details');
	const cached = (promptDetails && numberField(promptDetails, 'cached_tokens')) ?? numberField(usage, 'prompt_cache_hit_tokens');
	const cacheWrite = promptDetails && numberField(promptDetails, 'cache_write_tokens');
	const reasoning = (completionDetails && numberField(completionDetails, 'reasoning_tokens')) ?? numberField(usage, 'reasoning_tokens');
	return {
		inputTokens: numberField(usage, 'prompt_tokens') ?? 0,
		outputTokens: numberField(usage, 'completion_tokens') ?? 0,
		...(cached ? {cachedTokens: cached} : {}),
		...(cacheWrite ? {cacheCreationTokens: cacheWrite} : {}),
		...(reasoning ? {reasoningTokens: reasoning} : {}),
	};
}

/**
 * IR → OpenAI `usage`, in the shape the real API sends (details objects always present).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
export function toOpenaiUsage(usage: IRUsage): JsonObject {
	const promptDetails: JsonObject = {cached_tokens: usage.cachedTokens ?? 0, audio_tokens: 0};
	if (usage.cacheCreationTokens) promptDetails.cache_write_tokens = usage.cacheCreationTokens;
	return {
		prompt_tokens: usage.inputTokens,
		completion_tokens: usage.outputTokens,
		total_tokens: usage.inputTokens + usage.outputTokens,
		prompt_tokens_details: promptDetails,
		completion_tokens_details: {
			reasoning_tokens: usage.reasoningTokens ?? 0,
			audio_tokens: 0,
			accepted_prediction_tokens: 0,
			rejected_prediction_tokens: 0,
		},
	};
}
