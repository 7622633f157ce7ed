/**
 * One IR assistant part → Gemini model-turn parts, with thought signatures.
 *
 * A `thoughtSignature` sits beside the part it belongs to (text, thought or functionCall). Only
 * signatures Gemini made can go back; others are dropped with a warning. Gemini 3 rejects a model
 * turn whose first functionCall has no signature ("Function call is missing a thought_signature"),
 * which happens for history that came from another provider: Google documents the placeholder
 * `skip_thought_signature_validator` for exactly that case.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRPart, type IRSignature, type JsonObject} from '../../base/ir.js';
import {encodeGeminiImage} from './encode-gemini-image.js';
import {decodeToolInput} from '../decode-tool-input.js';
import {compact, isWireObject} from '../wire.js';

export const skipSignatureValidator = 'skip_thought_signature_validator';

function geminiSignature(signature: IRSignature | undefined, what: string, ctx: TranslationContext): string | undefined {
	if (!signature) return undefined;
	if (signature.format === 'gemini') return signature.value;
	ctx.warn(`Dropped the ${signature.format} signature of a ${what}: it can only go back to ${signature.format}.`);
	return undefined;
}

export async function encodeGeminiModelPart(part: IRPart, ctx: TranslationContext): Promise<JsonObject[]> {
	switch (part.type) {
		case 'text': {
			const thoughtSignature = geminiSignature(part.signature, 'text part', ctx);
			return part.text === '' && !thoughtSignature ? [] : [compact({text: part.text, thoughtSignature})];
		}
		case 'reasoning': {
			if (part.signature?.format === 'gemini') return [{text: part.text, thought: true, thoughtSignature: part.signature.value}];
			// Foreign or unsigned reasoning would read to Gemini as its own thoughts; it is left out.
			const origin = part.signature ? `signed by ${part.signature.format}` : 'without a signature';
			if (part.text !== '' || part.redacted) ctx.warn(`Dropped reasoning ${origin}: Gemini can only replay its own signed thoughts.`);
			return [];
		}
		case 'tool_call': {
			const own = part.signature?.format === 'gemini' ? part.signature : undefined;
			const recalled = own ?? ctx.signatures.recall(part.id);
			const thoughtSignature = geminiSignature(recalled ?? part.signature, 'tool call', ctx);
			const functionCall = {id: part.id, name: part.name, args: decodeToolInput(part.arguments, part.id, ctx)};
			return [compact({functionCall, thoughtSignature})];
		}
		case 'image':
			return [await encodeGeminiImage(part.source, ctx)];
		case 'tool_result':
			ctx.warn('Dropped a tool result from a model turn: Gemini accepts function responses only in user turns.');
			return [];
		default:
			return assertNever(part, 'message part');
	}
}

/** The first functionCall of each model turn must be signed on Gemini 3; use Google's placeholder where no real signature exists. */
export function injectSkipSignatures(turns: ReadonlyArray<{readonly role: string; readonly parts: JsonObject[]}>, ctx: TranslationContext): void {
	const unsigned: string[] = [];
	for (const turn of turns) {
		if (turn.role !== 'model') continue;
		const first = turn.parts.find(part => part.functionCall !== undefined);
		if (!first || first.thoughtSignature !== undefined) continue;
		first.thoughtSignature = skipSignatureValidator;
		unsigned.push(isWireObject(first.functionCall) && typeof first.functionCall.name === 'string' ? first.functionCall.name : '?');
	}
	if (unsigned.length > 0) {
		ctx.warn(`Tool call(s) ${unsigned.join(', ')} had no Gemini thought signature; sent Google's "${skipSignatureValidator}" placeholder.`);
	}
}
