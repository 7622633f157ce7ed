import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import {anthropicAdapter} from '../../../source/formats/anthropic/index.js';
import {AnthropicStreamDecoder, plainDelta} from '../../../source/formats/anthropic/decode-anthropic-stream.js';
import type {IRStreamEvent} from '../../../source/base/ir.js';
import {parseSse} from '../../../source/formats/sse.js';
import {collect, loadChunks, recordingContext, replay, serveOnce} from './fixtures.js';
import {sseFrames} from '../../helpers/streams.js';

const streamOptions = {model: 'claude-alias', includeUsage: false, sse: true};

function decode(name: string): Promise<IRStreamEvent[]> {
	return collect(anthropicAdapter.decodeStream(replay(loadChunks(name)), recordingContext()));
}

async function encode(events: readonly IRStreamEvent[], ctx = recordingContext()): Promise<string[]> {
	return sseFrames(await collect(anthropicAdapter.encodeStream(replay(events), streamOptions, ctx)));
}

/** The frames as `event name → parsed data`, for assertions on values. */
function parseFrames(frames: readonly string[]): Array<{event: string; data: Record<string, unknown>}> {
	return frames.map(frame => {
		const [eventLine, dataLine] = frame.split('\n');
		assert.match(eventLine, /^event: /);
		return {event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) as Record<string, unknown>};
	});
}

function argsByIndex(events: readonly IRStreamEvent[]): Record<number, string> {
	const out: Record<number, string> = {};
	for (const event of events) if (event.type === 'tool-args-delta') out[event.index] = (out[event.index] ?? '') + event.json;
	return out;
}

