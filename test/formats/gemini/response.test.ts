import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {GoogleGenAI} from '@google/genai';
import {geminiAdapter} from '../../../source/formats/gemini/index.js';
import type {IRResponse} from '../../../source/base/ir.js';
import {loadJson, testContext} from './fixtures.js';
import {serve} from './serve.js';

const decode = (name: string) => geminiAdapter.decodeResponse(loadJson(name), testContext());

describe('gemini decodeResponse', () => {
	it('reads a signed text answer and converts usage (thoughts count as output)', () => {
		assert.deepEqual(decode('text'), {
			id: 'Un6LacrVMcjUxs0PmJfWoQc',
			model: 'gemini-3-pro-preview',
			parts: [{
				type: 'text',
				text: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
				signature: {format: 'gemini', value: 'EtoFCtcFAb4+9vtfe4MXRxQjw48U1WKrR/7lYsgFkVi/bepqsSPjY0VU7HEzkeCBIfy1fu5t9aUZ4IZ65aWagqbBrV45fc97olcg'},
			}],
			finishReason: 'stop',
			usage: {inputTokens: 9, outputTokens: 272, reasoningTokens: 244},
		});
	});

	it('reads a function call as tool_calls (Gemini says STOP) and makes up the missing id', () => {
		const response = decode('tool-call');
		assert.equal(response.finishReason, 'tool_calls');
		const [call] = response.parts;
		assert.equal(call.type, 'tool_call');
		assert.ok(call.type === 'tool_call');
		assert.match(call.id, /^call_/);
		assert.equal(call.name, 'weather');
		assert.equal(call.arguments, '{"location":"San Francisco"}');
		assert.equal(call.signature?.format, 'gemini');
	});

	it('reads parallel calls, only the first of which Gemini signs', () => {
		const response = decode('parallel-tool-calls');
		assert.deepEqual(response.parts.map(part => part.type === 'tool_call' && [part.arguments, part.signature !== undefined]), [
			['{"city":"Paris"}', true],
			['{"city":"Tokyo"}', false],
		]);
	});

	it('reads thought summaries as reasoning and cached and tool-use prompt tokens as input', () => {
		const thinking = decode('thinking');
		assert.deepEqual(thinking.parts.map(part => part.type), ['reasoning', 'text']);
		assert.deepEqual(thinking.usage, {inputTokens: 9, outputTokens: 241, reasoningTokens: 231});
		assert.deepEqual(decode('usage-caching').usage, {inputTokens: 77, outputTokens: 160, cachedTokens: 4, reasoningTokens: 89});
	});

	it('attaches a trailing signature-only part to the text before it', () => {
		const body = {candidates: [{content: {role: 'model', parts: [{text: 'Hi'}, {text: '', thoughtSignature: 'CiQB'}]}, finishReason: 'STOP'}]};
		assert.deepEqual(geminiAdapter.decodeResponse(body, testContext()).parts, [{type: 'text', text: 'Hi', signature: {format: 'gemini', value: 'CiQB'}}]);
	});

	it('maps the finish reasons and a blocked prompt', () => {
		const finish = (finishReason: string, parts: unknown[] = [{text: 'x'}]) =>
			geminiAdapter.decodeResponse({candidates: [{content: {parts}, finishReason}]}, testContext()).finishReason;
		assert.equal(finish('MAX_TOKENS', [{functionCall: {name: 'f', args: {}}}]), 'length');
		assert.equal(finish('SAFETY'), 'content_filter');
		assert.equal(finish('RECITATION'), 'content_filter');
		assert.equal(finish('MALFORMED_FUNCTION_CALL'), 'other');
		assert.equal(geminiAdapter.decodeResponse({promptFeedback: {blockReason: 'SAFETY'}}, testContext()).finishReason, 'content_filter');
	});
});

describe('gemini encodeResponse', () => {
	const response: IRResponse = {
		id: 'msg_01',
		model: 'claude-sonnet-4-6',
		parts: [
			{type: 'reasoning', text: 'Thinking…', signature: {format: 'anthropic', value: 'EqQB'}},
			{type: 'text', text: 'Calling the tool.'},
			{type: 'tool_call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}'},
		],
		finishReason: 'tool_calls',
		usage: {inputTokens: 120, outputTokens: 50, cachedTokens: 100, reasoningTokens: 20},
	};

	it('writes the answer the client asked for, under its model name, with foreign signatures wrapped', () => {
		assert.deepEqual(geminiAdapter.encodeResponse(response, {model: 'gemini-alias'}, testContext()), {
			candidates: [{
				content: {role: 'model', parts: [
					{text: 'Thinking…', thought: true, thoughtSignature: 'gtui1.anthropic.EqQB'},
					{text: 'Calling the tool.'},
					{functionCall: {id: 'toolu_01', name: 'get_weather', args: {city: 'Paris'}}},
				]},
				finishReason: 'STOP',
				index: 0,
			}],
			usageMetadata: {promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 170, cachedContentTokenCount: 100, thoughtsTokenCount: 20},
			modelVersion: 'gemini-alias',
			responseId: 'msg_01',
		});
	});

	it('round-trips: decode(encode(x)) gives x back', () => {
		const gemini = {...response, parts: response.parts.slice(1)};
		const again = geminiAdapter.decodeResponse(geminiAdapter.encodeResponse(gemini, {model: 'm'}, testContext()), testContext());
		assert.deepEqual(again, {...gemini, model: 'm'});
	});

	it('is read by @google/genai like a real answer', async () => {
		const body = geminiAdapter.encodeResponse(response, {model: 'gemini-alias'}, testContext());
		await using server = await serve(() => ({contentType: 'application/json', chunks: [JSON.stringify(body)]}));
		const ai = new GoogleGenAI({apiKey: 'test', httpOptions: {baseUrl: server.url}});
		const answer = await ai.models.generateContent({model: 'gemini-alias', contents: 'Weather in Paris?'});
		assert.equal(answer.text, 'Calling the tool.');
		assert.deepEqual(answer.functionCalls, [{id: 'toolu_01', name: 'get_weather', args: {city: 'Paris'}}]);
		assert.equal(answer.usageMetadata?.thoughtsTokenCount, 20);
		assert.equal(answer.modelVersion, 'gemini-alias');
		assert.equal(server.requests[0].url, '/v1beta/models/gemini-alias:generateContent');
	});
});
