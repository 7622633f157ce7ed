import {invalidRequest} from '../../base/errors.js';
import type {IRCacheControl, IRImagePart, IRImageSource, IRTextPart} from '../../base/ir.js';
import {isWireObject, asString, asObject, type WireObject} from '../wire.js';
import {requireString} from './schema.js';

const dataUrl = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;

/**
 * `image_url.url` → IR image source: a `data:<type>;base64,<data>` URL becomes inline bytes, an
 * http(s) URL stays a URL (targets that need bytes fetch it).
 * @see https://platform.openai.com/docs/guides/images-vision#giving-a-model-images-as-input
 */
export function decodeImageUrl(url: string, path: string): IRImageSource {
	const match = dataUrl.exec(url);
	if (match) return {kind: 'base64', mediaType: match[1], data: match[2]};
	if (/^https?:\/\//i.test(url)) return {kind: 'url', url};
	throw invalidRequest(`\`${path}\` must be an http(s) URL or a base64 data URL (data:image/png;base64,…).`, path);
}

/**
 * `cache_control` on a content part: not OpenAI's own field, but what clients of OpenRouter and
 * LiteLLM send to mark Anthropic prompt-cache breakpoints. Kept, so an Anthropic channel gets it.
 * @see https://openrouter.ai/docs/features/prompt-caching#anthropic-claude
 */
function decodeCacheControl(part: WireObject): {cache?: IRCacheControl} {
	const value = asObject(part.cache_control);
	if (value?.type !== 'ephemeral') return {};
	const ttl = asString(value.ttl);
	return {cache: ttl === undefined ? {type: 'ephemeral'} : {type: 'ephemeral', ttl}};
}

function decodeContentPart(part: unknown, path: string, allowImages: boolean): IRTextPart | IRImagePart | undefined {
	if (!isWireObject(part)) throw invalidRequest(`\`${path}\` must be a content part object.`, path);
	const type = asString(part.type);
	if (type === 'text') {
		const text = requireString(part.text, `${path}.text`);
		return text === '' ? undefined : {type: 'text', text, ...decodeCacheControl(part)};
	}
	if (type === 'refusal') {
		const text = requireString(part.refusal, `${path}.refusal`);
		return text === '' ? undefined : {type: 'text', text};
	}
	if (type === 'image_url' && allowImages) {
		const image = asObject(part.image_url);
		if (!image) throw invalidRequest(`\`${path}.image_url\` must be an object with a \`url\`.`, `${path}.image_url`);
		return {type: 'image', source: decodeImageUrl(requireString(image.url, `${path}.image_url.url`), `${path}.image_url.url`)};
	}
	const allowed = allowImages ? '"text" and "image_url"' : '"text"';
	throw invalidRequest(
		`\`${path}.type\` "${String(type)}" cannot be translated for this model; only ${allowed} content parts are supported here.`,
		`${path}.type`,
	);
}

/**
 * A message `content`: a string or an array of parts. User messages may hold images; system,
 * developer, tool and assistant messages only text (and `refusal` parts on assistant messages).
 * Empty text is dropped: Anthropic rejects empty text blocks.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
export function decodeOpenaiContent(content: unknown, path: string, allowImages: boolean): Array<IRTextPart | IRImagePart> {
	if (content === undefined || content === null) return [];
	if (typeof content === 'string') return content === '' ? [] : [{type: 'text', text: content}];
	if (!Array.isArray(content)) throw invalidRequest(`\`${path}\` must be a string or an array of content parts.`, path);
	const parts: Array<IRTextPart | IRImagePart> = [];
	content.forEach((part, index) => {
		const decoded = decodeContentPart(part, `${path}[${index}]`, allowImages);
		if (decoded) parts.push(decoded);
	});
	return parts;
}

/** Text-only content (system, developer, assistant messages): its text parts. */
export function decodeOpenaiText(content: unknown, path: string): IRTextPart[] {
	return decodeOpenaiContent(content, path, false).filter((part): part is IRTextPart => part.type === 'text');
}
