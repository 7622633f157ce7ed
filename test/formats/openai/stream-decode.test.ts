import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import type {IRStreamEvent} from '../../../source/base/ir.js';
import {openaiAdapter} from '../../../source/formats/openai/index.js';
import {OpenaiStreamDecoder, plainContentDelta} from '../../../source/formats/openai/decode-openai-stream.js';
import {chunkLines, collect, sseMessages, testContext} from './helpers.js';
import {randomOf} from '../../helpers/random.js';

const decode = async (lines: readonly string[]) => collect(openaiAdapter.decodeStream(sseMessages(lines), testContext()));

describe('openai decodeStream', () => {
	it('decodes a text stream delta by delta, finishing with the usage chunk that follows finish_reason', async () => {
		const events = await decode(chunkLines('text'));
		assert.deepEqual(events, [
			{type: 'start', id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0', model: 'gpt-4.1-nano-2025-04-14'},
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			{type: 'text-delta', index: 0, text: '**'},
			{type: 'text-delta', index: 0, text: 'Holiday'},
			{type: 'text-delta', index: 0, text: ' Name'},
			{type: 'text-delta', index: 0, text: ':**'},
			{type: 'text-delta', index: 0, text: ' Harmony'},
			{type: 'text-delta', index: 0, text: ' Day'},
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 16, outputTokens: 300}},
		]);
	});

	it('decodes a tool call whose arguments arrive in many pieces', async () => {
		const events = await decode(chunkLines('tool-call'));
		assert.deepEqual(events, [
			{type: 'start', id: 'chatcmpl-96aZqmeDpA9IPD6tACY8djkMsJCMP', model: 'gpt-3.5-turbo-0125'},
			{type: 'block-start', index: 0, block: {kind: 'tool_call', id: 'call_O17Uplv4lJvD6DVdIvFFeRMw', name: 'test-tool'}},
			{type: 'tool-args-delta', index: 0, json: '{"'},
			{type: 'tool-args-delta', index: 0, json: 'value'},
			{type: 'tool-args-delta', index: 0, json: '":"'},
			{type: 'tool-args-delta', index: 0, json: 'Spark'},
			{type: 'tool-args-delta', index: 0, json: 'le'},
			{type: 'tool-args-delta', index: 0, json: ' Day'},
			{type: 'tool-args-delta', index: 0, json: '"}'},
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 53, outputTokens: 17}},
		]);
	});

	it('decodes parallel tool calls as two blocks, arguments joined per call', async () => {
		const events = await decode(chunkLines('parallel-tool-calls'));
		const starts = events.filter((event): event is Extract<IRStreamEvent, {type: 'block-start'}> => event.type === 'block-start');
		assert.deepEqual(
			starts.map(event => [event.index, event.block]),
			[
				[0, {kind: 'tool_call', id: 'call_12345xyz', name: 'get_weather'}],
				[1, {kind: 'tool_call', id: 'call_67890abc', name: 'get_weather'}],
			],
		);
		const args = (index: number) =>
			events.flatMap(event => (event.type === 'tool-args-delta' && event.index === index ? [event.json] : [])).join('');
		assert.equal(args(0), '{"location": "Paris, France"}');
		assert.equal(args(1), '{"location": "Bogotá, Colombia"}');
		assert.deepEqual(events.slice(-3), [
			{type: 'block-end', index: 0},
			{type: 'block-end', index: 1},
			{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 82, outputTokens: 49}},
		]);
	});

	it('decodes interleaved tool-call pieces (each delta keyed by its index)', async () => {
		const events = await decode([
			'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"a","arguments":"{\\"x\\":"}}]}}]}',
			'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"b","arguments":"{\\"y\\":"}}]}}]}',
			'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}',
			'{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"2}"}}]}}]}',
			'{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
			'[DONE]',
		]);
		assert.deepEqual(
			events.filter(event => event.type === 'tool-args-delta'),
			[
				{type: 'tool-args-delta', index: 0, json: '{"x":'},
				{type: 'tool-args-delta', index: 1, json: '{"y":'},
				{type: 'tool-args-delta', index: 0, json: '1}'},
				{type: 'tool-args-delta', index: 1, json: '2}'},
			],
		);
	});

	it('starts a new call when a server reuses index 0 with a new id, and names calls that arrive without an id', async () => {
		const events = await decode([
			'{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"a","arguments":"{}"}}]}}]}',
			'{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_2","function":{"name":"b","arguments":"{}"}}]}}]}',
			'{"choices":[{"delta":{"tool_calls":[{"index":5,"function":{"name":"c","arguments":{"k":1}}}]}}]}',
			'{"choices":[{"finish_reason":"tool_calls"}]}',
			'[DONE]',
		]);
		const starts = events.flatMap(event => (event.type === 'block-start' && event.block.kind === 'tool_call' ? [event.block] : []));
		assert.deepEqual(starts.map(block => block.name), ['a', 'b', 'c']);
		assert.equal(starts[1].id, 'call_2');
		assert.match(starts[2].id, /^call_/);
		assert.ok(events.some(event => event.type === 'tool-args-delta' && event.json === '{"k":1}'));
	});

	it('decodes DeepSeek reasoning_content as a reasoning block before the text block', async () => {
		const events = await decode(chunkLines('thinking'));
		assert.deepEqual(events, [
			{type: 'start', id: '3f1b2c1e-8d7a-4c5e-9f0b-2a6d4e8c1b7f', model: 'deepseek-reasoner'},
			{type: 'block-start', index: 0, block: {kind: 'reasoning'}},
			{type: 'reasoning-delta', index: 0, text: 'Okay'},
			{type: 'reasoning-delta', index: 0, text: ', the user asks'},
			{type: 'reasoning-delta', index: 0, text: ' which is larger: 9.11 or 9.8.'},
			{type: 'block-end', index: 0},
			{type: 'block-start', index: 1, block: {kind: 'text'}},
			{type: 'text-delta', index: 1, text: '9.8'},
			{type: 'text-delta', index: 1, text: ' is larger.'},
			{type: 'block-end', index: 1},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 13, outputTokens: 228, reasoningTokens: 214}},
		]);
	});

	it('carries cached and reasoning tokens from the usage chunk', async () => {
		const events = await decode(chunkLines('usage-cached'));
		assert.deepEqual(events.at(-1), {
			type: 'finish',
			reason: 'stop',
			usage: {inputTokens: 2006, outputTokens: 300, cachedTokens: 1920, reasoningTokens: 192},
		});
	});

	it('turns a mid-stream error frame into one IR error event, and stops there', async () => {
		const events = await decode(chunkLines('mid-stream-error'));
		assert.deepEqual(events.slice(-1), [
			{
				type: 'error',
				error: {
					kind: 'upstream',
					status: 500,
					message: 'The server had an error while processing your request. Sorry about that!',
					code: undefined,
					param: undefined,
				},
			},
		]);
		assert.equal(events.filter(event => event.type === 'finish').length, 0);
		assert.ok(events.some(event => event.type === 'text-delta' && event.text === 'Hello'));
	});

	it('ends with an error when the body ends before finish_reason and [DONE], and finishes when only [DONE] is missing', async () => {
		const cut = await decode(chunkLines('text').slice(0, 4));
		assert.equal(cut.at(-1)?.type, 'error');
		const noDone = await decode(chunkLines('text').filter(line => line !== '[DONE]'));
		assert.deepEqual(noDone.at(-1), {type: 'finish', reason: 'stop', usage: {inputTokens: 16, outputTokens: 300}});
	});

	it('reports a chunk that is not JSON as an upstream error', async () => {
		const events = await decode(['{"choices":[{"delta":{"content":"a"}}]}', 'not json']);
		assert.equal(events.at(-1)?.type, 'error');
	});
});

