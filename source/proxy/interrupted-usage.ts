/**
 * The usage of a stream that ended before the provider reported it all: the client hung up (Claude
 * Code's Esc, a script's time-out), the provider's connection broke or the stream was cut off. The
 * provider bills what it generated until then, but most formats report usage only at the end — an
 * OpenAI stream in its last chunk, a Responses API stream in `response.completed`, an Anthropic
 * stream its output in the last `message_delta` — so the record would say nothing, or one output
 * token, and token limits and budgets would not see what the stream cost.
 *
 * What the provider did report is kept; what it did not is estimated, and the usage is marked
 * `estimated`: the prompt with the gateway's tokenizer where its tables are loaded (as for
 * `count_tokens` on OpenAI channels), else from its texts at about four characters a token — never
 * loading them for this (Tokenizer.approximate) — and the output from the characters of text,
 * reasoning and tool arguments relayed so far at four characters a token (what the stream readers
 * count without decoding the deltas).
 */
import type {IRRequest, IRUsage} from '../base/ir.js';
import type {StreamEnding} from '../formats/stream-reader.js';
import type {Attempt} from './attempt.js';
import {charsPerToken} from './tokenizer.js';

/**
 * Whether a stream that reached the client ended before the provider said all it bills, passed
 * through or translated alike: it was `stopped` (the client left, the provider's body failed) or
 * ran out before its terminal event, or its provider's error came after it had generated something.
 * (An error before any text is the provider refusing: nothing generated to count.)
 */
export function endedEarly(ending: StreamEnding, stopped: boolean, generatedChars: number): boolean {
	switch (ending) {
		case 'complete':
			return false;
		case 'cut-off':
			return true;
		case 'upstream-error':
			return stopped || generatedChars > 0;
	}
}

/**
 * `reported` with what is missing estimated: the prompt when the provider gave no input count, the
 * output when the text relayed comes to more tokens than it reported. `request` is asked for only
 * when the prompt must be estimated.
 */
export function interruptedUsage(attempt: Attempt, reported: IRUsage | null, generatedChars: number, request: () => IRRequest | null): IRUsage | null {
	const input = !reported || reported.inputTokens === 0 ? promptEstimate(attempt, request()) : null;
	const relayed = Math.ceil(generatedChars / charsPerToken);
	const output = relayed > (reported?.outputTokens ?? 0) ? relayed : null;
	if (input === null && output === null) return reported;
	const usage = {...reported, inputTokens: input ?? reported?.inputTokens ?? 0, outputTokens: output ?? reported?.outputTokens ?? 0, estimated: true} as const;
	// Where one count is the provider's (an Anthropic stream's prompt; no text relayed yet), say which is ours.
	if (input !== null && output !== null) return usage;
	return {...usage, estimatedOnly: input !== null ? 'input' : 'output'};
}

/** The prompt's tokens, or null when there is nothing to count (a body its format cannot decode) or counting failed (said in a warning). */
function promptEstimate(attempt: Attempt, request: IRRequest | null): number | null {
	if (!request) return null;
	try {
		return attempt.services.tokenizer.approximate(request);
	} catch (error) {
		attempt.ctx.warn(`the prompt's tokens could not be estimated (${(error as Error).message})`);
		return null;
	}
}

/**
 * The request as IR, for the prompt's estimate of a passed-through stream (which never decoded it):
 * decoded with a context that records no warnings — they would be the translation's, and nothing is
 * translated — or null when the body is one the client's format cannot decode (nothing to count).
 */
export function decodedRequest(attempt: Attempt): IRRequest | null {
	const {inbound, call, ctx} = attempt;
	try {
		return inbound.decodeRequest(attempt.body, {model: call.model, stream: call.stream}, {...ctx, warn: ignore});
	} catch {
		return null;
	}
}

const ignore = (): void => {};