describe('decodeStream', () => {
	test('text: start, one block with each delta as it came, usage, finish', async () => {
		const events = await decode('text');
		assert.deepEqual(events.slice(0, 3), [
			{type: 'start', id: 'msg_01QC4g3HwBThD4BaNtBckFDJ', model: 'claude-sonnet-4-6-20250929', usage: {inputTokens: 12, outputTokens: 1}},
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			{type: 'text-delta', index: 0, text: 'Hello'},
		]);
		assert.equal(events.filter(event => event.type === 'text-delta').length, 6);
		assert.deepEqual(events.slice(-3), [
			{type: 'block-end', index: 0},
			{type: 'usage', usage: {inputTokens: 12, outputTokens: 30}},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 12, outputTokens: 30}},
		]);
	});

	test('a tool call whose arguments arrive in many pieces', async () => {
		const events = await decode('tool-use');
		assert.deepEqual(events.find(event => event.type === 'block-start' && event.index === 1), {
			type: 'block-start',
			index: 1,
			block: {kind: 'tool_call', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather'},
		});
		// The empty first partial_json is skipped; the eight real pieces pass one by one.
		assert.equal(events.filter(event => event.type === 'tool-args-delta').length, 8);
		assert.deepEqual(JSON.parse(argsByIndex(events)[1]), {location: 'San Francisco, CA', unit: 'fahrenheit'});
		// message_delta carried only output_tokens: the input count from message_start stays.
		assert.deepEqual(events.at(-1), {type: 'finish', reason: 'tool_calls', usage: {inputTokens: 472, outputTokens: 89}});
	});

	test('parallel tool calls get their own blocks, in order', async () => {
		const events = await decode('parallel-tool-use');
		assert.deepEqual(
			events.flatMap(event => (event.type === 'block-start' ? [[event.index, event.block.kind === 'tool_call' ? event.block.name : event.block.kind]] : [])),
			[
				[0, 'text'],
				[1, 'get_weather'],
				[2, 'get_time'],
			],
		);
		assert.deepEqual(argsByIndex(events), {1: '{"location": "San Francisco, CA"}', 2: '{"timezone": "America/Los_Angeles"}'});
	});

	test('thinking deltas, then the signature before the block ends', async () => {
		const events = await decode('thinking');
		const reasoning = events.filter(event => 'index' in event && event.index === 0).map(event => event.type);
		assert.deepEqual(reasoning, ['block-start', 'reasoning-delta', 'reasoning-delta', 'reasoning-delta', 'reasoning-delta', 'signature', 'block-end']);
		const signature = events.find(event => event.type === 'signature');
		assert.equal(signature?.type === 'signature' && signature.signature.format, 'anthropic');
		assert.deepEqual(events.at(-1), {type: 'finish', reason: 'stop', usage: {inputTokens: 47, outputTokens: 373, reasoningTokens: 62}});
	});

	test('usage with caching: cache reads and writes are added to the input', async () => {
		const events = await decode('usage-cache');
		const total = 3 + 21_400 + 1874;
		assert.deepEqual(events[0], {type: 'start', id: 'msg_01Wz3vFZ7mP1yKcQh8dYtR2x', model: 'claude-sonnet-4-6-20250929', usage: {inputTokens: total, outputTokens: 1, cachedTokens: 21_400, cacheCreationTokens: 1874}});
		assert.deepEqual(events.at(-1), {type: 'finish', reason: 'stop', usage: {inputTokens: total, outputTokens: 5, cachedTokens: 21_400, cacheCreationTokens: 1874}});
	});

	test('a mid-stream error ends the stream with an IR error keeping the message', async () => {
		const events = await decode('error-mid-stream');
		assert.deepEqual(events.at(-1), {type: 'error', error: {kind: 'overloaded', status: 529, message: 'Overloaded'}});
		assert.equal(events.filter(event => event.type === 'finish' || event.type === 'error').length, 1);
	});

	test('a stream cut before message_stop ends with an error', async () => {
		const events = await collect(anthropicAdapter.decodeStream(replay(loadChunks('text').slice(0, 5)), recordingContext()));
		const last = events.at(-1);
		assert.equal(last?.type, 'error');
		assert.match(last?.type === 'error' ? last.error.message : '', /before message_stop/);
	});

	test('server-tool blocks are skipped and IR indexes stay consecutive', async () => {
		const ctx = recordingContext();
		const messages = [
			{event: 'message_start', data: JSON.stringify({type: 'message_start', message: {id: 'm', model: 'x', usage: {input_tokens: 5}}})},
			{event: 'content_block_start', data: JSON.stringify({type: 'content_block_start', index: 0, content_block: {type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {}}})},
			{event: 'content_block_delta', data: JSON.stringify({type: 'content_block_delta', index: 0, delta: {type: 'input_json_delta', partial_json: '{"query":"x"}'}})},
			{event: 'content_block_stop', data: JSON.stringify({type: 'content_block_stop', index: 0})},
			{event: 'content_block_start', data: JSON.stringify({type: 'content_block_start', index: 1, content_block: {type: 'text', text: 'Found it'}})},
			{event: 'content_block_stop', data: JSON.stringify({type: 'content_block_stop', index: 1})},
			{event: 'message_delta', data: JSON.stringify({type: 'message_delta', delta: {stop_reason: 'end_turn'}, usage: {output_tokens: 3}})},
			{event: 'message_stop', data: JSON.stringify({type: 'message_stop'})},
		];
		const events = await collect(anthropicAdapter.decodeStream(replay(messages), ctx));
		assert.deepEqual(events.slice(1, 4), [
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			{type: 'text-delta', index: 0, text: 'Found it'},
			{type: 'block-end', index: 0},
		]);
		assert.match(ctx.warnings[0], /server_tool_use/);
	});
});

