import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {GatewayError} from '../../../source/base/errors.js';
import type {IRResponse} from '../../../source/base/ir.js';
import {responsesAdapter} from '../../../source/formats/responses/index.js';
import {fixture, testContext} from './helpers.js';

const encode = (response: IRResponse, request: unknown = {}) => responsesAdapter.encodeResponse(response, {model: 'my-alias', request}, testContext()) as Record<string, unknown>;

describe('responses response', () => {
	it('decodes a Response object: text, usage, finish', () => {
		assert.deepEqual(responsesAdapter.decodeResponse(fixture('text'), testContext()), {
			id: 'resp_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
			model: 'gpt-4.1-nano-2025-04-14',
			parts: [{type: 'text', text: 'The capital of France is Paris.'}],
			finishReason: 'stop',
			usage: {inputTokens: 14, outputTokens: 8},
		});
	});

	it('decodes reasoning and a function call as a tool_calls finish', () => {
		const ir = responsesAdapter.decodeResponse(fixture('reasoning-tool-call'), testContext());
		assert.deepEqual(ir.parts, [
			{type: 'reasoning', text: "**Checking the weather**\n\nI'll call get_weather for Paris.", signature: {format: 'openai', value: 'gAAAAABpTestEncryptedReasoningBlob=='}},
			{type: 'tool_call', id: 'call_Wx9YzAbCdEfGhIjKlMnOpQrS', name: 'get_weather', arguments: '{"city":"Paris"}'},
		]);
		assert.equal(ir.finishReason, 'tool_calls');
	});

	it('throws a failed response as the provider\'s error', () => {
		assert.throws(
			() => responsesAdapter.decodeResponse({id: 'resp_1', status: 'failed', error: {code: 'server_error', message: 'Boom.'}, output: []}, testContext()),
			(error: unknown) => error instanceof GatewayError && error.message === 'Boom.',
		);
	});

	it('encodes an answer as the API\'s Response object, echoing the request\'s settings', () => {
		const body = encode(
			{id: 'msg_1', model: 'claude', parts: [{type: 'reasoning', text: 'Hmm.', signature: {format: 'anthropic', value: 'sig'}}, {type: 'text', text: 'Hi '}, {type: 'text', text: 'there.'}, {type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"a":1}'}], finishReason: 'tool_calls', usage: {inputTokens: 10, outputTokens: 3}},
			{instructions: 'Be brief.', tools: [{type: 'function', name: 'f', parameters: {type: 'object'}}], tool_choice: 'required', max_output_tokens: 50, reasoning: {effort: 'low'}, metadata: {run: '1'}},
		);
		assert.match(String(body.id), /^resp_/);
		const output = (body.output as Array<Record<string, unknown>>).map(({id, ...item}) => {
			assert.match(String(id), /^(rs|msg|fc)_/);
			return item;
		});
		assert.deepEqual(output, [
			{type: 'reasoning', summary: [{type: 'summary_text', text: 'Hmm.'}], encrypted_content: 'gtui1.anthropic.sig'},
			{type: 'message', status: 'completed', content: [{type: 'output_text', text: 'Hi there.', annotations: [], logprobs: []}], role: 'assistant'},
			{type: 'function_call', status: 'completed', arguments: '{"a":1}', call_id: 'call_1', name: 'f'},
		]);
		assert.deepEqual(
			[body.object, body.status, body.model, body.instructions, body.tool_choice, body.max_output_tokens, body.reasoning, body.metadata, body.store, body.incomplete_details],
			['response', 'completed', 'my-alias', 'Be brief.', 'required', 50, {effort: 'low', summary: null}, {run: '1'}, false, null],
		);
		assert.deepEqual(body.usage, {input_tokens: 10, input_tokens_details: {cached_tokens: 0}, output_tokens: 3, output_tokens_details: {reasoning_tokens: 0}, total_tokens: 13});
	});

	it('answers custom and local_shell tools with the items they produce', () => {
		const body = encode(
			{id: 'r', model: 'm', parts: [{type: 'tool_call', id: 'call_p', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}'}, {type: 'tool_call', id: 'call_s', name: 'local_shell', arguments: '{"command":["ls","-la"],"timeout_ms":1000}'}], finishReason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}},
			{tools: [{type: 'custom', name: 'apply_patch'}, {type: 'local_shell'}]},
		);
		const [patch, shell] = body.output as Array<Record<string, unknown>>;
		assert.deepEqual([patch!.type, patch!.input, patch!.call_id], ['custom_tool_call', '*** Begin Patch', 'call_p']);
		assert.deepEqual([shell!.type, shell!.action, shell!.call_id], ['local_shell_call', {type: 'exec', command: ['ls', '-la'], env: {}, timeout_ms: 1000}, 'call_s']);
	});

	it('answers a call to a namespaced tool under its own name and namespace', () => {
		const body = encode(
			{id: 'r', model: 'm', parts: [{type: 'tool_call', id: 'call_s', name: 'multi_agent_v1__spawn_agent', arguments: '{}'}], finishReason: 'tool_calls', usage: {inputTokens: 1, outputTokens: 1}},
			{tools: [{type: 'namespace', name: 'multi_agent_v1', description: 'd', tools: [{type: 'function', name: 'spawn_agent'}]}]},
		);
		const [call] = body.output as Array<Record<string, unknown>>;
		assert.deepEqual([call!.type, call!.name, call!.namespace, call!.call_id], ['function_call', 'spawn_agent', 'multi_agent_v1', 'call_s']);
	});

	it('marks a cut-off or filtered answer incomplete, with the reason', () => {
		const cut = encode({id: 'r', model: 'm', parts: [{type: 'text', text: 'cut'}], finishReason: 'length', usage: {inputTokens: 1, outputTokens: 1}});
		assert.deepEqual([cut.status, cut.incomplete_details], ['incomplete', {reason: 'max_output_tokens'}]);
		const filtered = encode({id: 'r', model: 'm', parts: [], finishReason: 'refusal', usage: {inputTokens: 1, outputTokens: 0}});
		assert.deepEqual([filtered.status, filtered.incomplete_details], ['incomplete', {reason: 'content_filter'}]);
	});
});
