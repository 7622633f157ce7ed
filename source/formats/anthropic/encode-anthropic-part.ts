/**
 * IR parts → Anthropic content blocks for an upstream request.
 * @see https://docs.anthropic.com/en/api/messages#body-messages-content
 */
import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRImagePart, type IRPart, type IRReasoningPart, type IRSignature, type IRTextPart} from '../../base/ir.js';
import {encodeAnthropicCacheControl} from './map-anthropic-cache-control.js';
import {decodeToolInput} from '../decode-tool-input.js';
import type {AnthropicContentBlock, AnthropicImageBlock, AnthropicTextBlock} from './schema.js';

export function encodeAnthropicPart(part: IRPart, ctx: TranslationContext): AnthropicContentBlock | undefined {
	switch (part.type) {
		case 'text':
			dropForeignSignature(part.signature, 'text', ctx);
			return encodeText(part);
		case 'image':
			return encodeImage(part);
		case 'tool_call':
			dropForeignSignature(part.signature, `tool call ${part.id}`, ctx);
			return {type: 'tool_use', id: anthropicToolId(part.id), name: part.name, input: decodeToolInput(part.arguments, part.id, ctx)};
		case 'tool_result':
			return {
				type: 'tool_result',
				tool_use_id: anthropicToolId(part.toolCallId),
				...(part.content.length > 0 ? {content: encodeMediaList(part.content)} : {}),
				...(part.isError ? {is_error: true} : {}),
				cache_control: encodeAnthropicCacheControl(part.cache),
			};
		case 'reasoning':
			return encodeReasoning(part, ctx);
		default:
			return assertNever(part, 'part');
	}
}

/**
 * Tool ids must match `^[a-zA-Z0-9_-]+$`; some OpenAI-compatible servers use ids like
 * `functions.get_weather:0`. The same mapping on both sides keeps calls and results paired.
 */
export function anthropicToolId(id: string): string {
	const safe = id.replace(/[^a-zA-Z0-9_-]/g, '_');
	return safe === '' ? 'toolu_missing' : safe;
}

/** The API rejects empty text blocks ("text content blocks must be non-empty"). */
function encodeText(part: IRTextPart): AnthropicTextBlock | undefined {
	if (part.text === '') return undefined;
	// No `cache_control: undefined` key: a block without one is sent as it is built (see toJsonValue).
	const cache = encodeAnthropicCacheControl(part.cache);
	return cache ? {type: 'text', text: part.text, cache_control: cache} : {type: 'text', text: part.text};
}

function encodeImage(part: IRImagePart): AnthropicImageBlock {
	const source =
		part.source.kind === 'base64'
			? {type: 'base64' as const, media_type: part.source.mediaType, data: part.source.data}
			: {type: 'url' as const, url: part.source.url};
	return {type: 'image', source, cache_control: encodeAnthropicCacheControl(part.cache)};
}

export function encodeMediaList(parts: ReadonlyArray<IRTextPart | IRImagePart>): Array<AnthropicTextBlock | AnthropicImageBlock> {
	const blocks: Array<AnthropicTextBlock | AnthropicImageBlock> = [];
	for (const part of parts) {
		const block = part.type === 'text' ? encodeText(part) : encodeImage(part);
		if (block) blocks.push(block);
	}
	return blocks;
}

/**
 * Thinking blocks go back only with the signature Anthropic made for them: the API rejects a thinking
 * block whose signature is missing or not its own. Redacted thinking is always Anthropic's.
 */
function encodeReasoning(part: IRReasoningPart, ctx: TranslationContext): AnthropicContentBlock | undefined {
	if (part.redacted !== undefined) return {type: 'redacted_thinking', data: part.redacted};
	if (part.signature?.format === 'anthropic') return {type: 'thinking', thinking: part.text, signature: part.signature.value};
	if (part.signature) ctx.warn(`A reasoning block with a ${part.signature.format} signature cannot go to Anthropic: dropped (${part.text.length} characters of reasoning).`);
	else if (part.text !== '') ctx.warn(`A reasoning block without an Anthropic signature was dropped (${part.text.length} characters of reasoning).`);
	return undefined;
}

function dropForeignSignature(signature: IRSignature | undefined, what: string, ctx: TranslationContext): void {
	if (signature && signature.format !== 'anthropic') ctx.warn(`The ${signature.format} reasoning signature on a ${what} was dropped: Anthropic has no slot for it.`);
}
