/** Values are written and read as keyv's own serializer did, so stores written before read the same. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {defaultDeserialize, defaultSerialize} from '@keyv/serialize';
import {parseStored, storeText} from '../../source/store/json-text.js';

test('storeText writes what @keyv/serialize wrote for plain data, and parseStored reads both back', () => {
	const values = [{value: {name: ':colon first', nested: [':x', 'plain', 3, null, true], deep: {text: '::two'}}, expires: null}, {value: 'just a string', expires: 1_700_000_000_000}, {value: [1, 'a', {b: ':c'}]}];
	for (const value of values) {
		assert.equal(storeText(value), defaultSerialize(value));
		assert.deepEqual(parseStored(defaultSerialize(value)), value);
		assert.deepEqual(defaultDeserialize(storeText(value)), value);
	}
});

test('a string starting with a colon is escaped wherever it sits; text without one takes the fast path and reads back the same', () => {
	const values: unknown[] = [':top', [':first', 'b'], ['a', ':second'], {k: ':v'}, {':key': 'value'}, {':key': ':value'}, {quoted: 'a ",": b', colon: 'x:":y'}, {records: [{id: 'r1', text: 'plain'}, {id: 'r2', text: ':x'}]}, {plain: ['a', 1, null, {b: 'c:d'}]}];
	for (const value of values) {
		assert.equal(storeText(value), defaultSerialize(value), JSON.stringify(value));
		assert.deepEqual(parseStored(storeText(value)), value, JSON.stringify(value));
		assert.deepEqual(defaultDeserialize(storeText(value)), value, JSON.stringify(value));
	}
});
