import type {IRUsage, JsonObject} from '../../base/ir.js';
import {asNumber, asObject, jsonNumber, type WireObject} from '../wire.js';

/**
 * OpenAI `usage` → IR. OpenAI's conventions already match the IR: `prompt_tokens` includes
 * `prompt_tokens_details.cached_tokens` (and `cache_write_tokens`), `completion_tokens` includes
 * `completion_tokens_details.reasoning_tokens`. DeepSeek reports cache hits as `prompt_cache_hit_tokens`
 * instead (also included in `prompt_tokens`).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 * xAI counts reasoning outside `completion_tokens` (its `total_tokens` is prompt + completion +
 * reasoning): when the numbers say so, reasoning is added, so the IR's output includes it as everywhere else.
 * @see https://api-docs.deepseek.com/api/create-chat-completion
 * @see https://docs.x.ai/docs/key-information/consumption-and-rate-limits
 */
export function decodeOpenaiUsage(usage: WireObject | undefined): IRUsage {
	if (!usage) return {inputTokens: 0, outputTokens: 0};
	const promptDetails = asObject(usage.prompt_tokens_details);
	const completionDetails = asObject(usage.completion_tokens_details);
	const cached = (promptDetails && asNumber(promptDetails.cached_tokens)) ?? asNumber(usage.prompt_cache_hit_tokens);
	const cacheWrite = promptDetails && asNumber(promptDetails.cache_write_tokens);
	const reasoning = (completionDetails && asNumber(completionDetails.reasoning_tokens)) ?? asNumber(usage.reasoning_tokens);
	const prompt = asNumber(usage.prompt_tokens) ?? 0;
	const completion = asNumber(usage.completion_tokens) ?? 0;
	return {
		inputTokens: prompt,
		outputTokens: completion + (reasoningExcluded(prompt, completion, reasoning, asNumber(usage.total_tokens)) ? reasoning ?? 0 : 0),
		...(cached ? {cachedTokens: cached} : {}),
		...(cacheWrite ? {cacheCreationTokens: cacheWrite} : {}),
		...(reasoning ? {reasoningTokens: reasoning} : {}),
	};
}

/** OpenAI's `completion_tokens` includes reasoning; xAI's does not, which its total or a reasoning count above the completion gives away. */
function reasoningExcluded(prompt: number, completion: number, reasoning: number | undefined, total: number | undefined): boolean {
	if (!reasoning) return false;
	return reasoning > completion || total === prompt + completion + reasoning;
}

/**
 * IR → OpenAI `usage`, in the shape the real API sends (details objects always present).
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
/** `JSON.stringify(encodeOpenaiUsage(usage))`, the same text, for the whole answers written as text (response.ts). */
export function encodeOpenaiUsageText(usage: IRUsage): string {
	const cacheWrite = usage.cacheCreationTokens ? `,"cache_write_tokens":${jsonNumber(usage.cacheCreationTokens)}` : '';
	return `{"prompt_tokens":${jsonNumber(usage.inputTokens)},"completion_tokens":${jsonNumber(usage.outputTokens)},"total_tokens":${jsonNumber(usage.inputTokens + usage.outputTokens)},"prompt_tokens_details":{"cached_tokens":${jsonNumber(usage.cachedTokens ?? 0)},"audio_tokens":0${cacheWrite}},"completion_tokens_details":{"reasoning_tokens":${jsonNumber(usage.reasoningTokens ?? 0)},"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}`;
}

export function encodeOpenaiUsage(usage: IRUsage): JsonObject {
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
