import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {openaiAdapter} from '../../../source/formats/openai/index.js';
import {fixture} from './helpers.js';

describe('openai decodeError', () => {
	it('keeps the message and code of real OpenAI error bodies, kind from the status', () => {
		assert.deepEqual(openaiAdapter.decodeError(401, fixture('error-invalid-api-key')), {
			kind: 'authentication',
			status: 401,
			message: 'Incorrect API key provided: sk-proj-****abcd. You can find your API key at https://platform.openai.com/account/api-keys.',
			code: 'invalid_api_key',
			param: undefined,
		});
		assert.equal(openaiAdapter.decodeError(429, fixture('error-insufficient-quota')).kind, 'insufficient_quota');
		assert.equal(openaiAdapter.decodeError(429, fixture('error-rate-limit')).kind, 'rate_limit');
		const notFound = openaiAdapter.decodeError(404, fixture('error-model-not-found'));
		assert.equal(notFound.kind, 'not_found');
		assert.equal(notFound.code, 'model_not_found');
		const unsupported = openaiAdapter.decodeError(400, fixture('error-max-tokens-unsupported'));
		assert.equal(unsupported.kind, 'invalid_request');
		assert.equal(unsupported.param, 'max_tokens');
	});

	it('reads the shapes OpenAI-compatible servers send', () => {
		assert.equal(openaiAdapter.decodeError(400, {message: "property 'x' is unsupported", type: 'invalid_request_error', code: 'wrong_api_format'}).message, "property 'x' is unsupported");
		assert.equal(openaiAdapter.decodeError(500, {error: 'model crashed'}).message, 'model crashed');
		assert.equal(openaiAdapter.decodeError(502, '<html>Bad gateway</html>').message, '<html>Bad gateway</html>');
		const mistral = openaiAdapter.decodeError(422, {object: 'error', message: {detail: [{type: 'extra_forbidden', loc: ['body', 'max_completion_tokens']}]}, type: 'invalid_request_error'});
		assert.equal(mistral.kind, 'invalid_request');
		assert.match(mistral.message, /extra_forbidden/);
		assert.equal(openaiAdapter.decodeError(503, {}).kind, 'overloaded');
		assert.match(openaiAdapter.decodeError(503, {}).message, /503/);
	});

	it('derives a status for mid-stream errors (which arrive under a 200)', () => {
		const error = openaiAdapter.decodeError(200, {error: {message: 'The server had an error', type: 'server_error', param: null, code: null}});
		assert.equal(error.status, 500);
		assert.equal(error.kind, 'upstream');
		assert.equal(openaiAdapter.decodeError(200, {error: {message: 'slow down', type: 'rate_limit_error'}}).kind, 'rate_limit');
	});

	it('renders gateway errors in the OpenAI shape', () => {
		assert.deepEqual(openaiAdapter.renderError({kind: 'not_found', status: 404, message: 'No channel serves model "x".', code: 'model_not_found'}), {
			status: 404,
			body: {error: {message: 'No channel serves model "x".', type: 'invalid_request_error', param: null, code: 'model_not_found'}},
		});
	});
});
