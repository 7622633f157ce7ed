/**
 * What a fake provider received, read in that provider's own wire format: the system prompt, the
 * user's texts and images, tool calls and tool results. Lets translation tests assert that content
 * landed in the right slot of the target format.
 */
import type {Format} from '../../source/base/ir.js';

export type Saw = {
	model?: string;
	system: string;
	texts: string[];
	images: Array<{mediaType: string; data: string}>;
	toolCalls: Array<{id?: string; name: string; args: unknown}>;
	toolResults: Array<{id?: string; name?: string; text: string}>;
};

type Loose = Record<string, unknown>;
const list = (value: unknown): Loose[] => (Array.isArray(value) ? (value as Loose[]) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : list(value).map(part => String(part.text ?? '')).join(''));

export function providerSaw(format: Format, body: unknown): Saw {
	const saw: Saw = {system: '', texts: [], images: [], toolCalls: [], toolResults: []};
	const request = body as Loose;
	switch (format) {
		case 'openai': {
			saw.model = String(request.model);
			for (const message of list(request.messages)) {
				if (message.role === 'system' || message.role === 'developer') saw.system += text(message.content);
				else if (message.role === 'user') {
					if (typeof message.content === 'string') saw.texts.push(message.content);
					for (const part of list(message.content)) {
						if (part.type === 'text') saw.texts.push(String(part.text));
						if (part.type === 'image_url') {
							const match = /^data:([^;]+);base64,(.*)$/.exec(String((part.image_url as Loose).url));
							if (match) saw.images.push({mediaType: match[1]!, data: match[2]!});
						}
					}
				} else if (message.role === 'assistant') {
					for (const call of list(message.tool_calls)) {
						const fn = call.function as Loose;
						saw.toolCalls.push({id: String(call.id), name: String(fn.name), args: JSON.parse(String(fn.arguments))});
					}
				} else if (message.role === 'tool') saw.toolResults.push({id: String(message.tool_call_id), text: text(message.content)});
			}
			break;
		}
		case 'anthropic': {
			saw.model = String(request.model);
			saw.system = text(request.system);
			for (const message of list(request.messages)) {
				const blocks = typeof message.content === 'string' ? [{type: 'text', text: message.content}] : list(message.content);
				for (const block of blocks) {
					if (block.type === 'text' && message.role === 'user') saw.texts.push(String(block.text));
					if (block.type === 'image') {
						const source = block.source as Loose;
						saw.images.push({mediaType: String(source.media_type), data: String(source.data)});
					}
					if (block.type === 'tool_use') saw.toolCalls.push({id: String(block.id), name: String(block.name), args: block.input});
					if (block.type === 'tool_result') saw.toolResults.push({id: String(block.tool_use_id), text: text(block.content)});
				}
			}
			break;
		}
		case 'gemini': {
			saw.system = text((request.systemInstruction as Loose | undefined)?.parts);
			for (const content of list(request.contents)) {
				for (const part of list(content.parts)) {
					if (typeof part.text === 'string' && content.role !== 'model') saw.texts.push(part.text);
					const inline = part.inlineData as Loose | undefined;
					if (inline) saw.images.push({mediaType: String(inline.mimeType), data: String(inline.data)});
					const call = part.functionCall as Loose | undefined;
					if (call) saw.toolCalls.push({id: call.id === undefined ? undefined : String(call.id), name: String(call.name), args: call.args});
					const result = part.functionResponse as Loose | undefined;
					if (result) saw.toolResults.push({id: result.id === undefined ? undefined : String(result.id), name: String(result.name), text: JSON.stringify(result.response)});
				}
			}
			break;
		}
	}
	return saw;
}
