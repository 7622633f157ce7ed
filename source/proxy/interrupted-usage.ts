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
import type {Attempt} from './attempt.js';
import {charsPerToken} from './tokenizer.js';

/**
 * `reported` with what is missing estimated: the prompt when the provider gave no input count, the
 * output when the text relayed comes to more tokens than it reported. `request` is asked for only
 * when the prompt must be estimated.
 */
export function interruptedUsage(attempt: Attempt, reported: IRUsage | null, generatedChars: number, request: () => IRRequest | null): IRUsage | null {
	const output = Math.ceil(generatedChars / charsPerToken);
	const needsInput = !reported || reported.inputTokens === 0;
	const needsOutput = output > (reported?.outputTokens ?? 0);
	if (!needsInput && !needsOutput) return reported;
	let inputTokens = reported?.inputTokens ?? 0;
	if (needsInput) {
		const ir = request();
		try {
			if (ir) inputTokens = attempt.services.tokenizer.approximate(ir);
		} catch (error) {
			attempt.ctx.warn(`the prompt's tokens could not be estimated (${(error as Error).message})`);
		}
	}
	const inputEstimated = inputTokens !== (reported?.inputTokens ?? 0);
	if (!inputEstimated && !needsOutput) return reported;
	const usage = {...reported, inputTokens, outputTokens: needsOutput ? output : (reported?.outputTokens ?? 0), estimated: true} as const;
	// Where one count is the provider's (an Anthropic stream's prompt; no text relayed yet), say which is ours.
	if (inputEstimated && needsOutput) return usage;
	return {...usage, estimatedOnly: inputEstimated ? 'input' : 'output'};
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
