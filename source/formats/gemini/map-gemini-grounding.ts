/**
 * Citations ↔ `groundingMetadata` (Grounding with Google Search): `groundingChunks` are the web
 * sources, `groundingSupports` tie a segment of the answer text to some of them. Segment indices are
 * UTF-8 byte offsets into the answer text; the IR counts characters, so they are converted with it.
 * @see https://ai.google.dev/gemini-api/docs/google-search#understanding-grounding-response
 * @see https://ai.google.dev/api/generate-content#GroundingMetadata
 */
import type {IRCitation, JsonObject} from '../../base/ir.js';
import {asArray, isWireObject, type WireObject} from '../wire.js';
import {pick, pickArray, pickNumber, pickRecord, pickString} from './schema.js';

type Source = {readonly url: string; readonly title?: string};

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Byte offset → character offset in `text` (clamped to its end). */
function charOffset(text: string, bytes: number): number {
	return Buffer.from(text, 'utf8').subarray(0, Math.max(0, bytes)).toString('utf8').length;
}

function readSources(metadata: WireObject): Array<Source | undefined> {
	return (pickArray(metadata, 'groundingChunks') ?? []).map(chunk => {
		const web = isWireObject(chunk) ? pickRecord(chunk, 'web') : undefined;
		const url = web && pickString(web, 'uri');
		if (!web || url === undefined) return undefined;
		const title = pickString(web, 'title');
		return {url, ...(title ? {title} : {})};
	});
}

/** `groundingMetadata` → citations with character offsets into `text` (the candidate's answer text). Sources no support refers to are cited without a range. */
export function decodeGeminiGrounding(metadata: unknown, text: string): IRCitation[] {
	if (!isWireObject(metadata)) return [];
	const sources = readSources(metadata);
	const cited = new Set<number>();
	const citations: IRCitation[] = [];
	for (const support of pickArray(metadata, 'groundingSupports') ?? []) {
		const segment = isWireObject(support) ? pickRecord(support, 'segment') : undefined;
		if (!isWireObject(support) || !segment) continue;
		const start = charOffset(text, pickNumber(segment, 'startIndex') ?? 0);
		const end = charOffset(text, pickNumber(segment, 'endIndex') ?? byteLength(text));
		const citedText = pickString(segment, 'text');
		for (const at of asArray(pick(support, 'groundingChunkIndices')) ?? []) {
			const source = typeof at === 'number' ? sources[at] : undefined;
			if (!source) continue;
			cited.add(at as number);
			citations.push({...source, start, end, ...(citedText ? {citedText} : {})});
		}
	}
	sources.forEach((source, at) => source && !cited.has(at) && citations.push(source));
	return citations;
}

/** Citations with character offsets into `text` → `groundingMetadata` (one chunk per distinct url; a citation without a range supports the whole text). */
export function encodeGeminiGrounding(citations: readonly IRCitation[], text: string): JsonObject | undefined {
	if (citations.length === 0) return undefined;
	const urls: string[] = [];
	const groundingChunks: JsonObject[] = [];
	const groundingSupports: JsonObject[] = citations.map(citation => {
		if (!urls.includes(citation.url)) {
			urls.push(citation.url);
			groundingChunks.push({web: {uri: citation.url, title: citation.title ?? citation.url}});
		}
		const start = citation.start ?? 0;
		const end = citation.end ?? text.length;
		const segment = {startIndex: byteLength(text.slice(0, start)), endIndex: byteLength(text.slice(0, end)), text: citation.citedText ?? text.slice(start, end)};
		return {segment, groundingChunkIndices: [urls.indexOf(citation.url)]};
	});
	return {groundingChunks, groundingSupports};
}

/** Citations relative to their text part → relative to the parts' joined text, which Gemini indexes. */
export function joinCitations(parts: ReadonlyArray<{readonly text: string; readonly citations?: readonly IRCitation[]}>): {text: string; citations: IRCitation[]} {
	let text = '';
	const citations: IRCitation[] = [];
	for (const part of parts) {
		for (const citation of part.citations ?? []) citations.push({...citation, start: text.length + (citation.start ?? 0), end: text.length + (citation.end ?? part.text.length)});
		text += part.text;
	}
	return {text, citations};
}
