import {invalidRequest} from '../../errors.js';
import type {TranslationContext} from '../adapter.js';
import type {IRReasoningConfig} from '../ir.js';
import {isObject} from './schema.js';

/**
 * Responses `reasoning.effort` → IR. `none` turns reasoning off (gpt-5.1+); `xhigh` has no IR level
 * and becomes `high`, with a warning. `reasoning.summary` has no equivalent: translated reasoning is
 * always shown as a summary.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-reasoning
 */
export function decodeResponsesReasoning(reasoning: unknown, ctx: TranslationContext): IRReasoningConfig | undefined {
	if (reasoning === undefined || reasoning === null) return undefined;
	if (!isObject(reasoning)) throw invalidRequest('`reasoning` must be an object such as {"effort": "medium"}.', 'reasoning');
	const effort = reasoning.effort;
	switch (effort) {
		case undefined:
		case null:
			return undefined;
		case 'none':
			return {enabled: false};
		case 'minimal':
		case 'low':
		case 'medium':
		case 'high':
			return {enabled: true, effort};
		case 'xhigh':
			ctx.warn('reasoning.effort "xhigh" has no equivalent on other providers; sent as "high".');
			return {enabled: true, effort: 'high'};
		default:
			throw invalidRequest('`reasoning.effort` must be one of "none", "minimal", "low", "medium", "high", "xhigh".', 'reasoning.effort');
	}
}
