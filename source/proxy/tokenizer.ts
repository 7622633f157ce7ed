/**
 * Token counting where the channel's provider has no counting endpoint (OpenAI-compatible
 * channels): OpenAI's o200k_base BPE over the request's text, plus the documented per-message
 * overhead. An estimate for non-OpenAI models behind OpenAI-compatible APIs, but a real tokenizer.
 * Loaded on first use (its tables take time and memory), once per gateway: the o200k_base ranks
 * (about 2 MB of text) are required then, from js-tiktoken's own file — never at start, and left
 * out of the build's bundle.
 * @see https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken
 */
import {createRequire} from 'node:module';
import {Tiktoken, type TiktokenBPE} from 'js-tiktoken/lite';
import type {IRRequest} from '../base/ir.js';

/** Images count as a fixed 85 tokens each (OpenAI's "low detail" price), as no pixels are decoded here. */
const imageTokens = 85;
const load = createRequire(import.meta.url);
const ranksModule = 'js-tiktoken/ranks/o200k_base';
const perMessage = 3;

/**
 * The CPU budget of one count: this many characters are tokenized exactly; past it each character
 * counts as its UTF-8 bytes — an upper bound, since no BPE token is shorter than a byte — so a huge
 * request never holds the event loop for more than a few tens of milliseconds.
 */
export const exactBudgetChars = 128 * 1024;
/**
 * BPE work grows with the square of a run without spaces (10,000 × "a" took seconds): such runs are
 * counted in slices, and only this many of their characters exactly (3–4 µs each even sliced); the
 * rest of them count as their UTF-8 bytes.
 */
/** What `estimate` tokenizes exactly (a few milliseconds), the rest extrapolated. */
const estimateBudgetChars = 32 * 1024;
const sliceChars = 16;
const runBudgetChars = 8 * 1024;
const longRun = new RegExp(`\\S{${sliceChars + 1},}`, 'gu');
const sliceOf = new RegExp(`\\S{${sliceChars}}(?=\\S)`, 'gu');

export class Tokenizer {
	private encoding: Tiktoken | undefined;

	/** Tokens of plain texts (embedding inputs): no message overhead. */
	countTexts(texts: readonly string[]): number {
		const count = this.counter();
		return texts.reduce((sum, text) => sum + count(text), 0);
	}

	/** A counting function with a fresh budget (one per request). */
	private counter(): (text: string) => number {
		const budget = {chars: exactBudgetChars, runChars: runBudgetChars};
		return text => {
			if (budget.chars <= 0) return Buffer.byteLength(text);
			const exact = text.length <= budget.chars ? text : text.slice(0, budget.chars);
			budget.chars -= exact.length;
			return this.exact(exact, budget) + (exact.length < text.length ? Buffer.byteLength(text.slice(exact.length)) : 0);
		};
	}

	/**
	 * Exact BPE, except for runs without whitespace longer than a slice: while their budget lasts,
	 * a space is put after every slice (the tokenizer then splits them there, a slight overestimate;
	 * one encode call, as each call has a fixed cost), and past it their bytes are counted.
	 */
	private exact(text: string, budget: {runChars: number}): number {
		this.encoding ??= new Tiktoken(load(ranksModule) as TiktokenBPE);
		let beyond = 0;
		const spaced = text.replace(longRun, run => {
			const sliced = Math.min(run.length, Math.max(0, budget.runChars));
			budget.runChars -= sliced;
			beyond += Buffer.byteLength(run.slice(sliced));
			return run.slice(0, sliced).replace(sliceOf, '$& ');
		});
		// No special tokens: a prompt that mentions `<|endoftext|>` is text, as a provider reads it (the default, "all
		// disallowed", throws on it; that failed count_tokens and translated streams to Anthropic clients).
		return (spaced ? this.encoding.encode(spaced, [], []).length : 0) + beyond;
	}

	/** The tokens of a request as `count_tokens` reports them: exact within the budget, an upper bound past it. */
	count(request: IRRequest): number {
		return walk(request, this.counter());
	}

	/**
	 * The prompt's size for an answer that must state it before the provider does (Anthropic's
	 * `message_start`, which Claude Code sizes its context from). On the request path, so cheaper than
	 * `count`: the first characters are tokenized exactly and the rest is extrapolated at their
	 * characters-per-token ratio — an upper bound would make a long conversation look full.
	 */
	estimate(request: IRRequest): number {
		const budget = {chars: estimateBudgetChars, runChars: runBudgetChars};
		const seen = {chars: 0, tokens: 0, beyond: 0};
		const total = walk(request, text => {
			if (budget.chars <= 0) {
				seen.beyond += text.length;
				return 0;
			}
			const exact = text.length <= budget.chars ? text : text.slice(0, budget.chars);
			budget.chars -= exact.length;
			seen.beyond += text.length - exact.length;
			const tokens = this.exact(exact, budget);
			seen.chars += exact.length;
			seen.tokens += tokens;
			return tokens;
		});
		const perChar = seen.chars > 0 && seen.tokens > 0 ? seen.tokens / seen.chars : 1 / 4;
		return total + Math.ceil(seen.beyond * perChar);
	}
}

/** A request's tokens with one counting function: text, images, calls, results, tool declarations, per-message overhead. */
function walk(request: IRRequest, count: (text: string) => number): number {
	let total = 3;
	for (const block of request.system) total += perMessage + count(block.text);
	for (const message of request.messages) {
		total += perMessage;
		for (const part of message.parts) {
			switch (part.type) {
				case 'text':
				case 'reasoning':
					total += count(part.text);
					break;
				case 'image':
					total += imageTokens;
					break;
				case 'tool_call':
					total += count(part.name) + count(part.arguments);
					break;
				case 'tool_result':
					for (const item of part.content) total += item.type === 'text' ? count(item.text) : imageTokens;
					break;
			}
		}
	}
	for (const tool of request.tools) total += count(JSON.stringify({name: tool.name, description: tool.description, parameters: tool.parameters}));
	return total;
}
