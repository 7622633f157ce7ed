/**
 * Responses errors have OpenAI's error body, `{"error":{"message","type","param","code"}}`, on the
 * same platform; what differs is the `code` Codex acts on (see map-responses-error-code.ts).
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import type {IRError, JsonObject} from '../../base/ir.js';
import {decodeOpenaiError, renderOpenAIError} from '../openai/errors.js';
import {responsesErrorCode} from './map-responses-error-code.js';

const actionable: ReadonlySet<string | undefined> = new Set(['context_length_exceeded', 'insufficient_quota', 'rate_limit_exceeded']);

/** A gateway or upstream error as a Responses client reads it: OpenAI's shape, with the code Codex needs to stop or wait. */
export function renderResponsesError(error: IRError): {status: number; body: JsonObject} {
	const code = responsesErrorCode(error);
	const override = actionable.has(code) && (code === 'context_length_exceeded' || !error.code);
	return renderOpenAIError(override ? {...error, code} : error);
}

/** An upstream Responses error answer (a Responses-native OpenAI channel) → IR error. */
export function decodeResponsesError(status: number, body: unknown): IRError {
	return decodeOpenaiError(status, body);
}
