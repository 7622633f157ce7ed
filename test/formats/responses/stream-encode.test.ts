import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import type {IRStreamEvent} from '../../../source/base/ir.js';
import {responsesAdapter} from '../../../source/formats/responses/index.js';
import {collect, events, parseFrames, testContext, type Frame, type TestContext} from './helpers.js';

async function encode(items: readonly IRStreamEvent[], request: unknown = {}, ctx: TestContext = testContext()): Promise<Frame[]> {
	return parseFrames(await collect(responsesAdapter.encodeStream(events(items), {model: 'my-alias', includeUsage: false, sse: true, request}, ctx)));
}

const textEvents: IRStreamEvent[] = [
	{type: 'start', id: 'msg_01', model: 'claude-sonnet-4-6'},
	{type: 'block-start', index: 0, block: {kind: 'text'}},
	{type: 'text-delta', index: 0, text: 'Hel'},
	{type: 'text-delta', index: 0, text: 'lo'},
	{type: 'block-end', index: 0},
	{type: 'finish', reason: 'stop', usage: {inputTokens: 12, outputTokens: 2, cachedTokens: 8}},
];

describe('responses encodeStream', () => {
	it('writes a text delta as JSON.stringify would write its event, whatever the text holds', async () => {
		const awkward = 'a "quote", a \\ backslash,\na line break, \u2028, é, 🙂 and </script>';
		const text = (await collect(responsesAdapter.encodeStream(events([...textEvents.slice(0, 2), {type: 'text-delta', index: 0, text: awkward}, {type: 'text-delta', index: 0, text: ''}, ...textEvents.slice(2)]), {model: 'my-alias', includeUsage: false, sse: true, request: {}}, testContext()))).join('');
		const frames = text.split(/(?<=\n\n)/);
		const itemId = (parseFrames([frames[2]!])[0]!.data.item as {id: string}).id;
		const delta = (sequence: number, value: string) => `event: response.output_text.delta\ndata: ${JSON.stringify({type: 'response.output_text.delta', sequence_number: sequence, item_id: itemId, output_index: 0, content_index: 0, delta: value, logprobs: []})}\n\n`;
		assert.deepEqual(frames.slice(4, 7), [delta(4, awkward), delta(5, 'Hel'), delta(6, 'lo')]);
		const done = parseFrames([frames[7]!])[0]!;
		assert.equal(done.event, 'response.output_text.done');
		assert.equal(done.data.text, `${awkward}Hello`, 'the whole text, for the closing events');
	});

	it('writes the event sequence of a text answer, numbered from 0, ending with response.completed and usage', async () => {
		const frames = await encode(textEvents, {instructions: 'Be brief.', temperature: 0.5});
		assert.deepEqual(
			frames.map(frame => frame.event),
			[
				'response.created',
				'response.in_progress',
				'response.output_item.added',
				'response.content_part.added',
				'response.output_text.delta',
				'response.output_text.delta',
				'response.output_text.done',
				'response.content_part.done',
				'response.output_item.done',
				'response.completed',
			],
		);
		assert.deepEqual(frames.map(frame => frame.data.sequence_number), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		const created = frames[0]!.data.response as Record<string, unknown>;
		assert.match(String(created.id), /^resp_[0-9a-f]{48}$/);
		assert.deepEqual([created.status, created.model, created.output, created.instructions, created.temperature, created.store], ['in_progress', 'my-alias', [], 'Be brief.', 0.5, false]);
		const itemId = (frames[2]!.data.item as {id: string}).id;
		assert.match(itemId, /^msg_/);
		assert.deepEqual(frames[4]!.data, {type: 'response.output_text.delta', sequence_number: 4, item_id: itemId, output_index: 0, content_index: 0, delta: 'Hel', logprobs: []});
		assert.deepEqual(frames[6]!.data, {type: 'response.output_text.done', sequence_number: 6, item_id: itemId, output_index: 0, content_index: 0, text: 'Hello', logprobs: []});
		const completed = frames[9]!.data.response as Record<string, unknown>;
		assert.equal(completed.id, created.id);
		assert.equal(completed.status, 'completed');
		assert.deepEqual(completed.output, [{id: itemId, type: 'message', status: 'completed', content: [{type: 'output_text', text: 'Hello', annotations: [], logprobs: []}], role: 'assistant'}]);
		assert.deepEqual(completed.usage, {input_tokens: 12, input_tokens_details: {cached_tokens: 8}, output_tokens: 2, output_tokens_details: {reasoning_tokens: 0}, total_tokens: 14});
	});

	it('streams reasoning as a summary and puts a foreign signature in encrypted_content, wrapped', async () => {
		const frames = await encode([
			{type: 'start', id: 'msg_02', model: 'm'},
			{type: 'block-start', index: 0, block: {kind: 'reasoning'}},
			{type: 'reasoning-delta', index: 0, text: 'Think'},
			{type: 'reasoning-delta', index: 0, text: 'ing.'},
			{type: 'signature', index: 0, signature: {format: 'anthropic', value: 'EqoB'}},
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'stop', usage: {inputTokens: 1, outputTokens: 5, reasoningTokens: 4}},
		]);
		assert.deepEqual(frames.slice(2, -1).map(frame => frame.event), [
			'response.output_item.added',
			'response.reasoning_summary_part.added',
			'response.reasoning_summary_text.delta',
			'response.reasoning_summary_text.delta',
			'response.reasoning_summary_text.done',
			'response.reasoning_summary_part.done',
			'response.output_item.done',
		]);
		const item = frames.at(-2)!.data.item as Record<string, unknown>;
		assert.deepEqual({...item, id: 'rs'}, {id: 'rs', type: 'reasoning', summary: [{type: 'summary_text', text: 'Thinking.'}], encrypted_content: 'gtui1.anthropic.EqoB'});
		assert.equal((frames.at(-1)!.data.response as {usage: {output_tokens_details: {reasoning_tokens: number}}}).usage.output_tokens_details.reasoning_tokens, 4);
	});

	it('streams a function call: added with empty arguments, argument deltas, done, and remembers a Gemini signature', async () => {
		const ctx = testContext();
		const frames = await encode([
			{type: 'start', id: 'r', model: 'm'},
			{type: 'block-start', index: 0, block: {kind: 'tool_call', id: 'call_1', name: 'get_weather'}},
			{type: 'tool-args-delta', index: 0, json: '{"city":'},
			{type: 'tool-args-delta', index: 0, json: '"Paris"}'},
			{type: 'signature', index: 0, signature: {format: 'gemini', value: 'CiQB'}},
			{type: 'block-end', index: 0},
			{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}},
		], {}, ctx);
		const added = frames[2]!.data.item as Record<string, unknown>;
		assert.deepEqual({...added, id: 'fc'}, {id: 'fc', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_1', name: 'get_weather'});
		assert.deepEqual(frames.slice(3, 6).map(frame => [frame.event, frame.data.delta ?? frame.data.arguments]), [
			['response.function_call_arguments.delta', '{"city":'],
			['response.function_call_arguments.delta', '"Paris"}'],
			['response.function_call_arguments.done', '{"city":"Paris"}'],
		]);
		assert.deepEqual((frames[6]!.data.item as Record<string, unknown>).status, 'completed');
		assert.equal(frames[7]!.event, 'response.completed');
		assert.deepEqual(ctx.signatures.recall('call_1'), {format: 'gemini', value: 'CiQB'});
	});

	it('answers a call to a custom tool as a custom_tool_call with its raw input', async () => {
		const frames = await encode(
			[
				{type: 'start', id: 'r', model: 'm'},
				{type: 'block-start', index: 0, block: {kind: 'tool_call', id: 'call_p', name: 'apply_patch'}},
				{type: 'tool-args-delta', index: 0, json: '{"input":"*** Begin Patch\\n'},
				{type: 'tool-args-delta', index: 0, json: '*** End Patch"}'},
				{type: 'block-end', index: 0},
				{type: 'finish', reason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}},
			],
			{tools: [{type: 'custom', name: 'apply_patch'}]},
		);
		assert.deepEqual(frames.slice(2, -1).map(frame => frame.event), [
			'response.output_item.added',
			'response.custom_tool_call_input.delta',
			'response.custom_tool_call_input.done',
			'response.output_item.done',
		]);
		const item = frames.at(-2)!.data.item as Record<string, unknown>;
		assert.deepEqual({...item, id: 'ctc'}, {id: 'ctc', type: 'custom_tool_call', status: 'completed', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch'});
	});

	it('ends a cut-off answer with response.incomplete and the reason', async () => {
		const frames = await encode([...textEvents.slice(0, -1), {type: 'finish', reason: 'length', usage: {inputTokens: 1, outputTokens: 5}}]);
		const last = frames.at(-1)!;
		assert.equal(last.event, 'response.incomplete');
		assert.deepEqual([(last.data.response as Record<string, unknown>).status, (last.data.response as Record<string, unknown>).incomplete_details], ['incomplete', {reason: 'max_output_tokens'}]);
	});

	it('turns an upstream error into error + response.failed with a code Codex understands', async () => {
		const frames = await encode([
			...textEvents.slice(0, 3),
			{type: 'error', error: {kind: 'rate_limit', status: 429, message: 'Slow down.', retryAfter: '7'}},
			{type: 'text-delta', index: 0, text: 'never written'},
		]);
		assert.deepEqual(frames.slice(-2).map(frame => frame.event), ['error', 'response.failed']);
		const error = frames.at(-2)!.data;
		assert.deepEqual(error.error, {type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Slow down. Please try again in 7s.', param: null});
		const failed = frames.at(-1)!.data.response as Record<string, unknown>;
		assert.deepEqual([failed.status, failed.error], ['failed', {code: 'rate_limit_exceeded', message: 'Slow down. Please try again in 7s.'}]);
		assert.ok(!JSON.stringify(frames).includes('never written'));
	});

	it('names the context window and quota errors so Codex stops instead of retrying', async () => {
		const code = async (error: Extract<IRStreamEvent, {type: 'error'}>['error']) =>
			((await encode([{type: 'start', id: 'r', model: 'm'}, {type: 'error', error}])).at(-1)!.data.response as {error: {code: string}}).error.code;
		assert.equal(await code({kind: 'invalid_request', status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum'}), 'context_length_exceeded');
		assert.equal(await code({kind: 'insufficient_quota', status: 429, message: 'No credit.'}), 'insufficient_quota');
		assert.equal(await code({kind: 'overloaded', status: 529, message: 'Overloaded'}), 'server_is_overloaded');
		assert.equal(await code({kind: 'upstream', status: 502, message: 'Bad gateway'}), 'server_error');
	});

	it('reports an IR stream that ends without finish as response.failed, never as a clean end', async () => {
		const frames = await encode(textEvents.slice(0, 3));
		assert.deepEqual(frames.slice(-2).map(frame => frame.event), ['error', 'response.failed']);
		assert.match(String((frames.at(-1)!.data.response as {error: {message: string}}).error.message), /ended before the answer was complete/);
	});
});
