/**
 * A passed-through OpenAI chat completions stream, read for the log (see formats/stream-reader.ts):
 * usage from the `include_usage` chunk (or a first chunk that already counts the prompt), the
 * provider's error chunk, and the end — `[DONE]` or a `finish_reason`, as `decodeOpenaiStream` has it.
 */
import type {IRUsage} from '../../base/ir.js';
import type {SseMessage} from '../sse.js';
import {ReadingState, mergeUsage, stringChars, stringFields, type StreamReader, type StreamReading} from '../stream-reader.js';
import {asArray, asNumber, asObject, isWireObject, looksLikeJsonObject, parseJsonObject} from '../wire.js';
import {openaiStreamProblems} from './decode-openai-stream.js';
import {decodeOpenaiError} from './errors.js';
import {decodeOpenaiUsage} from './map-openai-usage.js';

/**
 * What makes a chunk worth parsing: an error or a usage object (with `include_usage` every chunk has
 * `"usage":null`). A finish reason (a string; every delta has `"finish_reason":null`) is seen without
 * a parse. In JSON text a quote inside a string is escaped, so content cannot match these.
 */
const tellsSomething = /"(?:error"|usage"\s*:\s*\{)/;
const finishes = /"finish_reason"\s*:\s*"/;
/** What a chunk's delta generates: text, reasoning (DeepSeek's and OpenRouter's names), a refusal, tool arguments. */
const generated = stringFields('content', 'reasoning_content', 'reasoning', 'refusal', 'arguments');

export class OpenaiStreamReader implements StreamReader {
	private readonly state = new ReadingState();
	private started = false;
	private finished = false;
	private final: IRUsage | null = null;

	read(message: SseMessage): void {
		const {state} = this;
		if (state.ended) return;
		if (message.data.trim() === '[DONE]') {
			state.complete(this.completeUsage());
			return;
		}
		// The first chunk too: what it could tell (an error, or the prompt's size in a usage object) matches.
		const first = !this.started;
		this.started = true;
		state.generatedChars += stringChars(message.data, generated);
		if (!tellsSomething.test(message.data)) {
			if (!looksLikeJsonObject(message.data)) state.fail(openaiStreamProblems.notJson(message.data));
			else if (finishes.test(message.data)) this.finished = true;
			return;
		}
		const chunk = parseJsonObject(message.data);
		if (!chunk) return state.fail(openaiStreamProblems.notJson(message.data));
		if (chunk.error !== undefined && chunk.error !== null) return state.fail(decodeOpenaiError(200, chunk).message);
		const usage = asObject(chunk.usage);
		if (first) {
			// Servers that report usage on every chunk (vLLM's continuous usage stats) give the prompt's size at once.
			const prompt = usage && asNumber(usage.prompt_tokens);
			if (prompt) state.usage = mergeUsage(null, {inputTokens: prompt});
		}
		const choice = asArray(chunk.choices)?.find(isWireObject);
		if (choice && typeof choice.finish_reason === 'string') this.finished = true;
		if (usage) this.final = decodeOpenaiUsage(usage);
	}

	finish(): StreamReading {
		if (this.finished) this.state.complete(this.completeUsage());
		return this.state.finish(openaiStreamProblems.cutOff);
	}

	private completeUsage(): IRUsage {
		return mergeUsage(this.state.usage, this.final ?? {inputTokens: 0, outputTokens: 0});
	}
}
