import {invalidRequest} from '../../base/errors.js';
import type {TranslationContext} from '../adapter.js';
import type {IRReasoningConfig} from '../../base/ir.js';
import {decodeOpenaiReasoningEffort} from '../openai/map-openai-reasoning-effort.js';
import {isWireObject} from '../wire.js';

/**
 * Responses `reasoning.effort` → IR, with the same values as chat completions' `reasoning_effort`.
 * `reasoning.summary` has no equivalent: translated reasoning is always shown as a summary.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-reasoning
 */
export function decodeResponsesReasoning(reasoning: unknown, ctx: TranslationContext): IRReasoningConfig | undefined {
	if (reasoning === undefined || reasoning === null) return undefined;
	if (!isWireObject(reasoning)) throw invalidRequest('`reasoning` must be an object such as {"effort": "medium"}.', 'reasoning');
	return decodeOpenaiReasoningEffort(reasoning.effort, ctx, 'reasoning.effort');
}
