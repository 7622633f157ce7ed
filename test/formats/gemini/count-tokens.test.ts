import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {
	decodeGeminiCountTokensRequest,
	decodeGeminiCountTokensResponse,
	encodeGeminiCountTokensRequest,
	encodeGeminiCountTokensResponse,
} from '../../../source/formats/gemini/index.js';
import {loadJson, testContext} from './fixtures.js';

describe('gemini countTokens', () => {
	it('reads bare contents (what @google/genai sends) and a whole generateContentRequest', () => {
		const bare = decodeGeminiCountTokensRequest({contents: [{role: 'user', parts: [{text: 'Hello'}]}]}, 'models/gemini-2.5-flash');
		assert.equal(bare.model, 'gemini-2.5-flash');
		assert.deepEqual(bare.messages, [{role: 'user', parts: [{type: 'text', text: 'Hello'}]}]);
		const whole = decodeGeminiCountTokensRequest({generateContentRequest: {model: 'models/gemini-2.5-flash', ...(loadJson('request-agent') as object)}}, 'gemini-2.5-flash');
		assert.deepEqual(whole.system, [{text: 'You are an interactive CLI agent.'}]);
		assert.equal(whole.tools.length, 2);
	});

	it('sends a generateContentRequest with the models/ resource name', async () => {
		const ir = decodeGeminiCountTokensRequest(loadJson('request-agent'), 'gemini-2.5-flash', testContext());
		const encoded = await encodeGeminiCountTokensRequest(ir, {model: 'gemini-2.5-flash', stream: false, baseUrl: '', defaultMaxTokens: 0});
		assert.equal(encoded.path, '/v1beta/models/gemini-2.5-flash:countTokens');
		const inner = encoded.body.generateContentRequest as Record<string, unknown>;
		assert.deepEqual(Object.keys(inner), ['model', 'contents', 'systemInstruction', 'tools']);
		assert.equal(inner.model, 'models/gemini-2.5-flash');
	});

	it('answers and reads {totalTokens}', () => {
		assert.deepEqual(encodeGeminiCountTokensResponse(31), {totalTokens: 31});
		assert.equal(decodeGeminiCountTokensResponse({totalTokens: 31, promptTokensDetails: []}), 31);
		assert.throws(() => decodeGeminiCountTokensResponse({}), /without totalTokens/);
	});
});
