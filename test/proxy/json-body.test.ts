/**
 * The checks that decide whether a client's own bytes may go upstream (`clientBytes`) and whether a
 * body needs the `__proto__` reviver (`parseJsonBody`). They run over every request's whole text, so
 * they search for patterns that are fast to find (no leading quote, no case-blind regex); these tests
 * hold them to what the plain definitions say.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {FastifyRequest} from 'fastify';
import {clientBytes, parseJsonBody} from '../../source/proxy/json-body.js';

const requestOf = (text: string, body: unknown) => ({jsonText: text, body}) as unknown as FastifyRequest;
const bytesOf = (text: string, once: readonly string[]) => {
	const body = {};
	return clientBytes(requestOf(text, body), body, once);
};

test('a key the gateway routes by may be a key once; twice sends the body re-encoded — keys that merely end the same, and values, do not count', () => {
	assert.equal(bytesOf('{"model":"a","messages":[]}', ['model']), '{"model":"a","messages":[]}');
	assert.equal(bytesOf('{"model":"a","model":"b"}', ['model']), null);
	assert.equal(bytesOf('{"model" :"a", "x": {"model": "b"}}', ['model']), null, 'nested counts too: the search is textual, and safe');
	const upstream = '{"upstream":"x","stream":true,"unstream":1,"text":"the stream\\" ends"}';
	assert.equal(bytesOf(upstream, ['stream']), upstream, '"upstream", "unstream" and an escaped quote inside a string are not "stream"');
	assert.equal(bytesOf('{"stream":true,"stream":false}', ['model', 'stream']), null);
	assert.equal(bytesOf('{"stream_options":{},"stream":true}', ['stream']), '{"stream_options":{},"stream":true}');
	assert.equal(bytesOf('{"model":"a",\n  "model"\r\n\t :"b"}', ['model']), null, 'whitespace between a key and its colon');
	const values = '{"model":"a","contents":[{"role":"model","parts":[{"text":"\\"model\\": is a key in JSON"}]}]}';
	assert.equal(bytesOf(values, ['model']), values, 'a value, and a key inside a string, are not keys');
	const many = '{"model":"a","stream":true,"previous_response_id":"r","conversation":"c","input":[{"x":1},{"previous_response_id":2}]}';
	assert.equal(bytesOf(many, ['model', 'stream', 'conversation']), many);
	assert.equal(bytesOf(many, ['model', 'stream', 'previous_response_id', 'conversation']), null, 'each key counted on its own, all in one pass');
});

test('an escaped ASCII letter, digit or underscore sends the body re-encoded, as the definition /\\\\u00[4-7][0-9a-f]/i says, for every pair of digits', () => {
	const definition = /\\u00[4-7][0-9a-f]/i;
	for (let high = 0x20; high < 0x7f; high++) {
		for (let low = 0x20; low < 0x7f; low++) {
			const text = `{"model":"x","content":"a\\u00${String.fromCharCode(high, low)}b"}`;
			assert.equal(bytesOf(text, ['model']) === null, definition.test(text), text);
		}
	}
	assert.equal(bytesOf('{"m\\u006Fdel":"a"}', ['model']), null, 'upper-case hex');
	assert.equal(bytesOf('{"content":"caf\\u00e9 \\u00E9"}', ['model']), '{"content":"caf\\u00e9 \\u00E9"}', 'escapes of other characters stay');
	assert.equal(bytesOf('{"content":"ends with \\u00', ['model']), '{"content":"ends with \\u00', 'a cut-off escape at the end');
});

test('__proto__ as a key is refused; as text inside a string it is not', () => {
	assert.throws(() => parseJsonBody('{"model":"a","__proto__":{"admin":true}}', 64), /__proto__/);
	assert.throws(() => parseJsonBody('{"a":{"__proto__":1}}', 64), /__proto__/);
	assert.deepEqual(parseJsonBody('{"content":"what is __proto__ in JavaScript?"}', 64), {content: 'what is __proto__ in JavaScript?'});
	assert.deepEqual(parseJsonBody('{"content":"a \\"__proto__\\" quoted"}', 64), {content: 'a "__proto__" quoted'});
});
