import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {geminiAdapter} from '../../../source/formats/gemini/index.js';
import type {IRRequest} from '../../../source/base/ir.js';
import {loadJson, testContext} from './fixtures.js';

const target = {model: 'gemini-2.5-flash', stream: false, baseUrl: '', defaultMaxTokens: 4096};

describe('gemini request round trip', () => {
	it('decode(encode(ir)) gives the IR back for the subset Gemini can say', async () => {
		const ir: IRRequest = {
			model: 'gemini-2.5-flash',
			system: [{text: 'Be brief.'}],
			messages: [
				{role: 'user', parts: [{type: 'text', text: 'Look:'}, {type: 'image', source: {kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo='}}]},
				{role: 'assistant', parts: [
					{type: 'reasoning', text: 'A cat.', signature: {format: 'gemini', value: 'CiQB'}},
					{type: 'tool_call', id: 'call_1', name: 'describe', arguments: '{"subject":"cat"}', signature: {format: 'gemini', value: 'CiQC'}},
				]},
				{role: 'user', parts: [{type: 'tool_result', toolCallId: 'call_1', name: 'describe', content: [{type: 'text', text: 'a tabby'}]}]},
			],
			tools: [{name: 'describe', description: 'Describe.', parameters: {type: 'object', properties: {subject: {type: 'string'}}, required: ['subject']}}],
			toolChoice: {type: 'required'},
			maxTokens: 500,
			temperature: 0.5,
			topP: 0.9,
			topK: 20,
			stop: ['STOP'],
			responseFormat: {type: 'json_schema', schema: {type: 'object'}},
			reasoning: {enabled: true, budgetTokens: 1024},
			stream: false,
		};
		const ctx = testContext();
		const encoded = await geminiAdapter.encodeRequest(ir, target, ctx);
		assert.deepEqual(geminiAdapter.decodeRequest(encoded.body, {model: 'gemini-2.5-flash', stream: false}, ctx), ir);
		assert.deepEqual(ctx.warnings, []);
	});

	it('encode(decode(wire)) keeps a Gemini CLI request intact, except unsigned thoughts', async () => {
		const wire = loadJson('request-agent') as {contents: Array<{parts: unknown[]}>};
		const ctx = testContext();
		const ir = geminiAdapter.decodeRequest(wire, {model: 'gemini-2.5-flash'}, ctx);
		const {body} = await geminiAdapter.encodeRequest(ir, target, ctx);
		// A thought without a signature cannot be told apart from another provider's reasoning, so it is left out (and reported).
		const expected = wire.contents.map((content, index) => (index === 1 ? {...content, parts: content.parts.slice(1)} : content));
		assert.deepEqual(body.contents, expected);
		assert.deepEqual(ctx.warnings, ['Dropped reasoning without a signature: Gemini can only replay its own signed thoughts.']);
		assert.deepEqual(body.systemInstruction, {parts: [{text: 'You are an interactive CLI agent.'}]});
		assert.deepEqual(body.generationConfig, (wire as Record<string, unknown>).generationConfig);
		assert.deepEqual(body.toolConfig, (wire as Record<string, unknown>).toolConfig);
	});
});
