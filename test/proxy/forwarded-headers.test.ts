/**
 * Which of a provider's response headers reach the client (source/proxy/client-stream.ts): the
 * content type, retry-after, the provider's request id (renamed so it cannot be taken for the
 * gateway's), OpenAI's processing time and every rate-limit header — nothing else (no cookies, no
 * server or connection headers), and never a secret (the scrubber masks header values).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {forwardedHeaders} from '../../source/proxy/client-stream.js';
import {Scrubber} from '../../source/base/secrets.js';

test('forwards the content type, retry-after, request ids (renamed), processing time and rate-limit headers only', () => {
	const forwarded = forwardedHeaders({
		'content-type': 'application/json',
		'retry-after': '3',
		'x-request-id': 'req_1',
		'request-id': 'req_2',
		'openai-processing-ms': '12',
		'anthropic-ratelimit-requests-remaining': '99',
		'x-ratelimit-limit-tokens': '1000',
		'set-cookie': ['a=1', 'b=2'],
		server: 'cloudflare',
		connection: 'keep-alive',
		'content-length': '42',
		'x-ratelimit': 'not a rate-limit header of either family',
		'openai-organization': 'org-secret',
		missing: undefined,
	});
	assert.deepEqual(forwarded, {
		'content-type': 'application/json',
		'retry-after': '3',
		'upstream-x-request-id': 'req_1',
		'upstream-request-id': 'req_2',
		'openai-processing-ms': '12',
		'anthropic-ratelimit-requests-remaining': '99',
		'x-ratelimit-limit-tokens': '1000',
	});
});

test('a header sent twice is joined; names in other cases are matched', () => {
	assert.deepEqual(forwardedHeaders({'Content-Type': 'text/event-stream', 'X-RateLimit-Remaining-Requests': ['5', '6']}), {'Content-Type': 'text/event-stream', 'X-RateLimit-Remaining-Requests': '5, 6'});
});

test('scrubHeaders masks a secret in any value and keeps the rest', () => {
	const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
	const scrubbed = new Scrubber([secret]).scrubHeaders({'x-ratelimit-note': `key ${secret} limited`, 'content-type': 'application/json'});
	assert.equal(scrubbed['content-type'], 'application/json');
	assert.ok(!scrubbed['x-ratelimit-note']!.includes(secret));
	assert.match(scrubbed['x-ratelimit-note']!, /^key .+ limited$/);
});
