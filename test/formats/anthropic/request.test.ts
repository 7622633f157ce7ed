import assert from 'node:assert/strict';
import {describe, test} from 'node:test';
import type {UpstreamTarget} from '../../../source/formats/adapter.js';
import {anthropicAdapter} from '../../../source/formats/anthropic/index.js';
import type {IRRequest} from '../../../source/base/ir.js';
import {GatewayError} from '../../../source/base/errors.js';
import {validateAnthropicBody} from '../../helpers/fake-providers/anthropic-validate.js';
import {loadJson, recordingContext} from './fixtures.js';

const target: UpstreamTarget = {model: 'claude-sonnet-4-6', stream: false, baseUrl: 'https://api.anthropic.com', defaultMaxTokens: 4096};

const base: IRRequest = {model: 'm', system: [], messages: [{role: 'user', parts: [{type: 'text', text: 'Hi'}]}], tools: [], stream: false};

async function encode(request: Partial<IRRequest>, overrides: Partial<UpstreamTarget> = {}) {
	const ctx = recordingContext();
	const encoded = await anthropicAdapter.encodeRequest({...base, ...request}, {...target, ...overrides}, ctx);
	return {...encoded, warnings: ctx.warnings};
}

/** The strict fake's validator encodes the real API's rules; an encoded body must pass it. */
function assertAccepted(body: unknown): void {
	assert.equal(validateAnthropicBody(body, {countTokens: false, version: '2023-06-01', betas: ''})?.message, undefined);
}

