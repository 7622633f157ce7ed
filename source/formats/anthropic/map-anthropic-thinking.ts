/**
 * Extended thinking config, both ways, and the sampling limits it imposes.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 * @see https://docs.anthropic.com/en/docs/build-with-claude/effort
 */
import type {TranslationContext} from '../adapter.js';
import type {IRReasoningConfig, IRReasoningEffort} from '../../base/ir.js';
import {invalidRequest} from '../../base/errors.js';
import {type AnthropicThinking, requireObject, optionalNumber} from './schema.js';

/** The API rejects budgets below 1,024 tokens. */
export const minThinkingBudget = 1024;

/**
 * Effort → `budget_tokens` when the client asked for an effort level but the target needs a budget.
 * Our choice (Anthropic publishes no table): roughly doubling steps from the API minimum.
 */
export const thinkingBudgetForEffort: Readonly<Record<IRReasoningEffort, number>> = {minimal: 1024, low: 2048, medium: 8192, high: 16_384};

export function decodeAnthropicThinking(thinking: unknown, outputConfig: unknown): IRReasoningConfig | undefined {
	if (thinking === undefined || thinking === null) return undefined;
	const config = requireObject(thinking, 'thinking');
	const effort = decodeEffort(outputConfig);
	const withEffort = effort ? {effort} : {};
	switch (config.type) {
		case 'enabled': {
			const budgetTokens = optionalNumber(config.budget_tokens, 'thinking.budget_tokens', {integer: true, min: 1});
			if (budgetTokens === undefined) throw invalidRequest('thinking.budget_tokens: Field required when thinking.type is "enabled".', 'thinking.budget_tokens');
			return {enabled: true, budgetTokens, ...withEffort};
		}
		case 'adaptive':
			return {enabled: true, ...withEffort};
		case 'disabled':
			return {enabled: false};
		default:
			throw invalidRequest(`thinking.type: expected "enabled", "adaptive" or "disabled", got ${JSON.stringify(config.type)}.`, 'thinking.type');
	}
}

/** `output_config.effort` has two levels beyond high (`xhigh`, `max`); the neutral scale stops at high. */
function decodeEffort(outputConfig: unknown): IRReasoningEffort | undefined {
	if (typeof outputConfig !== 'object' || outputConfig === null || !('effort' in outputConfig)) return undefined;
	switch (outputConfig.effort) {
		case 'low':
		case 'medium':
		case 'high':
			return outputConfig.effort;
		case 'xhigh':
		case 'max':
			return 'high';
		default:
			return undefined;
	}
}

/**
 * IR reasoning → `thinking`. Manual budgets (`type: "enabled"`) work on every thinking model;
 * `adaptive` is newer and refused by older models, so we always send a budget.
 * `budget_tokens` must be below `max_tokens`: when it is not, the client's limit is kept for the answer
 * and the budget is added on top.
 */
export function encodeAnthropicThinking(reasoning: IRReasoningConfig | undefined, maxTokens: number): {thinking?: AnthropicThinking; maxTokens: number} {
	if (!reasoning) return {maxTokens};
	if (!reasoning.enabled) return {thinking: {type: 'disabled'}, maxTokens};
	const requested = reasoning.budgetTokens ?? thinkingBudgetForEffort[reasoning.effort ?? 'medium'];
	const budget = Math.max(minThinkingBudget, Math.round(requested));
	return {thinking: {type: 'enabled', budget_tokens: budget}, maxTokens: maxTokens > budget ? maxTokens : budget + maxTokens};
}

type Sampling = {temperature?: number; topP?: number; topK?: number};

/**
 * With thinking on, the API refuses `temperature` other than 1 and any `top_k`, and accepts `top_p`
 * only from 0.95 to 1.
 */
export function samplingForThinking(sampling: Sampling, ctx: TranslationContext): Sampling {
	const out: Sampling = {};
	if (sampling.temperature === 1) out.temperature = 1;
	else if (sampling.temperature !== undefined) ctx.warn(`temperature ${sampling.temperature} was dropped: Anthropic allows only 1 with thinking enabled.`);
	if (sampling.topK !== undefined) ctx.warn(`top_k ${sampling.topK} was dropped: Anthropic does not allow it with thinking enabled.`);
	if (sampling.topP !== undefined) {
		if (sampling.topP >= 0.95) out.topP = sampling.topP;
		else ctx.warn(`top_p ${sampling.topP} was dropped: Anthropic allows only 0.95 to 1 with thinking enabled.`);
	}
	return out;
}
