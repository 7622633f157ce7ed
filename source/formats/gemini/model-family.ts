/**
 * Behaviour that differs between Gemini generations, keyed on the upstream model name.
 * @see https://ai.google.dev/gemini-api/docs/gemini-3
 */

/** The model id without the `models/` resource prefix some clients send. */
export const bareName = (model: string): string => model.replace(/^models\//, '');

/** Gemini 3 and later: thinkingLevel, strict thought-signature validation, multimodal function responses. */
export function isGemini3(model: string): boolean {
	return /^gemini-3(?:[.-]|$)/.test(bareName(model));
}

/** Gemini 3 Pro models reject thinkingLevel MINIMAL ("Thinking level MINIMAL is not supported for this model"). */
export function isGemini3Pro(model: string): boolean {
	return /^gemini-3(?:\.\d+)?-pro/.test(bareName(model));
}

/** Models known to predate Gemini 3. Anything else (aliases such as `gemini-flash-latest`) is treated as current. */
export function isLegacyGemini(model: string): boolean {
	return /^gemini-(?:1|2)(?:[.-]|$)/.test(bareName(model));
}

/** Gemini 2.5 Pro cannot turn thinking off: its smallest thinkingBudget is 128. */
export function isGemini25Pro(model: string): boolean {
	return /^gemini-2\.5-pro/.test(bareName(model));
}
