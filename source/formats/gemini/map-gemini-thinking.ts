/**
 * Gemini `generationConfig.thinkingConfig` ↔ IR reasoning config.
 *
 * Gemini 2.5 takes a token budget (`thinkingBudget`: 0 = off, -1 = dynamic); Gemini 3 takes a level
 * (`thinkingLevel`: MINIMAL | LOW | MEDIUM | HIGH) and accepts the budget only for backwards
 * compatibility. Sending both is a 400 ("You can only set only one of thinking budget and thinking
 * level"), so exactly one is sent. `includeThoughts: true` whenever reasoning is on, so thought
 * summaries come back and can be mapped to the client's reasoning slot.
 *
 * Effort → budget on 2.5 (our choice; Google documents no mapping): minimal 512, low 1024,
 * medium 8192, high 24576 (the largest budget Flash accepts).
 * Budget → level on Gemini 3: ≤ 4096 LOW, else HIGH.
 * @see https://ai.google.dev/gemini-api/docs/thinking#set-budget
 * @see https://ai.google.dev/gemini-api/docs/gemini-3#thinking_level
 */
import type {TranslationContext} from '../adapter.js';
import type {IRReasoningConfig, IRReasoningEffort, JsonObject} from '../../base/ir.js';
import {isGemini25Pro, isGemini3, isGemini3Pro} from './model-family.js';
import type {WireObject} from '../wire.js';
import {pick, pickNumber, pickString} from './schema.js';

const efforts: readonly IRReasoningEffort[] = ['minimal', 'low', 'medium', 'high'];
const budgetByEffort: Record<IRReasoningEffort, number> = {minimal: 512, low: 1024, medium: 8192, high: 24_576};

const isEffort = (value: string | undefined): value is IRReasoningEffort => efforts.includes(value as IRReasoningEffort);

export function decodeGeminiThinking(config: WireObject | undefined): IRReasoningConfig | undefined {
	if (!config) return undefined;
	const budget = pickNumber(config, 'thinkingBudget');
	const level = pickString(config, 'thinkingLevel')?.toLowerCase();
	if (budget === 0) return {enabled: false};
	const effort = isEffort(level) ? level : undefined;
	if (budget !== undefined && budget > 0) return {enabled: true, budgetTokens: budget};
	if (effort) return {enabled: true, effort};
	if (budget === -1 || pick(config, 'includeThoughts') === true) return {enabled: true};
	return undefined;
}

export function encodeGeminiThinking(reasoning: IRReasoningConfig | undefined, model: string, ctx: TranslationContext): JsonObject | undefined {
	if (!reasoning) return undefined;
	if (!reasoning.enabled) return disableThinking(model, ctx);
	if (isGemini3(model)) {
		const level = reasoning.effort ?? (reasoning.budgetTokens === undefined ? undefined : reasoning.budgetTokens <= 4096 ? 'low' : 'high');
		return level === undefined ? {includeThoughts: true} : {includeThoughts: true, thinkingLevel: supportedLevel(level, model)};
	}
	const budget = reasoning.budgetTokens ?? (reasoning.effort ? budgetByEffort[reasoning.effort] : -1);
	return {includeThoughts: true, thinkingBudget: budget};
}

/** Gemini 3 Pro rejects MINIMAL ("Thinking level MINIMAL is not supported for this model"), and 3.0 Pro knows only LOW and HIGH. */
function supportedLevel(effort: IRReasoningEffort, model: string): string {
	if (isGemini3Pro(model) && effort === 'minimal') return 'LOW';
	if (/^(?:models\/)?gemini-3-pro/.test(model) && effort === 'medium') return 'HIGH';
	return effort.toUpperCase();
}

function disableThinking(model: string, ctx: TranslationContext): JsonObject {
	if (isGemini3(model)) {
		const level = isGemini3Pro(model) ? 'LOW' : 'MINIMAL';
		ctx.warn(`Gemini 3 models cannot turn thinking off; sent thinkingLevel ${level}, the lowest ${model} accepts.`);
		return {thinkingLevel: level};
	}
	if (isGemini25Pro(model)) {
		ctx.warn(`${model} cannot turn thinking off; sent thinkingBudget 128, its minimum.`);
		return {thinkingBudget: 128};
	}
	return {thinkingBudget: 0};
}
