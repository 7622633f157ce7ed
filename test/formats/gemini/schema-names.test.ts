import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';
import {compoundFields, pick} from '../../../source/formats/gemini/schema.js';

const folder = join(import.meta.dirname, '../../../source/formats/gemini');

test('pick() reads a field by its camelCase name or its snake_case twin, for the known names and any other', () => {
	for (const name of [...compoundFields, 'someNewFieldName', 'aB', 'text']) {
		const snake = name.replace(/[A-Z]/g, letter => `_${letter.toLowerCase()}`);
		assert.equal(pick({[name]: 1}, name), 1, name);
		assert.equal(pick({[snake]: 2}, name), 2, snake);
		if (snake !== name) assert.equal(pick({[name]: 3, [snake]: 4}, name), 3, 'the camelCase name first');
		assert.equal(pick({}, name), undefined);
	}
});

test("every compound field name the Gemini readers pick has its twin worked out in advance (else it is rebuilt on each read)", () => {
	const picked = new Set<string>();
	for (const file of readdirSync(folder).filter(name => name.endsWith('.ts'))) {
		for (const match of readFileSync(join(folder, file), 'utf8').matchAll(/pick(?:String|Number|Record|Array)?\([^,()]+, '([A-Za-z]+)'/g)) if (/[A-Z]/.test(match[1]!)) picked.add(match[1]!);
	}
	assert.ok(picked.size > 20, `the readers were found (${picked.size} names)`);
	assert.deepEqual([...picked].filter(name => !compoundFields.includes(name)).sort(), []);
});
