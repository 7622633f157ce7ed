/**
 * Reasoning signatures travel through clients of other formats and must come back to the provider
 * that made them, unchanged. Two carriers:
 *
 * - where the client's format has a signature slot (Anthropic thinking `signature`, Gemini
 *   `thoughtSignature`), a foreign signature is wrapped as `gtui1.<format>.<value>` so the decoder
 *   knows its origin when the client echoes it back; an unwrapped value belongs to the slot's own format;
 * - where it has none (OpenAI chat tool calls), the gateway's `SignatureMemory` (on the translation
 *   context), keyed by tool-call id: one per gateway, never a module-level map.
 */
import type {Format, IRSignature} from '../base/ir.js';
import type {SignatureMemory} from './adapter.js';

const prefix = 'gtui1.';

/** The value to put in a client-facing signature slot of `slotFormat`. */
export function wrapSignature(signature: IRSignature, slotFormat: Format): string {
	return signature.format === slotFormat ? signature.value : `${prefix}${signature.format}.${signature.value}`;
}

/** Read a signature a client sent back in a slot of `slotFormat`. */
export function unwrapSignature(value: string, slotFormat: Format): IRSignature {
	if (value.startsWith(prefix)) {
		const rest = value.slice(prefix.length);
		const dot = rest.indexOf('.');
		const format = rest.slice(0, dot);
		if (format === 'openai' || format === 'anthropic' || format === 'gemini') return {format, value: rest.slice(dot + 1)};
	}
	return {format: slotFormat, value};
}

const maxRemembered = 10_000;

/** For conversions that never see a tool call (token counting). */
export const forgetfulSignatures: SignatureMemory = {remember() {}, recall: () => undefined};

/** A bounded memory of tool-call signatures; one per gateway (the oldest entry goes first). */
export class BoundedSignatureMemory implements SignatureMemory {
	private readonly entries = new Map<string, IRSignature>();

	constructor(private readonly capacity = maxRemembered) {}

	remember(toolCallId: string, signature: IRSignature): void {
		this.entries.delete(toolCallId);
		this.entries.set(toolCallId, signature);
		if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
	}

	recall(toolCallId: string): IRSignature | undefined {
		return this.entries.get(toolCallId);
	}
}
