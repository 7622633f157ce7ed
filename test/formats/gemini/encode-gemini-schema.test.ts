import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {encodeGeminiSchema} from '../../../source/formats/gemini/encode-gemini-schema.js';

describe('encodeGeminiSchema', () => {
	it('inlines $ref from $defs and degrades recursion to an untyped schema', () => {
		const cleaned = encodeGeminiSchema({
			type: 'object',
			$defs: {node: {type: 'object', properties: {value: {type: 'string'}, next: {$ref: '#/$defs/node'}}}},
			properties: {head: {$ref: '#/$defs/node', description: 'First node.'}},
		});
		assert.deepEqual(cleaned, {
			type: 'OBJECT',
			properties: {head: {type: 'OBJECT', description: 'First node.', properties: {value: {type: 'STRING'}, next: {}}}},
		});
	});

	it('sends a nested object without properties of its own (a free-form map) untyped: Gemini refuses an OBJECT with no properties', () => {
		// Claude Code's AskUserQuestion tool: `answers` is a map of strings.
		const cleaned = encodeGeminiSchema({
			type: 'object',
			properties: {
				questions: {type: 'array', items: {type: 'object', properties: {question: {type: 'string'}}, required: ['question']}},
				answers: {type: 'object', description: 'User answers', additionalProperties: {type: 'string'}, propertyNames: {type: 'string'}},
				extra: {type: ['object', 'null']},
				list: {type: 'array', items: {type: 'object'}},
				choice: {anyOf: [{type: 'object'}, {type: 'string'}]},
				empty: {type: 'object', properties: {}},
			},
			required: ['questions', 'answers'],
		});
		assert.deepEqual(cleaned, {
			type: 'OBJECT',
			properties: {
				questions: {type: 'ARRAY', items: {type: 'OBJECT', properties: {question: {type: 'STRING'}}, required: ['question']}},
				answers: {description: 'User answers'},
				extra: {nullable: true},
				list: {type: 'ARRAY', items: {}},
				choice: {anyOf: [{}, {type: 'STRING'}]},
				empty: {},
			},
			required: ['questions', 'answers'],
		});
		// The root keeps its type: a tool without parameters is told apart by hasNoProperties.
		assert.deepEqual(encodeGeminiSchema({type: 'object', additionalProperties: false}), {type: 'OBJECT'});
	});

	it('turns null unions into nullable and keeps real unions as anyOf', () => {
		assert.deepEqual(encodeGeminiSchema({anyOf: [{type: 'string'}, {type: 'null'}], description: 'Maybe.'}), {description: 'Maybe.', nullable: true, type: 'STRING'});
		assert.deepEqual(encodeGeminiSchema({oneOf: [{type: 'string'}, {type: 'number'}]}), {anyOf: [{type: 'STRING'}, {type: 'NUMBER'}]});
		assert.deepEqual(encodeGeminiSchema({type: ['string', 'number']}), {anyOf: [{type: 'STRING'}, {type: 'NUMBER'}]});
	});

	it('turns const into an enum of one and keeps non-string literals as a hint', () => {
		assert.deepEqual(encodeGeminiSchema({const: 'fixed'}), {enum: ['fixed'], type: 'STRING'});
		assert.deepEqual(encodeGeminiSchema({type: 'integer', enum: [1, 2]}), {type: 'INTEGER', description: 'Allowed values: 1, 2.'});
	});

	it('merges allOf, keeps only documented formats and drops unknown keywords everywhere', () => {
		const cleaned = encodeGeminiSchema({
			allOf: [{type: 'object', properties: {a: {type: 'string', format: 'uri'}}, required: ['a']}, {properties: {b: {type: 'string', format: 'date-time'}}}],
			propertyNames: {pattern: '^x'},
			patternProperties: {'^x': {type: 'string'}},
			$comment: 'internal',
			uniqueItems: true,
		});
		assert.deepEqual(cleaned, {type: 'OBJECT', properties: {a: {type: 'STRING'}, b: {type: 'STRING', format: 'date-time'}}, required: ['a']});
	});

	it('keeps array items, takes the first tuple member, and drops properties on non-objects', () => {
		assert.deepEqual(encodeGeminiSchema({type: 'array', items: {type: 'string'}, minItems: 1, uniqueItems: true}), {type: 'ARRAY', items: {type: 'STRING'}, minItems: 1});
		assert.deepEqual(encodeGeminiSchema({type: 'array', items: [{type: 'number'}, {type: 'string'}]}), {type: 'ARRAY', items: {type: 'NUMBER'}});
		assert.deepEqual(encodeGeminiSchema({type: 'string', properties: {x: {type: 'string'}}, required: ['x']}), {type: 'STRING'});
	});
});

describe('encodeGeminiSchema: the keywords Gemini rejects (issue 16)', () => {
	it('drops or converts $schema, $comment, uniqueItems, exclusive bounds, enumDescriptions, array types, const and nested anyOf', () => {
		const cleaned = encodeGeminiSchema({
			$schema: 'https://json-schema.org/draft/2020-12/schema',
			$comment: 'generated',
			type: 'object',
			properties: {
				tags: {type: 'array', items: {type: 'string'}, uniqueItems: true},
				ratio: {type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1},
				level: {type: 'string', enum: ['low', 'high'], enumDescriptions: ['Quiet.', 'Loud.']},
				note: {type: ['string', 'null']},
				kind: {const: 'fixed'},
				value: {anyOf: [{anyOf: [{type: 'string'}, {type: 'integer'}]}, {type: 'boolean'}, {type: 'null'}]},
			},
		});
		assert.deepEqual(cleaned, {
			type: 'OBJECT',
			properties: {
				tags: {type: 'ARRAY', items: {type: 'STRING'}},
				ratio: {type: 'NUMBER', minimum: 0, maximum: 1},
				level: {type: 'STRING', enum: ['low', 'high']},
				note: {nullable: true, type: 'STRING'},
				kind: {enum: ['fixed'], type: 'STRING'},
				value: {nullable: true, anyOf: [{type: 'STRING'}, {type: 'INTEGER'}, {type: 'BOOLEAN'}]},
			},
		});
	});
});
