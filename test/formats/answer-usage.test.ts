/**
 * The usage of a passed-through answer read from its end (formats/answer-usage.ts) against the same
 * answer decoded whole: every recorded answer of every format, each reformatted three ways, and the
 * shapes the tail reader must not be fooled by — where it must give up instead (the caller then
 * parses the whole answer).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {usageFromTail} from '../../source/formats/answer-usage.js';
import {inboundAdapters} from '../../source/formats/index.js';
import type {InboundFormat} from '../../source/base/ir.js';
import {recordingContext} from '../helpers/streams.js';

const fixtures = fileURLToPath(new URL('../fixtures', import.meta.url));

const answers = (format: string): Array<[string, string]> =>
	readdirSync(join(fixtures, format))
		.filter(name => name.endsWith('.json') && !name.startsWith('error-') && !name.startsWith('request-'))
		.map(name => [name, readFileSync(join(fixtures, format, name), 'utf8')]);

const shapes = (text: string): string[] => {
	const value = JSON.parse(text) as unknown;
	return [text, JSON.stringify(value), JSON.stringify(value, null, 2), `\n ${JSON.stringify(value, null, '\t')} \n`];
};

for (const format of ['openai', 'anthropic', 'gemini', 'responses'] as const satisfies readonly InboundFormat[]) {
	test(`${format}: every recorded answer, however spaced, gives the usage the whole decode gives`, () => {
		const adapter = inboundAdapters[format];
		const recorded = answers(format);
		if (format !== 'responses') assert.ok(recorded.length > 0, `no recorded ${format} answers`);
		for (const [name, original] of recorded) {
			for (const text of shapes(original)) {
				const whole = adapter.decodeResponse(JSON.parse(text), recordingContext()).usage;
				assert.deepEqual(usageFromTail(text, adapter.answerUsage), whole, `${name}`);
			}
		}
	});
}

test('reads only the answer’s own usage, and gives up — never guesses — when it has none', () => {
	const openai = inboundAdapters.openai.answerUsage;
	const usage = {prompt_tokens: 5, completion_tokens: 2, total_tokens: 7};
	// A nested "usage" after the top-level one is passed over: the top-level one is read.
	assert.deepEqual(usageFromTail(JSON.stringify({usage, metadata: {usage: {prompt_tokens: 999}}}), openai), openai.decode(usage));
	// Only nested.
	assert.equal(usageFromTail(JSON.stringify({choices: [{usage}]}), openai), undefined);
	// Missing, null, not an object.
	assert.equal(usageFromTail(JSON.stringify({choices: []}), openai), undefined);
	assert.equal(usageFromTail(JSON.stringify({choices: [], usage: null}), openai), undefined);
	assert.equal(usageFromTail('{"usage": 5}', openai), undefined);
	// Not a JSON object at all, or cut off.
	assert.equal(usageFromTail('<html>{"usage":{"prompt_tokens":1}}</html>', openai), undefined);
	assert.equal(usageFromTail(`${JSON.stringify({usage})}`.slice(0, -1), openai), undefined);
	// Text after the object.
	assert.equal(usageFromTail(`${JSON.stringify({usage})} trailing`, openai), undefined);
});

test('reads past strings that quote the key, hold braces or escape quotes', () => {
	const openai = inboundAdapters.openai.answerUsage;
	const usage = {prompt_tokens: 5, completion_tokens: 2, total_tokens: 7};
	const tricky = {choices: [{message: {content: 'he said "usage": {"prompt_tokens": 999} } ] \\'}}], usage, note: '}}]] "usage"', system_fingerprint: 'fp'};
	const text = JSON.stringify(tricky);
	assert.deepEqual(usageFromTail(text, openai), openai.decode(usage));
	// A string value "usage" after the object is not a key.
	assert.deepEqual(usageFromTail(JSON.stringify({usage, kind: 'usage'}), openai), openai.decode(usage));
});

test('Gemini: usageMetadata, or usage_metadata in snake case', () => {
	const gemini = inboundAdapters.gemini.answerUsage;
	const camel = {candidates: [], usageMetadata: {promptTokenCount: 4, candidatesTokenCount: 3, totalTokenCount: 7}};
	const snake = {candidates: [], usage_metadata: {prompt_token_count: 4, candidates_token_count: 3, total_token_count: 7}};
	assert.deepEqual(usageFromTail(JSON.stringify(camel), gemini), inboundAdapters.gemini.decodeResponse(camel, recordingContext()).usage);
	assert.deepEqual(usageFromTail(JSON.stringify(snake), gemini), inboundAdapters.gemini.decodeResponse(snake, recordingContext()).usage);
});
