import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {
	decodeAnthropicCountTokensRequest,
	decodeAnthropicCountTokensResponse,
	encodeAnthropicCountTokensRequest,
	encodeAnthropicCountTokensResponse,
} from '../../../source/formats/anthropic/index.js';
import {GatewayError} from '../../../source/base/errors.js';
import {validateAnthropicBody} from '../../helpers/fake-providers/anthropic-validate.js';
import {loadJson, recordingContext} from './fixtures.js';

const target = {model: 'claude-haiku-4-5', stream: true, baseUrl: 'https://api.anthropic.com', defaultMaxTokens: 4096};

describe('count_tokens', () => {
	test('a Claude Code count request (no max_tokens) decodes like a messages request', () => {
		const {max_tokens: _max, stream: _stream, ...body} = loadJson('request-claude-code') as Record<string, unknown>;
		const ir = decodeAnthropicCountTokensRequest(body, recordingContext());
		assert.equal(ir.maxTokens, undefined);
		assert.equal(ir.stream, false);
		assert.equal(ir.messages.length, 3);
		assert.equal(ir.system.length, 4);
	});

	test('the encoded request has only the fields the endpoint accepts', () => {
		const ir = decodeAnthropicCountTokensRequest(loadJson('request-claude-code'), recordingContext());
		const {path, body} = encodeAnthropicCountTokensRequest({...ir, stop: ['x'], topK: 3, user: 'u'}, target, recordingContext());
		assert.equal(path, '/v1/messages/count_tokens');
		assert.deepEqual(Object.keys(body).sort(), ['messages', 'model', 'system', 'thinking', 'tools']);
		assert.equal(body.model, 'claude-haiku-4-5');
		assert.equal(validateAnthropicBody(body, {countTokens: true, version: '2023-06-01', betas: ''})?.message, undefined);
	});

	test('the answer both ways', () => {
		assert.deepEqual(encodeAnthropicCountTokensResponse(2095), {input_tokens: 2095});
		assert.equal(decodeAnthropicCountTokensResponse({input_tokens: 2095}), 2095);
		assert.throws(() => decodeAnthropicCountTokensResponse({tokens: 1}), (error: unknown) => error instanceof GatewayError && error.status === 502);
	});
});
