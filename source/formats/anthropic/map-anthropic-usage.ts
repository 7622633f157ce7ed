/**
 * Usage ↔ IR. Anthropic's `input_tokens` EXCLUDES cache reads and cache writes, the IR's
 * `inputTokens` includes them; `output_tokens` already includes thinking tokens.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance
 */
import type {IRUsage} from '../../base/ir.js';
import {isWireObject, asNumber, jsonNumber} from '../wire.js';
import type {AnthropicUsage} from './schema.js';

/** Usage as far as known: stream `message_start` has no final output count, `message_delta` may omit the input fields. */
export function decodeAnthropicUsagePartial(usage: unknown): Partial<IRUsage> {
	if (!isWireObject(usage)) return {};
	const input = asNumber(usage.input_tokens);
	const cached = asNumber(usage.cache_read_input_tokens);
	const created = asNumber(usage.cache_creation_input_tokens);
	const output = asNumber(usage.output_tokens);
	const reasoning = isWireObject(usage.output_tokens_details) ? asNumber(usage.output_tokens_details.thinking_tokens) : undefined;
	const out: {-readonly [K in keyof IRUsage]?: IRUsage[K]} = {};
	if (input !== undefined || cached !== undefined || created !== undefined) out.inputTokens = (input ?? 0) + (cached ?? 0) + (created ?? 0);
	if (output !== undefined) out.outputTokens = output;
	if (cached) out.cachedTokens = cached;
	if (created) out.cacheCreationTokens = created;
	if (reasoning) out.reasoningTokens = reasoning;
	return out;
}

export function decodeAnthropicUsage(usage: unknown): IRUsage {
	return completeUsage(decodeAnthropicUsagePartial(usage));
}

export function completeUsage(usage: Partial<IRUsage>): IRUsage {
	return {...usage, inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0};
}

/** `JSON.stringify(encodeAnthropicUsage(usage))`, the same text, for the whole answers written as text (response.ts). */
export function encodeAnthropicUsageText(usage: Partial<IRUsage>): string {
	const cached = usage.cachedTokens ?? 0;
	const created = usage.cacheCreationTokens ?? 0;
	const thinking = usage.reasoningTokens ? `,"output_tokens_details":{"thinking_tokens":${jsonNumber(usage.reasoningTokens)}}` : '';
	return `{"input_tokens":${jsonNumber(Math.max(0, (usage.inputTokens ?? 0) - cached - created))},"cache_creation_input_tokens":${jsonNumber(created)},"cache_read_input_tokens":${jsonNumber(cached)},"output_tokens":${jsonNumber(usage.outputTokens ?? 0)}${thinking}}`;
}

export function encodeAnthropicUsage(usage: Partial<IRUsage>): AnthropicUsage {
	const cached = usage.cachedTokens ?? 0;
	const created = usage.cacheCreationTokens ?? 0;
	return {
		input_tokens: Math.max(0, (usage.inputTokens ?? 0) - cached - created),
		cache_creation_input_tokens: created,
		cache_read_input_tokens: cached,
		output_tokens: usage.outputTokens ?? 0,
		...(usage.reasoningTokens ? {output_tokens_details: {thinking_tokens: usage.reasoningTokens}} : {}),
	};
}
