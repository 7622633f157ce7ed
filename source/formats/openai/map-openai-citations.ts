/**
 * Web citations on an OpenAI chat answer: `message.annotations` of type `url_citation`, each with
 * the character range of the content it supports (streamed as `delta.annotations`).
 * @see https://platform.openai.com/docs/guides/tools-web-search?api-mode=chat#output-and-citations
 */
import type {IRCitation, JsonObject} from '../../base/ir.js';
import {asNumber, asObject, asString, isWireObject} from '../wire.js';

/** `url_citation` annotations → IR citations (other annotation types carry no source). */
export function decodeOpenaiAnnotations(value: unknown): IRCitation[] {
	return (Array.isArray(value) ? value : []).flatMap(item => {
		const citation = isWireObject(item) && item.type === 'url_citation' ? asObject(item.url_citation) : undefined;
		const url = citation && asString(citation.url);
		if (!citation || url === undefined) return [];
		const title = asString(citation.title);
		const start = asNumber(citation.start_index);
		const end = asNumber(citation.end_index);
		return [{url, ...(title ? {title} : {}), ...(start === undefined ? {} : {start}), ...(end === undefined ? {} : {end})}];
	});
}

/**
 * IR citation → `url_citation`. `offset` is where its text part starts in the joined content; a
 * citation without a range (Anthropic's quote a passage instead) spans its whole part.
 */
export function encodeOpenaiAnnotation(citation: IRCitation, offset: number, length: number): JsonObject {
	const start = offset + (citation.start ?? 0);
	const end = offset + (citation.end ?? length);
	return {type: 'url_citation', url_citation: {url: citation.url, title: citation.title ?? citation.url, start_index: start, end_index: end}};
}
