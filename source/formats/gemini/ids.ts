/**
 * Ids Gemini leaves out. `functionCall.id` is optional on the Gemini API, but every other format
 * needs one to pair a tool call with its result, so the decoders make one up.
 */
import {randomBytes} from 'node:crypto';

export function generateToolCallId(): string {
	return `call_${randomBytes(12).toString('hex')}`;
}

export function generateResponseId(): string {
	return `gemini-${randomBytes(12).toString('hex')}`;
}