describe('content deltas read without a parse (plainContentDelta)', () => {
	const pick = <T>(random: (below: number) => number, items: readonly T[]): T => items[random(items.length)]!;

	const texts = ['Hello', '', ' ', 'line\nbreak', 'quote " inside', 'back\\slash', 'é 漢字 🙂', '\u2028', '\u0000\u001f', '\ud800 lone', '"}]}', 'a\\'];
	// Raw JSON values, some not JSON at all (the chunk must then fail the same way either way).
	const values = ['"x"', '""', '"a\\"b"', '"é"', '1', '0', '-3', '01', '1.5', '1e3', 'null', 'true', 'false', '{}', '{"a":1}', '[]', '"\\x"', 'nul'];
	const topKeys = ['id', 'object', 'created', 'model', 'system_fingerprint', 'service_tier', 'obfuscation', 'provider', 'usage', 'error', 'choices', 'Model', 'x-y'];
	const choiceKeys = ['logprobs', 'finish_reason', 'native_finish_reason', 'delta', 'index', 'x'];
	const deltaKeys = ['refusal', 'role', 'content', 'annotations', 'reasoning_content', 'tool_calls'];

	function randomChunk(random: (below: number) => number): string {
		const text = JSON.stringify(pick(random, texts));
		// Half the deltas as providers write them; the other half with faults and extras of every kind.
		if (random(2) === 0) {
			const extra = pick(random, ['', '"service_tier":"default","system_fingerprint":"fp_1",', '"provider":"OpenAI",', '"system_fingerprint":null,']);
			const after = pick(random, ['', ',"usage":null', ',"usage":null,"obfuscation":"Qup1"']);
			const choiceAfter = pick(random, [',"logprobs":null,"finish_reason":null', ',"finish_reason":null,"native_finish_reason":null,"logprobs":null', '']);
			return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1770933892,"model":"m",${extra}"choices":[{"index":0,"delta":{${random(4) === 0 ? '"role":"assistant",' : ''}"content":${text}}${choiceAfter}}]${after}}`;
		}
		// Mostly the forms providers write, with a fault or an extra now and then.
		const content = random(10) === 0 ? pick(random, [`"\\x"`, 'null', '1', `"raw\ncontrol"`]) : text;
		let delta = `${random(3) === 0 ? '"role":"assistant",' : ''}"content":${content}`;
		for (let index = 0; index < random(3); index++) delta += `,"${pick(random, deltaKeys)}":${random(5) === 0 ? pick(random, values) : 'null'}`;
		if (random(8) === 0) delta = `"role":"assistant","content":${text}`.split(',').reverse().join(',');
		let choice = `{"index":${random(8) === 0 ? 1 : 0},"delta":{${delta}}`;
		for (let index = 0; index < random(4); index++) choice += `,"${pick(random, choiceKeys)}":${random(5) === 0 ? pick(random, values) : random(6) === 0 ? '"stop"' : 'null'}`;
		choice += '}';
		const choices = random(10) === 0 ? `[${choice},${choice}]` : random(12) === 0 ? '[]' : `[${choice}]`;
		const parts = [`"choices":${choices}`];
		for (let index = 0; index < random(7); index++) {
			const key = random(4) === 0 ? pick(random, topKeys) : pick(random, topKeys.slice(0, 7));
			const value = key === 'usage' ? (random(3) === 0 ? '{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}' : 'null') : random(4) === 0 ? pick(random, values) : '"x"';
			parts.splice(random(parts.length + 1), 0, `"${key}":${value}`);
		}
		const chunk = `{${parts.join(',')}}`;
		return random(20) === 0 ? chunk.replace(':', ': ') : chunk;
	}

	it('a stream decodes to the same events whether its deltas are read without a parse or parsed whole', () => {
		const random = randomOf(20261127);
		let quick = 0;
		for (let round = 0; round < 1500; round++) {
			const first = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}';
			const chunks = [first];
			for (let index = 0; index < 1 + random(6); index++) chunks.push(randomChunk(random));
			chunks.push('{"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}', '[DONE]');
			for (const chunk of chunks.slice(1)) if (plainContentDelta(chunk) !== undefined) quick++;
			const run = (data: readonly string[]) => {
				const decoder = new OpenaiStreamDecoder(testContext());
				const events: IRStreamEvent[] = [];
				for (const chunk of data) {
					events.push(...decoder.push({data: chunk}));
					if (decoder.done) break;
				}
				events.push(...decoder.end());
				return events;
			};
			// A space in front is still JSON, but never a plain delta: that stream is parsed whole (an
			// error that quotes a chunk quotes the space too, and 200 characters of it).
			const quoted = (events: IRStreamEvent[]) =>
				events.map(event => (event.type === 'error' ? {...event, error: {...event.error, message: event.error.message.replace(/not JSON: (.*)$/s, (_, data: string) => `not JSON: ${data.trimStart().slice(0, 150)}`)}} : event));
			assert.deepEqual(quoted(run(chunks)), quoted(run(chunks.map(chunk => ` ${chunk}`))), JSON.stringify(chunks));
		}
		assert.ok(quick > 2000, `${quick} deltas read without a parse`);
	});

	it("reads OpenAI's own deltas, OpenRouter's and vLLM's without a parse, and nothing that says more", () => {
		const deltas = chunkLines('text').slice(1, -2);
		assert.ok(deltas.length > 3);
		for (const data of deltas) assert.equal(plainContentDelta(data), (JSON.parse(data) as {choices: Array<{delta: {content: string}}>}).choices[0]!.delta.content, data);
		assert.equal(plainContentDelta('{"id":"gen-1","provider":"OpenAI","model":"openai/gpt-4o","object":"chat.completion.chunk","created":1,"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi \\"you\\""},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]}'), 'Hi "you"');
		assert.equal(plainContentDelta('{"id":"cmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"x"},"logprobs":null,"finish_reason":null}]}'), 'x');
		for (const other of [
			'{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}',
			'{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}],"usage":{"prompt_tokens":1}}',
			'{"choices":[{"index":0,"delta":{"content":"x","content":null},"finish_reason":null}]}',
			'{"choices":[{"index":0,"delta":{"content":"x","annotations":null},"finish_reason":null}]}',
			'{"choices":[{"index":0,"delta":{"content":"x"},"delta":{"content":"y"}}]}',
			'{"choices":[{"index":0,"delta":{"content":"x"}}],"error":null}',
			'{"choices":[{"index":0,"delta":{"content":"x"}}],"choices":[]}',
			'{"choices":[{"index":0,"delta":{"content":"x"}}],"n":01}',
			'{"choices":[{"index":0,"delta":{"reasoning_content":"x","content":null}}]}',
		])
			assert.equal(plainContentDelta(other), undefined, other);
	});
});
