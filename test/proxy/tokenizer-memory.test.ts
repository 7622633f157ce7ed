/**
 * The tokenizer remembers the counts of texts it has seen (a client sends its whole conversation
 * again every turn): the same results as counting afresh, the BPE work done once per text, and the
 * memory it keeps bounded.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import type {IRRequest} from '../../source/base/ir.js';
import {BytePairCounter} from '../../source/proxy/bpe.js';
import {Tokenizer} from '../../source/proxy/tokenizer.js';

const prose = 'Some earlier turn of a long coding session, with code: function f(x) { return x * 2; } '.repeat(20);
/** Runs without spaces, which the tokenizer counts in slices from a budget of their own (8 KB a count). */
const blob = (seed: number) => Buffer.alloc(1500, `b64-${seed}-`).toString('base64');

function conversation(turns: number): IRRequest {
	return {
		model: 'm',
		system: [{text: 'You are a coding agent. '.repeat(100)}],
		messages: Array.from({length: turns}, (_, index) => ({role: index % 2 ? ('assistant' as const) : ('user' as const), parts: [{type: 'text' as const, text: index % 3 === 0 ? `${blob(index)} ${prose}` : `${prose}${index}`}]})),
		tools: [],
		stream: true,
	};
}

/** The characters the byte-pair counter counts during `run` (its class, watched from outside). */
function encodedChars(run: () => void): number {
	const count = BytePairCounter.prototype.count;
	let chars = 0;
	BytePairCounter.prototype.count = function (this: BytePairCounter, text: string) {
		chars += text.length;
		return count.call(this, text);
	};
	try {
		run();
	} finally {
		BytePairCounter.prototype.count = count;
	}
	return chars;
}

/** A tokenizer that remembers nothing: every count from scratch (its BPE tables load once, as a gateway's do). */
const forgetting = new Tokenizer(0);

test('a conversation growing turn by turn is counted as a tokenizer that remembers nothing counts it, every turn', () => {
	const remembering = new Tokenizer();
	for (let turns = 1; turns <= 120; turns += 7) {
		const request = conversation(turns);
		assert.equal(remembering.estimate(request), forgetting.estimate(request), `estimate, ${turns} turns`);
		assert.equal(remembering.count(request), forgetting.count(request), `count, ${turns} turns`);
	}
	assert.equal(forgetting.rememberedCharacters, 0);
});

test('the texts of earlier turns are not tokenized again', () => {
	const tokenizer = new Tokenizer();
	const request = conversation(60);
	// What a budget ends in is counted in part, every time: at most one message's text.
	const oneText = Math.max(...request.messages.map(message => (message.parts[0]!.type === 'text' ? message.parts[0]!.text.length : 0)));
	const first = encodedChars(() => tokenizer.estimate(request));
	assert.ok(first > 20_000, `the first count tokenizes the prompt (${first} characters)`);
	const second = encodedChars(() => tokenizer.estimate(request));
	assert.ok(second < oneText, `the same request again: only the text the budget ends in, counted in part (${second} characters)`);
	const next = {...request, messages: [...request.messages, {role: 'user' as const, parts: [{type: 'text' as const, text: `the next turn ${prose}`}]}]};
	const again = encodedChars(() => tokenizer.count(next));
	assert.ok(again > 0, `count_tokens, whose budget is larger, tokenizes what the estimate did not reach (${again} characters)`);
	const repeat = encodedChars(() => tokenizer.count(next));
	assert.ok(repeat < oneText, `count_tokens again: only the text its budget ends in (${repeat} characters)`);
});

test('what it remembers stays within its limit, the least recently used going first', () => {
	const tokenizer = new Tokenizer(20_000);
	for (let turns = 1; turns <= 80; turns += 3) {
		tokenizer.count(conversation(turns));
		assert.ok(tokenizer.rememberedCharacters <= 20_000, `${tokenizer.rememberedCharacters} characters remembered`);
	}
	assert.ok(tokenizer.rememberedCharacters > 10_000, 'it does remember');
	const request = conversation(3);
	assert.equal(tokenizer.count(request), forgetting.count(request));
});