describe('encodeStream', () => {
	test('the exact frames for a short text answer', async () => {
		const frames = await encode([
			{type: 'start', id: 'msg_1', model: 'gpt-4.1', usage: {inputTokens: 20, cachedTokens: 8}},
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			{type: 'text-delta', index: 0, text: 'Hi'},
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 20, outputTokens: 2, cachedTokens: 8}},
		]);
		assert.equal(
			frames.join(''),
			[
				'event: message_start',
				'data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-alias","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":8,"output_tokens":0}}}',
				'',
				'event: ping',
				'data: {"type":"ping"}',
				'',
				'event: content_block_start',
				'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
				'',
				'event: content_block_delta',
				'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}',
				'',
				'event: content_block_stop',
				'data: {"type":"content_block_stop","index":0}',
				'',
				'event: message_delta',
				'data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":12,"cache_creation_input_tokens":0,"cache_read_input_tokens":8,"output_tokens":2}}',
				'',
				'event: message_stop',
				'data: {"type":"message_stop"}',
				'',
				'',
			].join('\n'),
		);
	});

	test('the deltas of started blocks are the exact frames JSON.stringify makes, escapes and wire indexes included', async () => {
		const awkward = 'a "quote", a \\ backslash,\na line break, \u2028, é, 🙂 and </script>';
		const frames = await encode([
			{type: 'start', id: 'msg_1', model: 'gpt-4.1'},
			// An empty text block is never written: the next block takes wire index 0.
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			{type: 'text-delta', index: 0, text: ''},
			{type: 'block-end', index: 0},
			{type: 'block-start', index: 1, block: {kind: 'reasoning'}},
			{type: 'reasoning-delta', index: 1, text: awkward},
			{type: 'reasoning-delta', index: 1, text: ''},
			{type: 'reasoning-delta', index: 1, text: 'more'},
			{type: 'block-end', index: 1},
			{type: 'block-start', index: 2, block: {kind: 'text'}},
			{type: 'text-delta', index: 2, text: 'first'},
			{type: 'text-delta', index: 2, text: awkward},
			{type: 'block-end', index: 2},
			{type: 'block-start', index: 3, block: {kind: 'tool_call', id: 'toolu_1', name: 'run'}},
			{type: 'tool-args-delta', index: 3, json: '{"cmd":"echo \\"hi\\""'},
			{type: 'tool-args-delta', index: 3, json: '}'},
			{type: 'block-end', index: 3},
			{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 2}},
		]);
		const frame = (data: object) => `event: content_block_delta\ndata: ${JSON.stringify(data)}\n\n`;
		const deltas = frames.filter(text => text.startsWith('event: content_block_delta'));
		assert.deepEqual(deltas, [
			frame({type: 'content_block_delta', index: 0, delta: {type: 'thinking_delta', thinking: awkward}}),
			frame({type: 'content_block_delta', index: 0, delta: {type: 'thinking_delta', thinking: 'more'}}),
			frame({type: 'content_block_delta', index: 1, delta: {type: 'text_delta', text: 'first'}}),
			frame({type: 'content_block_delta', index: 1, delta: {type: 'text_delta', text: awkward}}),
			frame({type: 'content_block_delta', index: 2, delta: {type: 'input_json_delta', partial_json: '{"cmd":"echo \\"hi\\""'}}),
			frame({type: 'content_block_delta', index: 2, delta: {type: 'input_json_delta', partial_json: '}'}}),
		]);
	});

	test('decode(encode(events)) gives back the same events for every fixture', async () => {
		for (const name of ['text', 'tool-use', 'parallel-tool-use', 'thinking', 'usage-cache', 'error-mid-stream']) {
			const events = await decode(name);
			const frames = await encode(events);
			const again = await collect(anthropicAdapter.decodeStream(parseSse(replay(frames)), recordingContext()));
			const expected = events.map(event => (event.type === 'start' ? {...event, model: 'claude-alias'} : event));
			assert.deepEqual(again, expected, name);
		}
	});

	test('interleaved parallel tool calls are serialized: one open block at a time, indexes consecutive', async () => {
		const frames = await encode([
			{type: 'start', id: 'chatcmpl-1', model: 'gpt-4.1'},
			{type: 'block-start', index: 0, block: {kind: 'tool_call', id: 'call_a', name: 'weather'}},
			{type: 'block-start', index: 1, block: {kind: 'tool_call', id: 'call_b', name: 'time'}},
			{type: 'tool-args-delta', index: 0, json: '{"city":'},
			{type: 'tool-args-delta', index: 1, json: '{"tz":'},
			{type: 'tool-args-delta', index: 1, json: '"CET"}'},
			{type: 'block-end', index: 1},
			{type: 'tool-args-delta', index: 0, json: '"Paris"}'},
			{type: 'block-start', index: 2, block: {kind: 'text'}},
			{type: 'block-end', index: 0},
			{type: 'text-delta', index: 2, text: 'Done'},
			{type: 'block-end', index: 2},
			{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 10, outputTokens: 20}},
		]);
		const blockFrames = parseFrames(frames)
			.filter(frame => frame.event.startsWith('content_block'))
			.map(({event, data}) => {
				const delta = data.delta as {partial_json?: string; text?: string} | undefined;
				const block = data.content_block as {name?: string; type?: string} | undefined;
				return `${event.replace('content_block_', '')}:${String(data.index)}${block ? `:${block.name ?? block.type}` : ''}${delta ? `:${delta.partial_json ?? delta.text}` : ''}`;
			});
		assert.deepEqual(blockFrames, [
			'start:0:weather',
			'delta:0:{"city":',
			'delta:0:"Paris"}',
			'stop:0',
			'start:1:time',
			'delta:1:{"tz":',
			'delta:1:"CET"}',
			'stop:1',
			'start:2:text',
			'delta:2:Done',
			'stop:2',
		]);
	});

	test('text is written as it arrives, before the next event is read', async () => {
		const log: string[] = [];
		async function* source(): AsyncGenerator<IRStreamEvent> {
			const events: IRStreamEvent[] = [
				{type: 'start', id: 'm', model: 'x'},
				{type: 'block-start', index: 0, block: {kind: 'text'}},
				{type: 'text-delta', index: 0, text: 'one'},
				{type: 'text-delta', index: 0, text: 'two'},
				{type: 'block-end', index: 0},
				{type: 'finish', reason: 'stop', usage: {inputTokens: 1, outputTokens: 2}},
			];
			for (const [index, event] of events.entries()) {
				log.push(`read ${index}`);
				yield event;
			}
		}
		for await (const frame of anthropicAdapter.encodeStream(source(), streamOptions, recordingContext())) {
			const text = /"text_delta","text":"(\w+)"/.exec(frame)?.[1];
			if (text) log.push(`wrote ${text}`);
		}
		assert.deepEqual(log.slice(2, 6), ['read 2', 'wrote one', 'read 3', 'wrote two']);
	});

	test('signatures: thinking gets a signature_delta (foreign ones wrapped); a tool call\'s is remembered; redacted thinking', async () => {
		const ctx = recordingContext();
		const frames = parseFrames(
			await encode(
				[
					{type: 'start', id: 'm', model: 'gemini-2.5-pro'},
					{type: 'block-start', index: 0, block: {kind: 'reasoning'}},
					{type: 'reasoning-delta', index: 0, text: 'Let me think.'},
					{type: 'signature', index: 0, signature: {format: 'gemini', value: 'CiQB'}},
					{type: 'block-end', index: 0},
					{type: 'block-start', index: 1, block: {kind: 'reasoning'}},
					{type: 'redacted-reasoning', index: 1, data: 'EmwKAhgB'},
					{type: 'block-end', index: 1},
					{type: 'block-start', index: 2, block: {kind: 'tool_call', id: 'call_sig', name: 'f'}},
					{type: 'signature', index: 2, signature: {format: 'gemini', value: 'fc-sig'}},
					{type: 'tool-args-delta', index: 2, json: '{}'},
					{type: 'block-end', index: 2},
					{type: 'block-start', index: 3, block: {kind: 'text'}},
					{type: 'signature', index: 3, signature: {format: 'gemini', value: 'text-sig'}},
					{type: 'block-end', index: 3},
					{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}},
				],
				ctx,
			),
		);
		const data = frames.map(frame => frame.data);
		assert.deepEqual(data[2], {type: 'content_block_start', index: 0, content_block: {type: 'thinking', thinking: '', signature: ''}});
		assert.deepEqual(data[4], {type: 'content_block_delta', index: 0, delta: {type: 'signature_delta', signature: 'gtui1.gemini.CiQB'}});
		assert.deepEqual(data[6], {type: 'content_block_start', index: 1, content_block: {type: 'redacted_thinking', data: 'EmwKAhgB'}});
		assert.deepEqual(ctx.signatures.recall('call_sig'), {format: 'gemini', value: 'fc-sig'});
		assert.equal(ctx.warnings.length, 1);
		assert.match(ctx.warnings[0], /signature on streamed text was dropped/);
	});

	test('an error event becomes `event: error` and ends the stream', async () => {
		const frames = await encode([
			{type: 'start', id: 'm', model: 'x'},
			{type: 'block-start', index: 0, block: {kind: 'text'}},
			{type: 'text-delta', index: 0, text: 'Once'},
			{type: 'error', error: {kind: 'rate_limit', status: 429, message: 'Slow down'}},
			{type: 'text-delta', index: 0, text: 'never written'},
		]);
		assert.equal(frames.at(-1), 'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}\n\n');
		assert.equal(frames.some(frame => frame.includes('never written')), false);
	});
});

