/**
 * Token counting where the channel's provider has no counting endpoint (OpenAI-compatible
 * channels): OpenAI's o200k_base BPE over the request's text, plus the documented per-message
 * overhead. An estimate for non-OpenAI models behind OpenAI-compatible APIs, but a real tokenizer.
 * Loaded on first use (its tables take time and memory), once per gateway.
 * @see https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken
 */
import {getEncoding, type Tiktoken} from 'js-tiktoken';
import type {IRRequest} from '../base/ir.js';

/** Images count as a fixed 85 tokens each (OpenAI's "low detail" price), as no pixels are decoded here. */
const imageTokens = 85;
const perMessage = 3;

export class Tokenizer {
	private encoding: Tiktoken | undefined;

	count(request: IRRequest): number {
		this.encoding ??= getEncoding('o200k_base');
		const encoding = this.encoding;
		const count = (text: string) => encoding.encode(text).length;
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
}
