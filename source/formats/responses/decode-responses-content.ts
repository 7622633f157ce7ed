import {invalidRequest} from '../../base/errors.js';
import type {IRImagePart, IRTextPart} from '../../base/ir.js';
import {decodeImageUrl} from '../openai/decode-openai-content.js';
import {isWireObject, asString} from '../wire.js';
import {requireString, optionalString} from './schema.js';

type ContentPart = IRTextPart | IRImagePart;

function decodeImage(part: {readonly [key: string]: unknown}, path: string): IRImagePart {
	const url = optionalString(part.image_url, `${path}.image_url`);
	if (url) return {type: 'image', source: decodeImageUrl(url, `${path}.image_url`)};
	if (part.file_id !== undefined && part.file_id !== null) {
		throw invalidRequest(`\`${path}.file_id\` refers to a file stored at OpenAI, which this channel cannot read: send the image as \`image_url\` (a base64 data URL or an http(s) URL).`, `${path}.file_id`);
	}
	throw invalidRequest(`\`${path}\` needs an \`image_url\` (a base64 data URL or an http(s) URL).`, `${path}.image_url`);
}

function decodePart(part: unknown, path: string): ContentPart | undefined {
	if (!isWireObject(part)) throw invalidRequest(`\`${path}\` must be a content part object.`, path);
	const type = asString(part.type);
	switch (type) {
		case 'input_text':
		case 'output_text':
		case 'text': {
			const text = requireString(part.text, `${path}.text`);
			return text === '' ? undefined : {type: 'text', text};
		}
		case 'refusal': {
			const text = requireString(part.refusal, `${path}.refusal`);
			return text === '' ? undefined : {type: 'text', text};
		}
		case 'input_image':
			return decodeImage(part, path);
		case 'input_file':
			throw invalidRequest(`\`${path}\`: file inputs cannot be translated for this model; send the file's text as \`input_text\` instead.`, `${path}.type`);
		default:
			throw invalidRequest(`\`${path}.type\` "${String(type)}" is not a content part this gateway can translate; use "input_text" or "input_image".`, `${path}.type`);
	}
}

/**
 * A message `content` (a string, or `input_text` / `input_image` / `output_text` / `refusal` parts) →
 * IR parts. Empty text is dropped: Anthropic rejects empty text blocks.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
export function decodeResponsesContent(content: unknown, path: string): ContentPart[] {
	if (content === undefined || content === null) return [];
	if (typeof content === 'string') return content === '' ? [] : [{type: 'text', text: content}];
	if (!Array.isArray(content)) throw invalidRequest(`\`${path}\` must be a string or an array of content parts.`, path);
	return content.flatMap((part, index) => decodePart(part, `${path}[${index}]`) ?? []);
}

/** Text-only content (instructions, system and developer messages, assistant messages). */
export function decodeResponsesText(content: unknown, path: string): IRTextPart[] {
	const parts = decodeResponsesContent(content, path);
	if (parts.some(part => part.type !== 'text')) throw invalidRequest(`\`${path}\` may hold only text here.`, path);
	return parts.filter((part): part is IRTextPart => part.type === 'text');
}

/**
 * A `function_call_output.output`: a string, or (newer API) a list of `input_text` / `input_image`
 * parts, so tools can return images.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input-input_item_list-item-function_tool_call_output
 */
export function decodeToolOutput(output: unknown, path: string): ContentPart[] {
	if (typeof output === 'string') return output === '' ? [] : [{type: 'text', text: output}];
	if (Array.isArray(output)) return decodeResponsesContent(output, path);
	if (isWireObject(output)) return [{type: 'text', text: JSON.stringify(output)}];
	throw invalidRequest(`\`${path}\` must be a string or an array of content parts.`, path);
}
