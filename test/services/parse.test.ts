import {test} from 'node:test';
import assert from 'node:assert/strict';
import {parseBaseUrl, parseDuration, parseExpiry, parseList, parseModels} from '../../source/services/parse.js';
import {UserError} from '../../source/base/errors.js';

test('durations in s, m, h, d, w', () => {
	assert.equal(parseDuration('10s'), 10_000);
	assert.equal(parseDuration('45m'), 2_700_000);
	assert.equal(parseDuration('12h'), 43_200_000);
	assert.equal(parseDuration('30d'), 2_592_000_000);
	for (const bad of ['', '10', 'd', '1.5h', '0s', '-1d', '10y']) assert.throws(() => parseDuration(bad), UserError, bad);
});

test('expiry: in, at, never; refuses the past and both at once', () => {
	const now = new Date('2026-01-01T00:00:00Z');
	assert.equal(parseExpiry({expiresIn: '1d'}, now), '2026-01-02T00:00:00.000Z');
	assert.equal(parseExpiry({expiresAt: '2026-03-01T00:00:00Z'}, now), '2026-03-01T00:00:00.000Z');
	assert.equal(parseExpiry({}, now), null);
	assert.throws(() => parseExpiry({expiresAt: '2025-12-31'}, now), /in the past/);
	assert.throws(() => parseExpiry({expiresAt: 'tomorrow'}, now), /ISO-8601/);
	assert.throws(() => parseExpiry({expiresIn: '1d', expiresAt: '2026-03-01'}, now), /not both/);
});

test('model lists with aliases', () => {
	assert.deepEqual(parseModels('gpt-4o, fast=gpt-4o-mini'), [
		{name: 'gpt-4o', upstream: 'gpt-4o'},
		{name: 'fast', upstream: 'gpt-4o-mini'},
	]);
	assert.throws(() => parseModels(''), /empty/);
	assert.throws(() => parseModels(' , '), /empty/);
	assert.throws(() => parseModels('a=b=c'), /ALIAS=UPSTREAM/);
	assert.throws(() => parseModels('a=,b'), /ALIAS=UPSTREAM/);
	assert.throws(() => parseModels('a,a=b'), /twice/);
	assert.deepEqual(parseList('a, b,,a'), ['a', 'b']);
});

test('base URLs must be http(s)', () => {
	assert.equal(parseBaseUrl('https://api.openai.com/v1/'), 'https://api.openai.com/v1');
	assert.equal(parseBaseUrl('http://localhost:11434'), 'http://localhost:11434');
	assert.throws(() => parseBaseUrl('ftp://example.com'), /http/);
	assert.throws(() => parseBaseUrl('api.openai.com'), /full http/);
	assert.throws(() => parseBaseUrl('https://x.test/v1?key=1'), /query/);
});
