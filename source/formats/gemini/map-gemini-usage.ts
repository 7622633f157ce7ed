/**
 * Gemini `usageMetadata` ↔ IR usage.
 *
 * `promptTokenCount` already includes `cachedContentTokenCount`; `candidatesTokenCount` excludes
 * `thoughtsTokenCount`; `toolUsePromptTokenCount` (results of built-in tools such as Google Search)
 * is input billed on top of the prompt: totalTokenCount = prompt + toolUsePrompt + candidates + thoughts.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
import type {IRUsage, JsonObject} from '../../base/ir.js';
import {compact, isWireObject} from '../wire.js';
import {pickNumber} from './schema.js';

export function decodeGeminiUsage(metadata: unknown): IRUsage {
	if (!isWireObject(metadata)) return {inputTokens: 0, outputTokens: 0};
	const prompt = pickNumber(metadata, 'promptTokenCount') ?? 0;
	const toolUsePrompt = pickNumber(metadata, 'toolUsePromptTokenCount') ?? 0;
	const candidates = pickNumber(metadata, 'candidatesTokenCount') ?? 0;
	const thoughts = pickNumber(metadata, 'thoughtsTokenCount');
	const cached = pickNumber(metadata, 'cachedContentTokenCount');
	return {
		inputTokens: prompt + toolUsePrompt,
		outputTokens: candidates + (thoughts ?? 0),
		...(cached === undefined ? {} : {cachedTokens: cached}),
		...(thoughts === undefined ? {} : {reasoningTokens: thoughts}),
	};
}

/** The three counts always add up to the total, even for usage whose reasoning exceeds its output (then the output is taken as all reasoning). */
export function encodeGeminiUsage(usage: IRUsage): JsonObject {
	const thoughts = Math.min(usage.reasoningTokens ?? 0, usage.outputTokens);
	const candidates = usage.outputTokens - thoughts;
	return compact({
		promptTokenCount: usage.inputTokens,
		candidatesTokenCount: candidates,
		totalTokenCount: usage.inputTokens + candidates + thoughts,
		cachedContentTokenCount: usage.cachedTokens || undefined,
		thoughtsTokenCount: thoughts || undefined,
	});
}
