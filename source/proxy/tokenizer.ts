/**
 * Token counting where the channel's provider has no counting endpoint (OpenAI-compatible
 * channels): OpenAI's o200k_base BPE over the request's text, plus the documented per-message
 * overhead. An estimate for non-OpenAI models behind OpenAI-compatible APIs, but a real tokenizer.
 * Loaded on first use (its tables take ~90 ms and ~12 MB, bpe.ts), once per gateway: the
 * o200k_base ranks (about 2 MB of text) are required then, from js-tiktoken's own file — never at
 * start, and left out of the build's bundle.
 * @see https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken
 */
import {createRequire} from 'node:module';
import type {IRRequest} from '../base/ir.js';
import {BytePairCounter, type BpeRanks} from './bpe.js';

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

/**
 * Texts counted before are remembered by their content, up to this many characters in all (the
 * least recently used go first): a client sends its whole conversation again every turn, so each
 * count tokenized the same first characters again (5 ms of a Claude Code turn on a chat-completions
 * channel, before its first byte). A remembered count is the one the text would get now — the same
 * budgets are spent — so results never depend on what was remembered. Texts shorter than
 * `rememberedMinChars` are counted again, as cheaply as they would be looked up.
 */
export const rememberedChars = 4 * 1024 * 1024;
const rememberedMinChars = 256;

type Budget = {chars: number; runChars: number};
/**
 * A whole text's counts: with its runs without spaces counted in full (`tokens`, spending `runChars`
 * of that budget), and with that budget already spent (`starved`), the two cases a count can meet it in.
 */
type Counted = {tokens?: number; runChars: number; starved?: number};

/** Characters a token where text is not tokenized (OpenAI's rule of thumb for English; code runs a little shorter). */
export const charsPerToken = 4;

export class Tokenizer {
	private encoding: BytePairCounter | undefined;
	/** Counts of whole texts, least recently used first (a Map keeps insertion order). */
	private readonly remembered = new Map<string, Counted>();
	private rememberedSize = 0;

	constructor(private readonly rememberChars = rememberedChars) {}

	/** Characters of the texts whose counts are remembered now (never more than the limit). */
	get rememberedCharacters(): number {
		return this.rememberedSize;
	}

	/** Tokens of plain texts (embedding inputs): no message overhead. */
	countTexts(texts: readonly string[]): number {
		const count = this.counter();
		return texts.reduce((sum, text) => sum + count(text), 0);
	}

	/** A counting function with a fresh budget (one per request). */
	private counter(): (text: string) => number {
		const budget: Budget = {chars: exactBudgetChars, runChars: runBudgetChars};
		return text => {
			if (budget.chars <= 0) return Buffer.byteLength(text);
			if (text.length <= budget.chars) {
				budget.chars -= text.length;
				return this.whole(text, budget);
			}
			const exact = text.slice(0, budget.chars);
			budget.chars = 0;
			return this.exact(exact, budget) + Buffer.byteLength(text.slice(exact.length));
		};
	}

	/**
	 * A whole text's exact count (its characters already taken from the budget). Remembered when the
	 * text was counted before in the same case — the run budget left covers its runs, or none is left —
	 * else counted, and remembered for that case (a run cut short in the middle is counted each time).
	 */
	private whole(text: string, budget: Budget): number {
		if (text.length < rememberedMinChars) return this.exact(text, budget);
		const known = this.remembered.get(text);
		if (known) {
			this.remembered.delete(text);
			this.remembered.set(text, known);
			if (known.tokens !== undefined && known.runChars < budget.runChars) {
				budget.runChars -= known.runChars;
				return known.tokens;
			}
			if (known.starved !== undefined && budget.runChars <= 0) return known.starved;
		}
		const before = budget.runChars;
		const tokens = this.exact(text, budget);
		if (before <= 0) this.remember(text, known, {runChars: known?.runChars ?? 0, tokens: known?.tokens, starved: tokens});
		else if (budget.runChars > 0) this.remember(text, known, {runChars: before - budget.runChars, tokens, starved: known?.starved});
		return tokens;
	}

	private remember(text: string, known: Counted | undefined, counted: Counted): void {
		if (text.length > this.rememberChars) return;
		this.remembered.set(text, counted);
		if (known) return;
		this.rememberedSize += text.length;
		for (const [old] of this.remembered) {
			if (this.rememberedSize <= this.rememberChars) break;
			this.remembered.delete(old);
			this.rememberedSize -= old.length;
		}
	}

	/**
	 * Exact BPE, except for runs without whitespace longer than a slice: while their budget lasts,
	 * a space is put after every slice (the tokenizer then splits them there, a slight overestimate;
	 * one encode call, as each call has a fixed cost), and past it their bytes are counted.
	 */
	private exact(text: string, budget: Pick<Budget, 'runChars'>): number {
		this.encoding ??= new BytePairCounter(load(ranksModule) as BpeRanks);
		let beyond = 0;
		const spaced = text.replace(longRun, run => {
			const sliced = Math.min(run.length, Math.max(0, budget.runChars));
			budget.runChars -= sliced;
			beyond += Buffer.byteLength(run.slice(sliced));
			return run.slice(0, sliced).replace(sliceOf, '$& ');
		});
		// No special tokens: a prompt that mentions `<|endoftext|>` is text, as a provider reads it (js-tiktoken's
		// default, "all disallowed", threw on it; that failed count_tokens and translated streams to Anthropic clients).
		return (spaced ? this.encoding.count(spaced) : 0) + beyond;
	}

	/** The tokens of a request as `count_tokens` reports them: exact within the budget, an upper bound past it. */
	count(request: IRRequest): number {
		return walk(request, this.counter());
	}

	/** Whether the BPE tables are loaded (on first use, and then they stay: reading them grew `serve`'s RSS by ~30 MB and paused it ~0.1 s). */
	get loaded(): boolean {
		return this.encoding !== undefined;
	}

	/**
	 * A request's tokens for a record the provider left without them (a stream that ended early):
	 * `estimate` where the tables are loaded already, else the texts at `charsPerToken` with the
	 * same per-message overhead, images and tool declarations — a record is not worth the tables'
	 * memory and the pause of reading them.
	 */
	approximate(request: IRRequest): number {
		if (this.loaded) return this.estimate(request);
		return walk(request, text => Math.ceil(text.length / charsPerToken));
	}

	/**
	 * The prompt's size for an answer that must state it before the provider does (Anthropic's
	 * `message_start`, which Claude Code sizes its context from). On the request path, so cheaper than
	 * `count`: the first characters are tokenized exactly and the rest is extrapolated at their
	 * characters-per-token ratio — an upper bound would make a long conversation look full.
	 */
	estimate(request: IRRequest): number {
		const budget: Budget = {chars: estimateBudgetChars, runChars: runBudgetChars};
		const seen = {chars: 0, tokens: 0, beyond: 0};
		const total = walk(request, text => {
			if (budget.chars <= 0) {
				seen.beyond += text.length;
				return 0;
			}
			const whole = text.length <= budget.chars;
			const exact = whole ? text : text.slice(0, budget.chars);
			budget.chars -= exact.length;
			seen.beyond += text.length - exact.length;
			const tokens = whole ? this.whole(text, budget) : this.exact(exact, budget);
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