describe('the official SDK reads the encoded stream', () => {
	async function sdkStream(events: readonly IRStreamEvent[]) {
		const server = await serveOnce((await encode(events)).join(''), 'text/event-stream');
		const client = new Anthropic({baseURL: server.url, apiKey: 'test', maxRetries: 0});
		const stream = client.messages.stream({model: 'claude-alias', max_tokens: 100, messages: [{role: 'user', content: 'Hi'}]});
		return {stream, close: () => server.close()};
	}

	test('thinking, text, a tool call in pieces and cached usage', async () => {
		const events = [...(await decode('thinking')).slice(0, -2), ...(await decode('tool-use')).slice(1).map(shift(2))];
		const {stream, close} = await sdkStream(events);
		try {
			const texts: string[] = [];
			stream.on('text', text => texts.push(text));
			const message = await stream.finalMessage();
			assert.deepEqual(
				message.content.map(block => block.type),
				['thinking', 'text', 'text', 'tool_use'],
			);
			const [thinking, , , toolUse] = message.content;
			assert.equal(thinking.type === 'thinking' && thinking.signature.startsWith('EsEC'), true);
			assert.deepEqual(toolUse.type === 'tool_use' && toolUse.input, {location: 'San Francisco, CA', unit: 'fahrenheit'});
			assert.equal(texts.length, 3 + 13);
			assert.equal(message.stop_reason, 'tool_use');
			assert.equal(message.model, 'claude-alias');
			assert.equal(message.usage.output_tokens, 89);
		} finally {
			await close();
		}
	});

	test('usage with caching reaches the SDK in Anthropic terms', async () => {
		const {stream, close} = await sdkStream(await decode('usage-cache'));
		try {
			const message = await stream.finalMessage();
			assert.equal(message.usage.input_tokens, 3);
			assert.equal(message.usage.cache_read_input_tokens, 21_400);
			assert.equal(message.usage.cache_creation_input_tokens, 1874);
			assert.equal(message.usage.output_tokens, 5);
		} finally {
			await close();
		}
	});

	test('a mid-stream error is thrown by the SDK with its type and message', async () => {
		const {stream, close} = await sdkStream(await decode('error-mid-stream'));
		try {
			await assert.rejects(stream.finalMessage(), (error: unknown) => error instanceof Anthropic.APIError && error.type === 'overloaded_error' && /Overloaded/.test(error.message));
		} finally {
			await close();
		}
	});
});

