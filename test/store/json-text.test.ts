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
