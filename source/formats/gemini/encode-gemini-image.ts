/**
 * An IR image → a Gemini part. Gemini reads images only as inline bytes (`inlineData`) or as URIs
 * of files it hosts (`fileData`: Files API or gs:// URIs); it does not fetch arbitrary http(s) URLs,
 * so those are fetched here through the context.
 * @see https://ai.google.dev/gemini-api/docs/image-understanding#inline-image
 * @see https://ai.google.dev/gemini-api/docs/files
 */
import type {TranslationContext} from '../adapter.js';
import type {IRImageSource, JsonObject} from '../../base/ir.js';
import {invalidRequest} from '../../base/errors.js';
import {compact} from '../wire.js';

const googleHosted = /^(?:gs:\/\/|https:\/\/generativelanguage\.googleapis\.com\/)/;

export async function encodeGeminiImage(source: IRImageSource, ctx: TranslationContext): Promise<JsonObject> {
	if (source.kind === 'base64') return {inlineData: {mimeType: source.mediaType, data: source.data}};
	const dataUrl = /^data:([^;,]+);base64,(.*)$/s.exec(source.url);
	if (dataUrl) return {inlineData: {mimeType: dataUrl[1], data: dataUrl[2]}};
	if (googleHosted.test(source.url)) return {fileData: compact({mimeType: source.mediaType, fileUri: source.url})};
	if (!/^https?:\/\//.test(source.url)) throw invalidRequest(`Image URL ${source.url.slice(0, 80)} is neither http(s) nor a data URL.`);
	const {mediaType, data} = await ctx.fetchImage(source.url);
	return {inlineData: {mimeType: mediaType, data}};
}
