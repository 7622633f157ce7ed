import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import {anthropicAdapter} from '../../../source/formats/anthropic/index.js';
import type {IRErrorKind} from '../../../source/base/ir.js';
import {loadJson} from './fixtures.js';

describe('decodeError', () => {
	test('keeps Anthropic\'s message and maps the type', () => {
		assert.deepEqual(anthropicAdapter.decodeError(529, loadJson('error-overloaded')), {kind: 'overloaded', status: 529, message: 'Overloaded'});
		const invalid = anthropicAdapter.decodeError(400, loadJson('error-invalid-request'));
		assert.equal(invalid.kind, 'invalid_request');
		assert.equal(invalid.status, 400);
		assert.match(invalid.message, /^messages\.1\.content\.0\.type: Expected `thinking`/);
	});

	for (const [type, status, kind] of [
		['authentication_error', 401, 'authentication'],
		['permission_error', 403, 'permission'],
		['not_found_error', 404, 'not_found'],
		['request_too_large', 413, 'payload_too_large'],
		['rate_limit_error', 429, 'rate_limit'],
		['billing_error', 402, 'insufficient_quota'],
		['api_error', 500, 'upstream'],
		['timeout_error', 504, 'timeout'],
	] as const) {
		test(`${type} (${status}) → ${kind}`, () => {
			assert.deepEqual(anthropicAdapter.decodeError(status, {type: 'error', error: {type, message: `m-${type}`}}), {kind, status, message: `m-${type}`});
		});
	}

	test('without a type the status decides; without a body the message says what happened', () => {
		const cases: Array<[number, unknown, IRErrorKind, string]> = [
			[429, {}, 'rate_limit', 'Anthropic answered with HTTP 429.'],
			[503, '<html>Service Unavailable</html>', 'upstream', '<html>Service Unavailable</html>'],
			[422, {error: {message: 'bad thing'}}, 'invalid_request', 'bad thing'],
			[529, null, 'overloaded', 'Anthropic answered with HTTP 529.'],
		];
		for (const [status, body, kind, message] of cases) assert.deepEqual(anthropicAdapter.decodeError(status, body), {kind, status, message});
	});

	test('a mid-stream error (no status) gets the status Anthropic documents for its type', () => {
		assert.equal(anthropicAdapter.decodeError(0, {type: 'error', error: {type: 'rate_limit_error', message: 'x'}}).status, 429);
		assert.equal(anthropicAdapter.decodeError(0, {type: 'error', error: {type: 'something_new', message: 'x'}}).status, 500);
	});

	test('renderError(decodeError(body)) gives the body back', () => {
		const body = loadJson('error-overloaded') as {type: string; error: unknown};
		const rendered = anthropicAdapter.renderError(anthropicAdapter.decodeError(529, body));
		assert.deepEqual(rendered, {status: 529, body: {type: body.type, error: body.error}});
	});
});
