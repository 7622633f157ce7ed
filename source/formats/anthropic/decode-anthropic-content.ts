/**
 * Content blocks of a client's Anthropic message → IR parts.
 * @see https://docs.anthropic.com/en/api/messages#body-messages-content
 */
import type {TranslationContext} from '../adapter.js';
import type {IRImagePart, IRImageSource, IRPart, IRTextPart} from '../../base/ir.js';
import {unwrapSignature} from '../signature.js';
import {decodeAnthropicCacheControl} from './map-anthropic-cache-control.js';
import type {WireObject} from '../wire.js';
import {requireArray, requireObject, requireString, optionalBoolean} from './schema.js';

/** `content` is a string (one text block) or an array of blocks. */
export function decodeAnthropicContent(content: unknown, path: string, ctx: TranslationContext): IRPart[] {
	if (typeof content === 'string') return [{type: 'text', text: content}];
	const parts: IRPart[] = [];
	for (const [index, item] of requireArray(content, path).entries()) {
		const part = decodeBlock(requireObject(item, `${path}.${index}`), `${path}.${index}`, ctx);
		if (part) parts.push(part);
	}
	return parts;
}

function decodeBlock(block: WireObject, path: string, ctx: TranslationContext): IRPart | undefined {
	const type = requireString(block.type, `${path}.type`);
	switch (type) {
		case 'text':
		case 'image':
			return decodeMedia(block, path, ctx);
		case 'tool_use': {
			const id = requireString(block.id, `${path}.id`);
			const signature = ctx.signatures.recall(id);
			const input = block.input ?? {};
			return {type: 'tool_call', id, name: requireString(block.name, `${path}.name`), arguments: JSON.stringify(input), ...(signature ? {signature} : {})};
		}
		case 'tool_result': {
			const isError = optionalBoolean(block.is_error, `${path}.is_error`);
			const cache = decodeAnthropicCacheControl(block.cache_control);
			return {
				type: 'tool_result',
				toolCallId: requireString(block.tool_use_id, `${path}.tool_use_id`),
				content: decodeToolResultContent(block.content, `${path}.content`, ctx),
				...(isError === undefined ? {} : {isError}),
				...(cache ? {cache} : {}),
			};
		}
		case 'thinking': {
			const signature = typeof block.signature === 'string' && block.signature !== '' ? unwrapSignature(block.signature, 'anthropic') : undefined;
			return {type: 'reasoning', text: requireString(block.thinking, `${path}.thinking`), ...(signature ? {signature} : {})};
		}
		case 'redacted_thinking':
			return {type: 'reasoning', text: '', redacted: requireString(block.data, `${path}.data`)};
		default:
			// Documents, search results, server-tool blocks (web_search_tool_result …) have no neutral form.
			ctx.warn(`${path}: a "${type}" block cannot be translated for this channel and was dropped.`);
			return undefined;
	}
}

function decodeMedia(block: WireObject, path: string, ctx: TranslationContext): IRTextPart | IRImagePart | undefined {
	const cache = decodeAnthropicCacheControl(block.cache_control);
	if (block.type === 'text') {
		// Citations in the history only annotate text the model already wrote; no request format takes them back.
		if (Array.isArray(block.citations) && block.citations.length > 0) ctx.warn(`${path}: dropped the ${block.citations.length} citation(s) of a text block: requests carry no citations.`);
		return {type: 'text', text: requireString(block.text, `${path}.text`), ...(cache ? {cache} : {})};
	}
	const source = decodeImageSource(requireObject(block.source, `${path}.source`), `${path}.source`, ctx);
	return source ? {type: 'image', source, ...(cache ? {cache} : {})} : undefined;
}

/** @see https://docs.anthropic.com/en/docs/build-with-claude/vision */
function decodeImageSource(source: WireObject, path: string, ctx: TranslationContext): IRImageSource | undefined {
	const type = requireString(source.type, `${path}.type`);
	if (type === 'base64') {
		return {kind: 'base64', mediaType: requireString(source.media_type, `${path}.media_type`), data: requireString(source.data, `${path}.data`)};
	}
	if (type === 'url') return {kind: 'url', url: requireString(source.url, `${path}.url`)};
	// `file` sources point into Anthropic's Files API: other providers cannot read them.
	ctx.warn(`${path}: an image with a "${type}" source cannot be translated for this channel and was dropped.`);
	return undefined;
}

function decodeToolResultContent(content: unknown, path: string, ctx: TranslationContext): Array<IRTextPart | IRImagePart> {
	if (content === undefined || content === null) return [];
	if (typeof content === 'string') return [{type: 'text', text: content}];
	const parts: Array<IRTextPart | IRImagePart> = [];
	for (const [index, item] of requireArray(content, path).entries()) {
		const block = requireObject(item, `${path}.${index}`);
		if (block.type === 'text' || block.type === 'image') {
			const part = decodeMedia(block, `${path}.${index}`, ctx);
			if (part) parts.push(part);
		} else {
			ctx.warn(`${path}.${index}: a "${String(block.type)}" block inside a tool result cannot be translated and was dropped.`);
		}
	}
	return parts;
}