describe('decodeRequest', () => {
	test('a Claude Code request becomes IR with system, cache markers, thinking and user id', () => {
		const ctx = recordingContext();
		const ir = anthropicAdapter.decodeRequest(loadJson('request-claude-code'), {}, ctx);
		assert.equal(ir.model, 'claude-sonnet-4-6-20250929');
		assert.equal(ir.stream, true);
		assert.equal(ir.maxTokens, 32000);
		assert.equal(ir.temperature, 1);
		assert.deepEqual(ir.reasoning, {enabled: true, budgetTokens: 31999});
		assert.match(ir.user ?? '', /^user_2f9c0e5d8b7a_account/);
		// Top-level system blocks first, then the role:"system" entry from inside messages.
		assert.deepEqual(
			ir.system.map(block => [block.text.slice(0, 20), block.cache]),
			[
				['x-anthropic-billing-', undefined],
				['You are Claude Code,', {type: 'ephemeral'}],
				['You are an interacti', {type: 'ephemeral', ttl: '1h'}],
				['The user switched to', undefined],
			],
		);
		assert.deepEqual(ir.messages.map(message => [message.role, message.parts.map(part => part.type)]), [
			['user', ['text', 'text']],
			['assistant', ['reasoning', 'text', 'tool_call']],
			['user', ['tool_result']],
		]);
		const [thinking, , call] = ir.messages[1].parts;
		assert.equal(thinking.type === 'reasoning' && thinking.signature?.format, 'anthropic');
		assert.deepEqual(call, {type: 'tool_call', id: 'toolu_01Rp8mUq2fW5kLx9Hc3VtN7a', name: 'Read', arguments: '{"file_path":"/repo/test/sum.test.ts"}'});
		const result = ir.messages[2].parts[0];
		assert.equal(result.type === 'tool_result' && result.cache?.type, 'ephemeral');
		assert.deepEqual(ir.messages[0].parts[1], {type: 'text', text: 'Why does test/sum.test.ts fail?', cache: {type: 'ephemeral'}});
		// Schemas are kept as sent ($schema, additionalProperties); the server tool is dropped with a warning.
		assert.deepEqual(ir.tools.map(tool => tool.name), ['Read', 'Bash']);
		assert.equal(ir.tools[0].parameters.$schema, 'http://json-schema.org/draft-07/schema#');
		assert.equal(ir.tools[1].cache?.type, 'ephemeral');
		assert.equal(ctx.warnings.length, 1);
		assert.match(ctx.warnings[0], /web_search_20250305/);
	});

	test('tool_choice, adaptive thinking with effort, structured output and stop sequences', () => {
		const ir = anthropicAdapter.decodeRequest(
			{
				model: 'claude-opus-4-6',
				max_tokens: 1000,
				messages: [{role: 'user', content: 'Extract the city.'}],
				tools: [{name: 'lookup', input_schema: {type: 'object', properties: {}}}],
				tool_choice: {type: 'any', disable_parallel_tool_use: true},
				thinking: {type: 'adaptive'},
				output_config: {effort: 'max', format: {type: 'json_schema', schema: {type: 'object', properties: {city: {type: 'string'}}}}},
				stop_sequences: ['END'],
				top_k: 5,
			},
			{},
			recordingContext(),
		);
		assert.deepEqual(ir.toolChoice, {type: 'required'});
		assert.equal(ir.parallelToolCalls, false);
		assert.deepEqual(ir.reasoning, {enabled: true, effort: 'high'});
		assert.deepEqual(ir.responseFormat, {type: 'json_schema', schema: {type: 'object', properties: {city: {type: 'string'}}}});
		assert.deepEqual(ir.stop, ['END']);
		assert.equal(ir.topK, 5);
		assert.equal(ir.stream, false);
		assert.deepEqual(ir.messages, [{role: 'user', parts: [{type: 'text', text: 'Extract the city.'}]}]);
	});

	test('images (base64 and url), images inside tool results, redacted thinking and wrapped foreign signatures', () => {
		const ir = anthropicAdapter.decodeRequest(
			{
				model: 'm',
				max_tokens: 10,
				messages: [
					{role: 'user', content: [{type: 'image', source: {type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo='}}, {type: 'image', source: {type: 'url', url: 'https://example.com/a.jpg'}}]},
					{
						role: 'assistant',
						content: [
							{type: 'thinking', thinking: 'hmm', signature: 'gtui1.gemini.c2lnLWdlbWluaQ=='},
							{type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3p'},
							{type: 'tool_use', id: 'toolu_1', name: 'shot', input: {}},
						],
					},
					{role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: [{type: 'text', text: 'here'}, {type: 'image', source: {type: 'base64', media_type: 'image/jpeg', data: '/9j/'}}]}]},
				],
			},
			{},
			recordingContext(),
		);
		assert.deepEqual(ir.messages[0].parts, [
			{type: 'image', source: {kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo='}},
			{type: 'image', source: {kind: 'url', url: 'https://example.com/a.jpg'}},
		]);
		assert.deepEqual(ir.messages[1].parts.slice(0, 2), [
			{type: 'reasoning', text: 'hmm', signature: {format: 'gemini', value: 'c2lnLWdlbWluaQ=='}},
			{type: 'reasoning', text: '', redacted: 'EmwKAhgBEgy3va3p'},
		]);
		assert.deepEqual(ir.messages[2].parts[0], {
			type: 'tool_result',
			toolCallId: 'toolu_1',
			isError: true,
			content: [
				{type: 'text', text: 'here'},
				{type: 'image', source: {kind: 'base64', mediaType: 'image/jpeg', data: '/9j/'}},
			],
		});
	});

	for (const [name, body, param, pattern] of [
		['not an object', 'hello', undefined, /JSON object/],
		['no messages', {model: 'm', max_tokens: 1}, 'messages', /messages: expected an array/],
		['empty messages', {model: 'm', max_tokens: 1, messages: []}, 'messages', /at least one message/],
		['a tool role', {model: 'm', max_tokens: 1, messages: [{role: 'tool', content: 'x'}]}, 'messages.0.role', /expected "user" or "assistant"/],
		['a negative max_tokens', {model: 'm', max_tokens: -1, messages: [{role: 'user', content: 'x'}]}, 'max_tokens', /integer ≥ 0, got -1/],
		['a block without type', {model: 'm', messages: [{role: 'user', content: [{text: 'x'}]}]}, 'messages.0.content.0.type', /Field required/],
		['thinking without budget', {model: 'm', messages: [{role: 'user', content: 'x'}], thinking: {type: 'enabled'}}, 'thinking.budget_tokens', /budget_tokens/],
	] as const) {
		test(`refuses ${name} with a 400 naming the parameter`, () => {
			assert.throws(
				() => anthropicAdapter.decodeRequest(body, {}, recordingContext()),
				(error: unknown) => error instanceof GatewayError && error.status === 400 && error.param === param && pattern.test(error.message),
			);
		});
	}

	test('a tool call whose signature was remembered (no slot in tool_use) gets it back', () => {
		const ctx = recordingContext();
		ctx.signatures.remember('toolu_remembered', {format: 'gemini', value: 'fc-sig'});
		const ir = anthropicAdapter.decodeRequest(
			{model: 'm', messages: [{role: 'user', content: 'go'}, {role: 'assistant', content: [{type: 'tool_use', id: 'toolu_remembered', name: 'f', input: {a: 1}}]}]},
			{},
			ctx,
		);
		assert.deepEqual(ir.messages[1].parts[0], {type: 'tool_call', id: 'toolu_remembered', name: 'f', arguments: '{"a":1}', signature: {format: 'gemini', value: 'fc-sig'}});
	});

	test('unknown fields and unknown block types are ignored (with a warning for the block)', () => {
		const ctx = recordingContext();
		const ir = anthropicAdapter.decodeRequest(
			{model: 'm', max_tokens: 5, service_tier: 'auto', container: null, messages: [{role: 'user', content: [{type: 'document', source: {type: 'text', data: 'x', media_type: 'text/plain'}}, {type: 'text', text: 'Summarise'}]}]},
			{},
			ctx,
		);
		assert.deepEqual(ir.messages[0].parts, [{type: 'text', text: 'Summarise'}]);
		assert.match(ctx.warnings[0], /"document" block/);
	});
});

describe('encodeRequest', () => {
	test('the Claude Code request goes back out unchanged in substance and passes the strict validator', async () => {
		const ctx = recordingContext();
		const ir = anthropicAdapter.decodeRequest(loadJson('request-claude-code'), {}, ctx);
		const {path, body} = await anthropicAdapter.encodeRequest(ir, {...target, stream: true}, ctx);
		assert.equal(path, '/v1/messages');
		assertAccepted(body);
		const original = loadJson('request-claude-code') as Record<string, unknown>;
		assert.equal(body.model, 'claude-sonnet-4-6');
		assert.deepEqual(body.thinking, original.thinking);
		assert.deepEqual(body.metadata, original.metadata);
		assert.equal(body.temperature, 1);
		assert.equal(body.context_management, undefined);
		assert.deepEqual(body.messages, (original.messages as unknown[]).slice(0, 3).map(normaliseContent));
	});

	test('max_tokens falls back to the channel default; stop, user, sampling and tool choice map to their fields', async () => {
		const {body, warnings} = await encode({
			stop: ['END', ' '],
			user: 'u-1',
			temperature: 1.4,
			topP: 0.9,
			topK: 40,
			tools: [{name: 'now', parameters: {}}],
			toolChoice: {type: 'tool', name: 'now'},
			parallelToolCalls: false,
		});
		assertAccepted(body);
		assert.equal(body.max_tokens, 4096);
		assert.deepEqual(body.stop_sequences, ['END']);
		assert.deepEqual(body.metadata, {user_id: 'u-1'});
		assert.equal(body.temperature, 1);
		assert.equal(body.top_p, 0.9);
		assert.equal(body.top_k, 40);
		assert.deepEqual(body.tools, [{name: 'now', input_schema: {properties: {}, type: 'object'}}]);
		assert.deepEqual(body.tool_choice, {type: 'tool', name: 'now', disable_parallel_tool_use: true});
		assert.equal(warnings.length, 2);
	});

	for (const [choice, wire] of [
		[{type: 'auto'}, {type: 'auto'}],
		[{type: 'none'}, {type: 'none'}],
		[{type: 'required'}, {type: 'any'}],
	] as const) {
		test(`tool_choice ${choice.type} → ${wire.type}`, async () => {
			const {body} = await encode({tools: [{name: 'f', parameters: {type: 'object'}}], toolChoice: choice});
			assert.deepEqual(body.tool_choice, wire);
		});
	}

	test('role rules: leading assistant, consecutive turns, misplaced and orphan tool results, missing results', async () => {
		const {body, warnings} = await encode({
			messages: [
				{role: 'assistant', parts: [{type: 'text', text: 'Hello, how can I help?'}]},
				{role: 'user', parts: [{type: 'text', text: 'Weather in Paris'}]},
				{role: 'user', parts: [{type: 'text', text: 'and Rome?'}]},
				{role: 'assistant', parts: [{type: 'tool_call', id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}'}, {type: 'tool_call', id: 'functions.weather:1', name: 'weather', arguments: '{"city":"Rome"}'}]},
				{role: 'user', parts: [{type: 'text', text: 'note'}, {type: 'tool_result', toolCallId: 'call_a', content: [{type: 'text', text: '18°C'}]}]},
				{role: 'user', parts: [{type: 'tool_result', toolCallId: 'call_zzz', content: [{type: 'text', text: 'stale'}]}]},
				{role: 'assistant', parts: [{type: 'text', text: 'Paris is 18°C.  '}]},
			],
			tools: [{name: 'weather', parameters: {type: 'object', properties: {city: {type: 'string'}}}}],
		});
		assertAccepted(body);
		assert.deepEqual(body.messages, [
			{role: 'user', content: [{type: 'text', text: 'Please continue.'}]},
			{role: 'assistant', content: [{type: 'text', text: 'Hello, how can I help?'}]},
			{role: 'user', content: [{type: 'text', text: 'Weather in Paris'}, {type: 'text', text: 'and Rome?'}]},
			{
				role: 'assistant',
				content: [
					{type: 'tool_use', id: 'call_a', name: 'weather', input: {city: 'Paris'}},
					{type: 'tool_use', id: 'functions_weather_1', name: 'weather', input: {city: 'Rome'}},
				],
			},
			{
				role: 'user',
				content: [
					{type: 'tool_result', tool_use_id: 'call_a', content: [{type: 'text', text: '18°C'}]},
					{type: 'tool_result', tool_use_id: 'functions_weather_1', content: [{type: 'text', text: 'No result was recorded for this tool call.'}], is_error: true},
					{type: 'text', text: 'note'},
					{type: 'text', text: 'Result of tool call call_zzz:\nstale'},
				],
			},
			{role: 'assistant', content: [{type: 'text', text: 'Paris is 18°C.'}]},
		]);
		assert.equal(warnings.length, 2);
	});

	test('signatures: Anthropic thinking is kept, foreign or unsigned reasoning is dropped with a warning', async () => {
		const {body, warnings} = await encode({
			messages: [
				{role: 'user', parts: [{type: 'text', text: 'Q1'}]},
				{role: 'assistant', parts: [{type: 'reasoning', text: 'gemini thought', signature: {format: 'gemini', value: 'g1'}}, {type: 'text', text: 'A1', signature: {format: 'gemini', value: 'g2'}}]},
				{role: 'user', parts: [{type: 'text', text: 'Q2'}]},
				{role: 'assistant', parts: [{type: 'reasoning', text: 'deepseek thought'}, {type: 'text', text: 'A2'}]},
				{role: 'user', parts: [{type: 'text', text: 'Q3'}]},
				{
					role: 'assistant',
					parts: [
						{type: 'reasoning', text: 'claude thought', signature: {format: 'anthropic', value: 'sig-a'}},
						{type: 'reasoning', text: '', redacted: 'REDACTED'},
						{type: 'tool_call', id: 'toolu_9', name: 'f', arguments: '', signature: {format: 'openai', value: 'x'}},
					],
				},
				{role: 'user', parts: [{type: 'tool_result', toolCallId: 'toolu_9', content: []}]},
			],
			tools: [{name: 'f', parameters: {type: 'object'}}],
		});
		assertAccepted(body);
		const assistants = (body.messages as Array<{role: string; content: unknown[]}>).filter(message => message.role === 'assistant');
		assert.deepEqual(assistants.map(message => message.content), [
			[{type: 'text', text: 'A1'}],
			[{type: 'text', text: 'A2'}],
			[
				{type: 'thinking', thinking: 'claude thought', signature: 'sig-a'},
				{type: 'redacted_thinking', data: 'REDACTED'},
				{type: 'tool_use', id: 'toolu_9', name: 'f', input: {}},
			],
		]);
		assert.equal(warnings.length, 4);
		assert.match(warnings.join('\n'), /gemini signature cannot go to Anthropic/);
		assert.match(warnings.join('\n'), /without an Anthropic signature was dropped \(16 characters/);
		assert.match(warnings.join('\n'), /openai reasoning signature on a tool call toolu_9/);
	});

	test('reasoning effort → budget_tokens; max_tokens is raised above the budget; temperature and top_k are dropped', async () => {
		const {body, warnings} = await encode({reasoning: {enabled: true, effort: 'low'}, maxTokens: 1000, temperature: 0.2, topK: 3, topP: 0.97});
		assertAccepted(body);
		assert.deepEqual(body.thinking, {type: 'enabled', budget_tokens: 2048});
		assert.equal(body.max_tokens, 3048);
		assert.equal(body.temperature, undefined);
		assert.equal(body.top_k, undefined);
		assert.equal(body.top_p, 0.97);
		assert.equal(warnings.length, 2);
	});

	test('a budget below the API minimum is raised to 1024; disabled reasoning is sent as disabled', async () => {
		assert.deepEqual((await encode({reasoning: {enabled: true, budgetTokens: 100}, maxTokens: 8000})).body.thinking, {type: 'enabled', budget_tokens: 1024});
		assert.deepEqual((await encode({reasoning: {enabled: false}})).body.thinking, {type: 'disabled'});
	});

	test('thinking is turned off with a forced tool, and when the current tool call has no thinking block', async () => {
		const forced = await encode({reasoning: {enabled: true, budgetTokens: 2000}, tools: [{name: 'f', parameters: {type: 'object'}}], toolChoice: {type: 'required'}});
		assertAccepted(forced.body);
		assert.equal(forced.body.thinking, undefined);
		assert.match(forced.warnings[0], /forced tool choice/);
		const lost = await encode({
			reasoning: {enabled: true, budgetTokens: 2000},
			tools: [{name: 'f', parameters: {type: 'object'}}],
			messages: [
				{role: 'user', parts: [{type: 'text', text: 'go'}]},
				{role: 'assistant', parts: [{type: 'tool_call', id: 'call_1', name: 'f', arguments: '{}'}]},
				{role: 'user', parts: [{type: 'tool_result', toolCallId: 'call_1', content: [{type: 'text', text: 'ok'}]}]},
			],
		});
		assertAccepted(lost.body);
		assert.equal(lost.body.thinking, undefined);
		assert.match(lost.warnings[0], /no Anthropic thinking block/);
	});

	test('JSON output: a schema goes to output_config.format with closed objects; JSON mode becomes an instruction', async () => {
		const schema = await encode({responseFormat: {type: 'json_schema', name: 'city', schema: {type: 'object', properties: {city: {type: 'string'}, at: {type: 'object', properties: {}}}}}});
		assertAccepted(schema.body);
		assert.deepEqual(schema.body.output_config, {
			format: {
				type: 'json_schema',
				schema: {type: 'object', properties: {city: {type: 'string'}, at: {type: 'object', properties: {}, additionalProperties: false}}, additionalProperties: false},
			},
		});
		const mode = await encode({system: [{text: 'Be terse.'}], responseFormat: {type: 'json_object'}});
		assert.equal(mode.body.output_config, undefined);
		assert.deepEqual(mode.body.system, [
			{type: 'text', text: 'Be terse.'},
			{type: 'text', text: 'Respond with a single valid JSON object and nothing else: no prose, no code fences.'},
		]);
		assert.match(mode.warnings[0], /json_object/);
	});

	test('no unknown IR fields leak: only documented parameters are sent', async () => {
		const {body} = await encode({includeUsage: true, parallelToolCalls: true, stream: true, responseFormat: {type: 'text'}}, {stream: true});
		assert.deepEqual(Object.keys(body).sort(), ['max_tokens', 'messages', 'model', 'stream']);
		assert.equal(body.stream, true);
	});
});

describe('round trip', () => {
	test('decode(encode(ir)) keeps the supported subset', async () => {
		const ir: IRRequest = {
			model: 'claude-sonnet-4-6',
			system: [{text: 'You are terse.', cache: {type: 'ephemeral', ttl: '1h'}}],
			messages: [
				{role: 'user', parts: [{type: 'text', text: 'Look', cache: {type: 'ephemeral'}}, {type: 'image', source: {kind: 'url', url: 'https://example.com/x.png'}}]},
				{role: 'assistant', parts: [{type: 'reasoning', text: 'ok', signature: {format: 'anthropic', value: 'sig'}}, {type: 'tool_call', id: 'toolu_1', name: 'zoom', arguments: '{"level":2}'}]},
				{role: 'user', parts: [{type: 'tool_result', toolCallId: 'toolu_1', isError: true, content: [{type: 'text', text: 'no'}]}]},
			],
			tools: [{name: 'zoom', description: 'Zoom in', parameters: {type: 'object', properties: {level: {type: 'number'}}}, cache: {type: 'ephemeral'}}],
			toolChoice: {type: 'auto'},
			parallelToolCalls: false,
			maxTokens: 5000,
			topP: 0.96,
			stop: ['STOP'],
			responseFormat: {type: 'json_schema', schema: {type: 'object', properties: {}, additionalProperties: false}},
			reasoning: {enabled: true, budgetTokens: 2048},
			stream: true,
			temperature: 1,
			user: 'user-7',
		};
		const ctx = recordingContext();
		const {body} = await anthropicAdapter.encodeRequest(ir, {...target, model: ir.model, stream: true}, ctx);
		assertAccepted(body);
		assert.deepEqual(anthropicAdapter.decodeRequest(body, {}, ctx), ir);
		assert.deepEqual(ctx.warnings, []);
	});
});

function normaliseContent(message: unknown): unknown {
	const {role, content} = message as {role: string; content: unknown};
	const blocks = typeof content === 'string' ? [{type: 'text', text: content}] : (content as Array<Record<string, unknown>>);
	return {
		role,
		content: blocks.map(block => (block.type === 'tool_result' && typeof block.content === 'string' ? {...block, content: [{type: 'text', text: block.content}]} : block)),
	};
}
