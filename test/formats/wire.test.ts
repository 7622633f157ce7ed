import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {jsonNumber, toJsonValue} from '../../source/formats/wire.js';

describe('toJsonValue', () => {
	it('drops undefined keys at any depth, keeps the order of the rest, and turns undefined array items into null', () => {
		const value = {a: 1, b: undefined, c: {d: undefined, e: 'x', f: [1, undefined, {g: undefined, h: true}]}, i: null};
		const json = toJsonValue(value);
		assert.deepEqual(json, {a: 1, c: {e: 'x', f: [1, null, {h: true}]}, i: null});
		assert.deepEqual(Object.keys(json as object), ['a', 'c', 'i']);
		assert.equal(JSON.stringify(json), JSON.stringify(value));
	});

	it('writes what JSON.stringify writes, for every shape of undefined', () => {
		const cases: unknown[] = [
			{a: undefined},
			{a: undefined, b: 2},
			{a: 1, b: undefined},
			[undefined],
			[[undefined, 1], {x: [undefined]}],
			{deep: {deeper: {deepest: undefined, kept: 'yes'}, same: {n: 1}}, list: [{t: 'a'}, {t: 'b', c: undefined}]},
		];
		for (const value of cases) assert.equal(JSON.stringify(toJsonValue(value)), JSON.stringify(value));
	});

	it('returns what has nothing to drop as it is, and copies only the objects on the way to what changed', () => {
		const messages = [{role: 'user', content: [{type: 'text', text: 'hi'}]}];
		const tools = [{name: 't', schema: {type: 'object'}}];
		const body = {model: 'm', messages, system: undefined, tools};
		const json = toJsonValue(body) as {messages: unknown; tools: unknown};
		assert.notEqual(json, body);
		assert.equal(json.messages, messages);
		assert.equal(json.tools, tools);
		assert.equal(toJsonValue(messages), messages);
		const changed = [{a: 1}, {b: undefined}, {c: 3}];
		const copied = toJsonValue(changed) as unknown[];
		assert.notEqual(copied, changed);
		assert.equal(copied[0], changed[0]);
		assert.deepEqual(copied[1], {});
		assert.equal(copied[2], changed[2]);
		// The argument is left as it was.
		assert.deepEqual(Object.keys(body), ['model', 'messages', 'system', 'tools']);
		assert.equal(changed.length, 3);
	});
});

describe('jsonNumber', () => {
	it('is JSON.stringify of a number', () => {
		for (const value of [0, -0, 1, -17, 0.1, 1e21, 1.5e-7, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity]) assert.equal(jsonNumber(value), JSON.stringify(value));
	});
});