/** Renumber blocks so two fixtures can be played as one answer. */
function shift(by: number) {
	return (event: IRStreamEvent): IRStreamEvent => ('index' in event ? {...event, index: event.index + by} : event);
}

describe('text, thinking and tool-input deltas read without a parse (plainDelta)', () => {
	const delta = (text: string, index = 0) => JSON.stringify({type: 'content_block_delta', index, delta: {type: 'text_delta', text}});
	/** What JSON.parse makes of `data`, when it is a text, thinking or tool-input delta with no other key. */
	function parsed(data: string): {kind: string; index: number; text: string} | undefined {
		let value: unknown;
		try {
			value = JSON.parse(data);
		} catch {
			return undefined;
		}
		const object = value as {type?: unknown; index?: unknown; delta?: Record<string, unknown>};
		const keys = (o: object) => Object.keys(o).join(',');
		if (typeof object !== 'object' || object === null || keys(object) !== 'type,index,delta' || object.type !== 'content_block_delta' || typeof object.index !== 'number') return undefined;
		if (typeof object.delta !== 'object' || object.delta === null) return undefined;
		const kinds = {text_delta: ['text', 'text'], thinking_delta: ['thinking', 'thinking'], input_json_delta: ['json', 'partial_json']} as const;
		const kind = kinds[object.delta.type as keyof typeof kinds];
		if (!kind || keys(object.delta) !== `type,${kind[1]}` || typeof object.delta[kind[1]] !== 'string') return undefined;
		return {kind: kind[0], index: object.index, text: object.delta[kind[1]] as string};
	}

	test('reads what JSON.parse reads, or nothing (and the event is parsed whole)', () => {
		const texts = ['Hello', '', ' ', 'line\nbreak', 'tab\there', 'quote " inside', 'back\\slash', 'é ü 漢字 🙂', '\u2028\u2029', 'ends with backslash \\', '"}}', '\\"}}', '\u0000\u001f\u007f', '\ud800 lone surrogate'];
		const wire = [
			...texts.map(text => delta(text)),
			delta('x', 3),
			delta('x', 12),
			delta('x', 123_456_789),
			delta('x', 1_234_567_890),
			JSON.stringify({type: 'content_block_delta', index: 1, delta: {type: 'thinking_delta', thinking: 'Let me "think" \\ here'}}),
			JSON.stringify({type: 'content_block_delta', index: 2, delta: {type: 'input_json_delta', partial_json: '{"path": "a\\b.ts", "line'}}),
			JSON.stringify({type: 'content_block_delta', index: 2, delta: {type: 'input_json_delta', partial_json: ''}}),
			'{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","text":"wrong field"}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}}',
			// Written differently from Anthropic's own form: parsed whole.
			'{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "spaced"}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","extra":"b"}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"},"x":{"y":"b"}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\\\","x":"b"}}',
			'{"type":"content_block_delta","index":00,"delta":{"type":"text_delta","text":"leading zero"}}',
			'{"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"negative"}}',
			'{"type":"content_block_delta","index":1.5,"delta":{"type":"text_delta","text":"fraction"}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"raw\ncontrol"}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"unterminated}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"bad \\x escape"}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u00e9 \\ud83d\\ude42 \\/"}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}',
			'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"}}',
		];
		let quick = 0;
		for (const data of wire) {
			const read = plainDelta(data);
			if (read === undefined) continue;
			quick++;
			assert.deepEqual(read, parsed(data), data);
		}
		assert.ok(quick >= texts.length + 6, `Anthropic's own form is read without a parse (${quick} of ${wire.length})`);
		assert.equal(plainDelta(delta('x', 1_234_567_890)), undefined, 'ten digits: parsed whole');
		assert.deepEqual(plainDelta('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u00e9 \\ud83d\\ude42 \\/"}}'), {kind: 'text', index: 0, text: 'é 🙂 /'});
	});

	test('a stream of such deltas and of others decodes to the same events either way', () => {
		const messages = (texts: Array<{data: string; event?: string}>) => [
			{event: 'message_start', data: JSON.stringify({type: 'message_start', message: {id: 'msg_1', model: 'claude', usage: {input_tokens: 3, output_tokens: 1}}})},
			{event: 'content_block_start', data: JSON.stringify({type: 'content_block_start', index: 0, content_block: {type: 'text', text: ''}})},
			...texts,
			{event: 'content_block_stop', data: JSON.stringify({type: 'content_block_stop', index: 0})},
			{event: 'message_delta', data: JSON.stringify({type: 'message_delta', delta: {stop_reason: 'end_turn'}, usage: {output_tokens: 4}})},
			{event: 'message_stop', data: JSON.stringify({type: 'message_stop'})},
		];
		const run = (list: ReturnType<typeof messages>) => {
			const decoder = new AnthropicStreamDecoder(recordingContext());
			return list.flatMap(message => decoder.push(message));
		};
		const quick = messages([{event: 'content_block_delta', data: delta('Hel')}, {data: delta('lo "you"')}, {event: 'content_block_delta', data: delta('')}, {event: 'content_block_delta', data: delta('x', 7)}]);
		// The same deltas with a space after each colon: not Anthropic's form, so parsed whole.
		const spaced = quick.map(message => (message.event === 'content_block_delta' || message.event === undefined ? {...message, data: message.data.replaceAll('":', '": ')} : message));
		assert.ok(quick.slice(2, 6).every(message => plainDelta(message.data)) && spaced.slice(2, 6).every(message => !plainDelta(message.data)));
		const events = run(quick);
		assert.deepEqual(events, run(spaced));
		assert.deepEqual(
			events.filter(event => event.type === 'text-delta'),
			[
				{type: 'text-delta', index: 0, text: 'Hel'},
				{type: 'text-delta', index: 0, text: 'lo "you"'},
			],
			'an empty delta and one for a block that never started give nothing',
		);
		// Thinking and tool input: the same either way too.
		const blocks = (spaced: boolean) => {
			// A space after the opening brace: not Anthropic's form, so parsed whole, and no string changed.
			const data = (value: object) => (spaced ? `{ ${JSON.stringify(value).slice(1)}` : JSON.stringify(value));
			return [
				{event: 'message_start', data: JSON.stringify({type: 'message_start', message: {id: 'msg_2', model: 'claude', usage: {input_tokens: 3, output_tokens: 1}}})},
				{event: 'content_block_start', data: JSON.stringify({type: 'content_block_start', index: 0, content_block: {type: 'thinking', thinking: ''}})},
				{event: 'content_block_delta', data: data({type: 'content_block_delta', index: 0, delta: {type: 'thinking_delta', thinking: 'Let me "see".'}})},
				{event: 'content_block_delta', data: JSON.stringify({type: 'content_block_delta', index: 0, delta: {type: 'signature_delta', signature: 'EqQB'}})},
				{event: 'content_block_stop', data: JSON.stringify({type: 'content_block_stop', index: 0})},
				{event: 'content_block_start', data: JSON.stringify({type: 'content_block_start', index: 1, content_block: {type: 'tool_use', id: 'toolu_1', name: 'read', input: {}}})},
				{event: 'content_block_delta', data: data({type: 'content_block_delta', index: 1, delta: {type: 'input_json_delta', partial_json: '{"path":'}})},
				{event: 'content_block_delta', data: data({type: 'content_block_delta', index: 1, delta: {type: 'input_json_delta', partial_json: ' "a\\b.ts"}'}})},
				{event: 'content_block_stop', data: JSON.stringify({type: 'content_block_stop', index: 1})},
				{event: 'message_stop', data: JSON.stringify({type: 'message_stop'})},
			];
		};
		const thoughtful = run(blocks(false));
		assert.deepEqual(thoughtful, run(blocks(true)));
		assert.deepEqual(
			thoughtful.filter(event => event.type === 'reasoning-delta' || event.type === 'tool-args-delta'),
			[
				{type: 'reasoning-delta', index: 0, text: 'Let me "see".'},
				{type: 'tool-args-delta', index: 1, json: '{"path":'},
				{type: 'tool-args-delta', index: 1, json: ' "a\\b.ts"}'},
			],
		);
		// An event named otherwise is not a text delta, whatever its data says.
		const renamed = run(messages([{event: 'ping', data: delta('not text')}]));
		assert.equal(renamed.filter(event => event.type === 'text-delta').length, 0);
	});
});
