/**
 * Ids Gemini leaves out. `functionCall.id` is optional on the Gemini API, but every other format
 * needs one to pair a tool call with its result, so the decoders make one up.
 */
import {createHash} from 'node:crypto';
import {randomHex} from '../../base/random-ids.js';

export function generateToolCallId(): string {
	return `call_${randomHex(24)}`;
}

/**
 * An id for a call in the client's history that has none: derived from where it sits and what it
 * says, so the same history gets the same ids on every turn and a provider's prompt cache still
 * matches the prefix (a random id would change the prompt each time).
 */
export function historyToolCallId(seed: string): string {
	return `call_${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
}

export function generateResponseId(): string {
	return `gemini-${randomHex(24)}`;
}
