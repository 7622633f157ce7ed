/**
 * Citations on text blocks, both ways. Web search cites `web_search_result_location`s (url, title,
 * the quoted passage); document citations (`char_location`, `page_location`, `content_block_location`,
 * `search_result_location`) point into the request's own documents, which other formats never see:
 * they are dropped, with a warning.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#citations
 * @see https://docs.anthropic.com/en/docs/build-with-claude/citations
 */
import type {IRCitation} from '../../base/ir.js';
import type {TranslationContext} from '../adapter.js';
import {asString, isWireObject} from '../wire.js';

export type AnthropicWebCitation = {type: 'web_search_result_location'; url: string; title: string | null; cited_text: string; encrypted_index: string};

export function decodeAnthropicCitation(value: unknown, ctx: TranslationContext): IRCitation | undefined {
	if (!isWireObject(value)) return undefined;
	const url = asString(value.url);
	if (value.type !== 'web_search_result_location' || url === undefined) {
		ctx.warn(`Dropped a "${String(value.type)}" citation: it points into the request's documents, which this client format cannot show.`);
		return undefined;
	}
	const title = asString(value.title);
	const citedText = asString(value.cited_text);
	return {url, ...(title ? {title} : {}), ...(citedText ? {citedText} : {})};
}

export function decodeAnthropicCitations(value: unknown, ctx: TranslationContext): IRCitation[] {
	return (Array.isArray(value) ? value : []).flatMap(item => decodeAnthropicCitation(item, ctx) ?? []);
}

/**
 * IR citation → a web search location. `encrypted_index` is Anthropic's own reference to its search
 * result; a citation from another provider has none, so it is empty (Anthropic clients only show it).
 */
export function encodeAnthropicCitation(citation: IRCitation): AnthropicWebCitation {
	return {type: 'web_search_result_location', url: citation.url, title: citation.title ?? null, cited_text: citation.citedText ?? '', encrypted_index: ''};
}
