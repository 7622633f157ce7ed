import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {geminiAdapter} from '../../../source/formats/gemini/index.js';
import {loadJson} from './fixtures.js';

describe('gemini decodeError', () => {
	it('keeps the message and reads the retry delay of a 429', () => {
		assert.deepEqual(geminiAdapter.decodeError(429, loadJson('error-rate-limit')), {
			kind: 'rate_limit',
			status: 429,
			message: 'You exceeded your current quota, please check your plan.',
			code: 'RESOURCE_EXHAUSTED',
			retryAfter: '35',
		});
	});

	it('reads a bad API key as an authentication failure (401) even though Gemini answers 400', () => {
		const error = geminiAdapter.decodeError(400, loadJson('error-api-key'));
		assert.equal(error.kind, 'authentication');
		// 401, as other providers answer a refused key: the proxy then says the channel's key is wrong (502), not the client's.
		assert.equal(error.status, 401);
		assert.equal(error.code, 'API_KEY_INVALID');
		assert.equal(error.message, 'API key not valid. Please pass a valid API key.');
	});

	it('maps INVALID_ARGUMENT, array-wrapped bodies and bodies without JSON', () => {
		assert.equal(geminiAdapter.decodeError(400, loadJson('error-invalid-argument')).kind, 'invalid_request');
		assert.equal(geminiAdapter.decodeError(404, [{error: {code: 404, message: 'models/x is not found', status: 'NOT_FOUND'}}]).kind, 'not_found');
		assert.deepEqual(geminiAdapter.decodeError(502, 'Bad Gateway'), {kind: 'upstream', status: 502, message: 'Bad Gateway'});
		assert.equal(geminiAdapter.decodeError(503, undefined).kind, 'overloaded');
	});

	it('renders an IR error as Google does, and reads it back', () => {
		const rendered = geminiAdapter.renderError({kind: 'permission', status: 403, message: 'Key revoked.'});
		assert.deepEqual(rendered, {status: 403, body: {error: {code: 403, message: 'Key revoked.', status: 'PERMISSION_DENIED'}}});
		assert.deepEqual(geminiAdapter.decodeError(rendered.status, rendered.body), {kind: 'permission', status: 403, message: 'Key revoked.', code: 'PERMISSION_DENIED'});
	});
});
