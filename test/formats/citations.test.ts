/**
 * Citations across formats (issue 16): Anthropic web-search `citations`, Gemini `groundingMetadata`,
 * OpenAI `url_citation` annotations and Responses `output_text.annotations`, whole and streamed.
 * What has no slot is dropped with a warning, never silently.
 */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {describe, it} from 'node:test';
import type {IRStreamEvent} from '../../source/base/ir.js';
import {adapters, inboundAdapters} from '../../source/formats/index.js';
import {collect, fromArray, recordingContext} from '../helpers/streams.js';

const fixture = (path: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8'));

const ftx = 'https://acecomments.mu.nu/?post=411647';
const crescendo = 'https://www.crescendo.ai/news/latest-ai-news-and-updates';

describe('Anthropic web search citations (a recorded answer) reach every client format', () => {
	const ctx = recordingContext();
	const answer = adapters.anthropic.decodeResponse(fixture('anthropic/web-search-citations.json'), ctx);
	const text = answer.parts.flatMap(part => (part.type === 'text' ? [part.text] : [])).join('');

	it('decodes them onto their text parts, warning only about the server-tool blocks', () => {
		const cited = answer.parts.flatMap(part => (part.type === 'text' ? part.citations ?? [] : []));
		assert.deepEqual(cited.map(citation => [citation.url, citation.title]), [
			[ftx, 'Daily Tech News 26 September 2024'],
			[crescendo, 'The Latest AI News and AI Breakthroughs that Matter Most: 2025 | News'],
		]);
		assert.deepEqual(ctx.warnings.map(warning => /"(\w+)" block/.exec(warning)?.[1]), ['server_tool_use', 'web_search_tool_result']);
	});

	it('OpenAI chat: message.annotations with url_citation ranges over the cited sentences', () => {
		const body = adapters.openai.encodeResponse(answer, {model: 'm'}, recordingContext()) as {choices: Array<{message: {content: string; annotations: Array<{type: string; url_citation: {url: string; start_index: number; end_index: number}}>}}>};
		const {content, annotations} = body.choices[0]!.message;
		assert.equal(content, text);
		assert.deepEqual(annotations.map(annotation => annotation.type), ['url_citation', 'url_citation']);
		const first = annotations[0]!.url_citation;
		assert.equal(first.url, ftx);
		assert.match(content.slice(first.start_index, first.end_index), /^Caroline Ellison.*restitution\.$/);
		const second = annotations[1]!.url_citation;
		assert.match(content.slice(second.start_index, second.end_index), /^Anthropic has launched a Chrome extension/);
	});

	it('Responses: output_text.annotations', () => {
		const body = inboundAdapters.responses.encodeResponse(answer, {model: 'm', request: {}}, recordingContext()) as {output: Array<{type: string; content?: Array<{text: string; annotations: Array<{url: string; start_index: number; end_index: number}>}>}>};
		const message = body.output.find(item => item.type === 'message')!.content![0]!;
		assert.deepEqual(message.annotations.map(annotation => annotation.url), [ftx, crescendo]);
		assert.match(message.text.slice(message.annotations[0]!.start_index, message.annotations[0]!.end_index), /^Caroline Ellison/);
	});

	it('Gemini: groundingMetadata with chunks and byte-offset supports', () => {
		const body = adapters.gemini.encodeResponse(answer, {model: 'm'}, recordingContext()) as {candidates: Array<{groundingMetadata: {groundingChunks: Array<{web: {uri: string}}>; groundingSupports: Array<{segment: {startIndex: number; endIndex: number; text: string}; groundingChunkIndices: number[]}>}}>};
		const grounding = body.candidates[0]!.groundingMetadata;
		assert.deepEqual(grounding.groundingChunks.map(chunk => chunk.web.uri), [ftx, crescendo]);
		const bytes = Buffer.from(text, 'utf8');
		const first = grounding.groundingSupports[0]!.segment;
		assert.match(bytes.subarray(first.startIndex, first.endIndex).toString('utf8'), /^Caroline Ellison.*restitution\.$/);
		assert.deepEqual(grounding.groundingSupports.map(support => support.groundingChunkIndices), [[0], [1]]);
	});
});

describe('Gemini grounding (as Google documents it) reaches every client format', () => {
	const answer = adapters.gemini.decodeResponse(fixture('gemini/grounding.json'), recordingContext());

	it('decodes one citation per supported segment and source, with character ranges', () => {
		const part = answer.parts[0]!;
		assert.equal(part.type, 'text');
		const citations = part.type === 'text' ? part.citations ?? [] : [];
		assert.deepEqual(citations.map(citation => [citation.title, part.text.slice(citation.start, citation.end)]), [
			['aljazeera.com', 'Spain won Euro 2024, defeating England 2-1 in the final.'],
			['aljazeera.com', "This victory marks Spain's record fourth European Championship title."],
			['uefa.com', "This victory marks Spain's record fourth European Championship title."],
		]);
	});

	it('Anthropic: web_search_result_location citations on the text block', () => {
		const body = adapters.anthropic.encodeResponse(answer, {model: 'm'}, recordingContext()) as {content: Array<{citations?: Array<{type: string; url: string; cited_text: string}>}>};
		const citations = body.content[0]!.citations!;
		assert.deepEqual(citations.map(citation => citation.type), ['web_search_result_location', 'web_search_result_location', 'web_search_result_location']);
		assert.equal(citations[0]!.cited_text, 'Spain won Euro 2024, defeating England 2-1 in the final.');
	});

	it('OpenAI chat and Responses: url_citation annotations', () => {
		const chat = adapters.openai.encodeResponse(answer, {model: 'm'}, recordingContext()) as {choices: Array<{message: {annotations: unknown[]}}>};
		assert.equal(chat.choices[0]!.message.annotations.length, 3);
		const responses = inboundAdapters.responses.encodeResponse(answer, {model: 'm', request: {}}, recordingContext()) as {output: Array<{content: Array<{annotations: unknown[]}>}>};
		assert.equal(responses.output[0]!.content[0]!.annotations.length, 3);
	});
});

describe('streamed citations', () => {
	const events: IRStreamEvent[] = [
		{type: 'start', id: 'msg_1', model: 'claude'},
		{type: 'block-start', index: 0, block: {kind: 'text'}},
		{type: 'text-delta', index: 0, text: 'Intro. '},
		{type: 'block-end', index: 0},
		{type: 'block-start', index: 1, block: {kind: 'text'}},
		{type: 'citation', index: 1, citation: {url: ftx, title: 'Daily Tech News', citedText: 'Caroline Ellison…'}},
		{type: 'text-delta', index: 1, text: 'Caroline Ellison was sentenced.'},
		{type: 'block-end', index: 1},
		{type: 'finish', reason: 'stop', usage: {inputTokens: 1, outputTokens: 1}},
	];
	const frames = (format: 'openai' | 'anthropic' | 'gemini' | 'responses') =>
		collect(inboundAdapters[format].encodeStream(fromArray(events), {model: 'm', includeUsage: false, sse: true, request: {}}, recordingContext()));

	it('Anthropic stream (citations_delta) decodes to IR citation events', async () => {
		const sse = [
			{event: 'message_start', data: JSON.stringify({type: 'message_start', message: {id: 'msg_1', model: 'claude', usage: {input_tokens: 3, output_tokens: 1}}})},
			{event: 'content_block_start', data: JSON.stringify({type: 'content_block_start', index: 0, content_block: {type: 'text', text: '', citations: []}})},
			{event: 'content_block_delta', data: JSON.stringify({type: 'content_block_delta', index: 0, delta: {type: 'citations_delta', citation: {type: 'web_search_result_location', url: ftx, title: 'Daily Tech News', cited_text: 'Caroline Ellison…', encrypted_index: 'Eo8B'}}})},
			{event: 'content_block_delta', data: JSON.stringify({type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text: 'Caroline Ellison was sentenced.'}})},
			{event: 'content_block_stop', data: JSON.stringify({type: 'content_block_stop', index: 0})},
			{event: 'message_delta', data: JSON.stringify({type: 'message_delta', delta: {stop_reason: 'end_turn'}, usage: {output_tokens: 9}})},
			{event: 'message_stop', data: JSON.stringify({type: 'message_stop'})},
		];
		const decoded = await collect(adapters.anthropic.decodeStream(fromArray(sse), recordingContext()));
		assert.deepEqual(decoded.filter(event => event.type === 'citation'), [{type: 'citation', index: 0, citation: {url: ftx, title: 'Daily Tech News', citedText: 'Caroline Ellison…'}}]);
	});

	it('OpenAI stream: a delta.annotations chunk when the cited block ends, ranged over it', async () => {
		const chunks = (await frames('openai')).filter(frame => frame.includes('annotations'));
		assert.equal(chunks.length, 1);
		const delta = (JSON.parse(chunks[0]!.slice('data: '.length)) as {choices: Array<{delta: {annotations: Array<{url_citation: {start_index: number; end_index: number}}>}}>}).choices[0]!.delta;
		assert.deepEqual(delta.annotations[0]!.url_citation, {url: ftx, title: 'Daily Tech News', start_index: 7, end_index: 38});
	});

	it('Anthropic stream: a citations_delta in the text block', async () => {
		assert.ok((await frames('anthropic')).some(frame => frame.includes('"citations_delta"') && frame.includes(ftx)));
	});

	it('Responses stream: output_text.annotation.added, and the annotation on the final item', async () => {
		const all = (await frames('responses')).join('');
		assert.match(all, /event: response\.output_text\.annotation\.added/);
		assert.match(all, /"annotations":\[\{"type":"url_citation","url":"https:\/\/acecomments/);
	});

	it('Gemini stream: groundingMetadata on the last frame', async () => {
		const last = (await frames('gemini')).at(-1)!;
		assert.match(last, /"groundingMetadata":\{"groundingChunks":\[\{"web":\{"uri":"https:\/\/acecomments/);
	});

	it('Gemini grounding on a streamed answer decodes to citations of the open text block', async () => {
		const body = fixture('gemini/grounding.json') as {candidates: Array<Record<string, unknown>>};
		const decoded = await collect(adapters.gemini.decodeStream(fromArray([{data: JSON.stringify(body)}]), recordingContext()));
		assert.equal(decoded.filter(event => event.type === 'citation').length, 3);
	});
});

describe('citations without a slot are warned about', () => {
	it('document citations in an Anthropic answer are dropped with a warning', () => {
		const ctx = recordingContext();
		const answer = adapters.anthropic.decodeResponse(
			{id: 'm', model: 'c', content: [{type: 'text', text: 'The grass is green.', citations: [{type: 'char_location', cited_text: 'green', document_index: 0, start_char_index: 0, end_char_index: 5}]}], stop_reason: 'end_turn', usage: {}},
			ctx,
		);
		assert.equal(answer.parts[0]!.type === 'text' && answer.parts[0]!.citations, undefined);
		assert.match(ctx.warnings[0]!, /Dropped a "char_location" citation/);
	});

	it('citations in an Anthropic client\'s history are dropped with a warning', () => {
		const ctx = recordingContext();
		adapters.anthropic.decodeRequest(
			{model: 'm', max_tokens: 10, messages: [{role: 'user', content: 'q'}, {role: 'assistant', content: [{type: 'text', text: 'a', citations: [{type: 'web_search_result_location', url: ftx, title: null, cited_text: 'x', encrypted_index: 'E'}]}]}, {role: 'user', content: 'more'}]},
			{},
			ctx,
		);
		assert.match(ctx.warnings.join('\n'), /dropped the 1 citation\(s\) of a text block/);
	});
});
