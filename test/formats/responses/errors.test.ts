import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {responsesAdapter} from '../../../source/formats/responses/index.js';

describe('responses errors', () => {
	it('renders OpenAI\'s error shape with the codes Codex acts on', () => {
		assert.deepEqual(responsesAdapter.renderError({kind: 'rate_limit', status: 429, message: 'Slow down.'}), {
			status: 429,
			body: {error: {message: 'Slow down.', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded'}},
		});
		const context = responsesAdapter.renderError({kind: 'invalid_request', status: 400, message: 'prompt is too long: 300000 tokens > 200000 maximum', code: 'invalid_request'});
		assert.equal((context.body.error as {code: string}).code, 'context_length_exceeded');
		const own = responsesAdapter.renderError({kind: 'not_found', status: 404, message: 'No such model.', code: 'model_not_found', param: 'model'});
		assert.deepEqual(own.body, {error: {message: 'No such model.', type: 'invalid_request_error', param: 'model', code: 'model_not_found'}});
	});

	it('decodes an upstream error body keeping its message and code', () => {
		assert.deepEqual(responsesAdapter.decodeError(429, {error: {message: 'Quota.', type: 'insufficient_quota', code: 'insufficient_quota', param: null}}), {
			kind: 'insufficient_quota',
			status: 429,
			message: 'Quota.',
			code: 'insufficient_quota',
			param: undefined,
		});
	});
});
