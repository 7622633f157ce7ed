import {invalidRequest} from '../../base/errors.js';
import type {IRReasoningConfig, IRReasoningEffort} from '../../base/ir.js';
import type {TranslationContext} from '../adapter.js';

/**
 * Client `reasoning_effort` (chat completions; the Responses API's `reasoning.effort` takes the same
 * values) → IR. `none` turns reasoning off (gpt-5.1+); `xhigh` and `max` have no IR level and become
 * `high`, with a warning. `param` names the field in messages.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort
 */
export function decodeOpenaiReasoningEffort(value: unknown, ctx: TranslationContext, param = 'reasoning_effort'): IRReasoningConfig | undefined {
	switch (value) {
		case undefined:
		case null:
			return undefined;
		case 'none':
			return {enabled: false};
		case 'minimal':
		case 'low':
		case 'medium':
		case 'high':
			return {enabled: true, effort: value};
		case 'xhigh':
		case 'max':
			ctx.warn(`${param} "${value}" has no equivalent on other providers; sent as "high".`);
			return {enabled: true, effort: 'high'};
		default:
			throw invalidRequest(`\`${param}\` must be one of "none", "minimal", "low", "medium", "high", "xhigh", "max".`, param);
	}
}

/*
 * Token budget → effort, for clients that give a budget (Anthropic `budget_tokens`, Gemini
 * `thinkingBudget`). Below 4,096 tokens is `low` (Anthropic's minimum budget is 1,024), up to 16,383
 * `medium`, from 16,384 `high`. Never `minimal`: o-series models reject it.
 */
const lowBelow = 4096;
const mediumBelow = 16_384;

export function budgetToEffort(budgetTokens: number): IRReasoningEffort {
	if (budgetTokens < lowBelow) return 'low';
	if (budgetTokens < mediumBelow) return 'medium';
	return 'high';
}

/**
 * IR reasoning → `reasoning_effort`, or undefined to leave the parameter out. "Off" is left out too:
 * `none` is only known to gpt-5.1 and later, and non-reasoning models (gpt-4o) reject the parameter
 * altogether. A budget of 0 is Gemini's "off", a negative one its "dynamic": both mean the default.
 * @see https://platform.openai.com/docs/guides/reasoning
 */
export function encodeOpenaiReasoningEffort(reasoning: IRReasoningConfig | undefined): IRReasoningEffort | undefined {
	if (!reasoning || !reasoning.enabled) return undefined;
	if (reasoning.effort) return reasoning.effort;
	if (reasoning.budgetTokens !== undefined && reasoning.budgetTokens > 0) return budgetToEffort(reasoning.budgetTokens);
	return undefined;
}
