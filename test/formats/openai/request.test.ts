import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {describe, it} from 'node:test';
import {GatewayError} from '../../../source/base/errors.js';
import type {UpstreamTarget} from '../../../source/formats/adapter.js';
import type {IRRequest} from '../../../source/base/ir.js';
import {openaiAdapter} from '../../../source/formats/openai/index.js';
import {budgetToEffort} from '../../../source/formats/openai/map-openai-reasoning-effort.js';
import {fixture, testContext} from './helpers.js';

const official: UpstreamTarget = {model: 'gpt-4o-2024-08-06', stream: false, baseUrl: 'https://api.openai.com/v1', defaultMaxTokens: 4096};
const deepseek: UpstreamTarget = {model: 'deepseek-reasoner', stream: false, baseUrl: 'https://api.deepseek.com/v1', defaultMaxTokens: 4096};

const decode = (body: unknown) => openaiAdapter.decodeRequest(body, {}, testContext());

function decodeError(body: unknown): GatewayError {
	try {
		decode(body);
	} catch (error) {
		assert.ok(error instanceof GatewayError);
		return error;
	}
	assert.fail('expected a 400');
}

const minimal = (extra: Record<string, unknown> = {}) => ({model: 'gpt-4o', messages: [{role: 'user', content: 'Hi'}], ...extra});

describe('openai decodeRequest', () => {
	it('decodes a full client request into the IR', () => {
		const ir = decode(fixture('request-weather'));
		assert.equal(ir.model, 'gpt-4o');
		assert.deepEqual(ir.system, [{text: 'You are a weather assistant.'}, {text: 'Answer in English.'}]);
		assert.equal(ir.messages.length, 4);
		assert.deepEqual(ir.messages[0], {
			role: 'user',
			parts: [
				{type: 'text', text: "What's the weather like in Paris and Bogotá today? Here is a photo."},
				{type: 'image', source: {kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo='}},
				{type: 'image', source: {kind: 'url', url: 'https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg'}},
			],
		});
		assert.deepEqual(ir.messages[1], {
			role: 'assistant',
			parts: [
				{type: 'tool_call', id: 'call_12345xyz', name: 'get_weather', arguments: '{"location":"Paris, France"}'},
				{type: 'tool_call', id: 'call_67890abc', name: 'get_weather', arguments: '{"location":"Bogotá, Colombia"}'},
			],
		});
		// Consecutive tool messages become one user message, with the tool names Gemini needs.
		assert.deepEqual(ir.messages[2], {
			role: 'user',
			parts: [
				{type: 'tool_result', toolCallId: 'call_12345xyz', name: 'get_weather', content: [{type: 'text', text: '14°C, light rain'}]},
				{type: 'tool_result', toolCallId: 'call_67890abc', name: 'get_weather', content: [{type: 'text', text: '18°C, '}, {type: 'text', text: 'cloudy'}]},
			],
		});
		assert.deepEqual(ir.messages[3], {role: 'user', parts: [{type: 'text', text: 'Which city is warmer?'}]});
		assert.deepEqual(ir.tools[0].name, 'get_weather');
		assert.deepEqual(ir.toolChoice, {type: 'auto'});
		assert.equal(ir.parallelToolCalls, true);
		assert.equal(ir.maxTokens, 1024);
		assert.equal(ir.temperature, 0.2);
		assert.equal(ir.topP, 0.9);
		assert.deepEqual(ir.stop, ['\n\nUser:']);
		assert.deepEqual(ir.reasoning, {enabled: true, effort: 'low'});
		assert.deepEqual(ir.responseFormat, {
			type: 'json_schema',
			name: 'answer',
			strict: true,
			schema: {type: 'object', properties: {city: {type: 'string'}}, required: ['city'], additionalProperties: false},
		});
		assert.equal(ir.user, 'user-1234');
		assert.equal(ir.stream, true);
		assert.equal(ir.includeUsage, true);
	});

	it('reads DeepSeek reasoning_content on assistant messages as a reasoning part', () => {
		const ir = decode(fixture('request-deepseek-thinking'));
		assert.deepEqual(ir.messages[1].parts, [
			{type: 'reasoning', text: 'The user wants the date; I should call get_date.'},
			{type: 'tool_call', id: 'call_00_abc', name: 'get_date', arguments: '{}'},
		]);
		assert.equal(ir.maxTokens, 4096);
		assert.equal(ir.stream, false);
		assert.equal(ir.includeUsage, undefined);
	});

	it('maps every tool_choice form', () => {
		assert.deepEqual(decode(minimal({tool_choice: 'none'})).toolChoice, {type: 'none'});
		assert.deepEqual(decode(minimal({tool_choice: 'required'})).toolChoice, {type: 'required'});
		assert.deepEqual(decode(minimal({tool_choice: {type: 'function', function: {name: 'f'}}})).toolChoice, {type: 'tool', name: 'f'});
	});

	it('turns allowed_tools into its mode and narrows the tool list, with a warning', () => {
		const ctx = testContext();
		const tool = (name: string) => ({type: 'function', function: {name, parameters: {type: 'object', properties: {}}}});
		const ir = openaiAdapter.decodeRequest(
			minimal({
				tools: [tool('a'), tool('b')],
				tool_choice: {type: 'allowed_tools', allowed_tools: {mode: 'required', tools: [{type: 'function', function: {name: 'b'}}]}},
			}),
			{},
			ctx,
		);
		assert.deepEqual(ir.toolChoice, {type: 'required'});
		assert.deepEqual(ir.tools.map(t => t.name), ['b']);
		assert.equal(ctx.warnings.length, 1);
	});

	it('maps reasoning_effort none/xhigh and warns about the lossy one', () => {
		assert.deepEqual(decode(minimal({reasoning_effort: 'none'})).reasoning, {enabled: false});
		const ctx = testContext();
		assert.deepEqual(openaiAdapter.decodeRequest(minimal({reasoning_effort: 'xhigh'}), {}, ctx).reasoning, {enabled: true, effort: 'high'});
		assert.match(ctx.warnings[0], /xhigh/);
	});

	it('warns about parameters with no IR slot instead of failing', () => {
		const ctx = testContext();
		openaiAdapter.decodeRequest(minimal({seed: 7, frequency_penalty: 0.5, logprobs: null}), {}, ctx);
		assert.deepEqual(ctx.warnings, ['Ignored frequency_penalty, seed: no equivalent on the upstream format.']);
	});

	it('takes max_tokens when max_completion_tokens is absent, and stop as a string', () => {
		const ir = decode(minimal({max_tokens: 50, stop: 'END'}));
		assert.equal(ir.maxTokens, 50);
		assert.deepEqual(ir.stop, ['END']);
	});

	it('rejects what it cannot translate with a 400 that names the field', () => {
		assert.equal(decodeError('nope').status, 400);
		assert.equal(decodeError({model: 'x', messages: []}).param, 'messages');
		assert.equal(decodeError(minimal({n: 2})).param, 'n');
		assert.match(decodeError(minimal({n: 2})).message, /single choice/);
		assert.equal(decodeError(minimal({functions: [{name: 'f'}]})).param, 'functions');
		assert.equal(decodeError({model: 'x', messages: [{role: 'robot', content: 'hi'}]}).param, 'messages[0].role');
		assert.equal(decodeError({model: 'x', messages: [{role: 'user', content: 42}]}).param, 'messages[0].content');
		const image = {role: 'user', content: [{type: 'image_url', image_url: {url: 'file:///etc/passwd'}}]};
		assert.equal(decodeError({model: 'x', messages: [image]}).param, 'messages[0].content[0].image_url.url');
		const audio = {role: 'user', content: [{type: 'input_audio', input_audio: {data: 'AAAA', format: 'wav'}}]};
		assert.match(decodeError({model: 'x', messages: [audio]}).message, /"input_audio" cannot be translated/);
		assert.equal(decodeError(minimal({tools: [{type: 'custom', custom: {name: 'x'}}]})).param, 'tools[0].type');
		assert.equal(decodeError(minimal({reasoning_effort: 'extreme'})).param, 'reasoning_effort');
		assert.equal(decodeError(minimal({temperature: 'hot'})).param, 'temperature');
	});
});

const baseIR: IRRequest = {
	model: 'client-model',
	system: [{text: 'Be brief.'}, {text: 'Use metric units.', cache: {type: 'ephemeral'}}],
	messages: [
		{role: 'user', parts: [{type: 'text', text: 'Weather in Paris?'}]},
		{
			role: 'assistant',
			parts: [
				{type: 'reasoning', text: 'Call the tool.', signature: {format: 'anthropic', value: 'EqoBCkgIARAB'}},
				{type: 'text', text: 'Checking.'},
				{type: 'tool_call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"location":"Paris"}'},
			],
		},
		{
			role: 'user',
			parts: [
				{type: 'tool_result', toolCallId: 'toolu_01A09q90qw90lq917835lq9', content: [{type: 'text', text: '14°C'}]},
				{type: 'text', text: 'Thanks'},
			],
		},
	],
	tools: [{name: 'get_weather', description: 'Weather', parameters: {type: 'object', properties: {location: {type: 'string'}}}}],
	toolChoice: {type: 'tool', name: 'get_weather'},
	maxTokens: 300,
	temperature: 0.5,
	topK: 40,
	stop: ['a', 'b', 'c', 'd', 'e'],
	reasoning: {enabled: true, budgetTokens: 10_000},
	responseFormat: {type: 'json_object'},
	user: 'user_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef_account__session_1',
	stream: true,
	includeUsage: false,
};

describe('openai encodeRequest', () => {
	it('encodes for api.openai.com: max_completion_tokens, no reasoning_content, short user, warnings for every loss', async () => {
		const ctx = testContext();
		const encoded = await openaiAdapter.encodeRequest(baseIR, {...official, stream: true}, ctx);
		assert.equal(encoded.path, '/chat/completions');
		assert.equal(encoded.query, undefined);
		assert.deepEqual(encoded.body, {
			model: 'gpt-4o-2024-08-06',
			messages: [
				{role: 'system', content: 'Be brief.\n\nUse metric units.'},
				{role: 'user', content: 'Weather in Paris?'},
				{
					role: 'assistant',
					content: 'Checking.',
					tool_calls: [{id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: {name: 'get_weather', arguments: '{"location":"Paris"}'}}],
				},
				{role: 'tool', tool_call_id: 'toolu_01A09q90qw90lq917835lq9', content: '14°C'},
				{role: 'user', content: 'Thanks'},
			],
			tools: [{type: 'function', function: {name: 'get_weather', description: 'Weather', parameters: {type: 'object', properties: {location: {type: 'string'}}}}}],
			tool_choice: {type: 'function', function: {name: 'get_weather'}},
			max_completion_tokens: 300,
			temperature: 0.5,
			stop: ['a', 'b', 'c', 'd'],
			response_format: {type: 'json_object'},
			reasoning_effort: 'medium',
			// Claude Code's user ids are longer than OpenAI's 64-character limit: a stable hash stands in.
			user: createHash('sha256').update(baseIR.user ?? '').digest('hex'),
			stream: true,
			stream_options: {include_usage: true},
		});
		assert.deepEqual(ctx.warnings, [
			'Dropped a anthropic signature on reasoning: OpenAI chat completions has no field for it.',
			'Dropped earlier reasoning text: api.openai.com chat completions does not accept it back.',
			'Dropped top_k: OpenAI chat completions has no top_k.',
			'Sent only the first 4 of 5 stop sequences: OpenAI accepts at most 4.',
		]);
	});

	it('encodes for an OpenAI-compatible server: max_tokens and reasoning_content, no stream_options when not streaming', async () => {
		const ctx = testContext();
		const encoded = await openaiAdapter.encodeRequest({...baseIR, topK: undefined, stop: undefined}, deepseek, ctx);
		const body = encoded.body;
		assert.equal(body.max_tokens, 300);
		assert.equal(body.max_completion_tokens, undefined);
		assert.equal(body.stream, undefined);
		assert.equal(body.stream_options, undefined);
		assert.equal(body.user, undefined, 'DeepSeek documents no `user`: the end-user id (Claude Code\'s names its account) stays home');
		assert.deepEqual((body.messages as unknown[])[2], {
			role: 'assistant',
			content: 'Checking.',
			reasoning_content: 'Call the tool.',
			tool_calls: [{id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: {name: 'get_weather', arguments: '{"location":"Paris"}'}}],
		});
		assert.deepEqual(ctx.warnings, ['Dropped a anthropic signature on reasoning: OpenAI chat completions has no field for it.']);
	});

	it('leaves tool_choice and parallel_tool_calls out when there are no tools', async () => {
		const ctx = testContext();
		const encoded = await openaiAdapter.encodeRequest(
			{...baseIR, tools: [], toolChoice: {type: 'required'}, parallelToolCalls: false, messages: [baseIR.messages[0]]},
			official,
			ctx,
		);
		assert.equal(encoded.body.tools, undefined);
		assert.equal(encoded.body.tool_choice, undefined);
		assert.equal(encoded.body.parallel_tool_calls, undefined);
		assert.ok(ctx.warnings.includes('Dropped tool_choice "required": the request has no tools.'));
	});

	it('moves images out of tool results into a user message after the tool messages', async () => {
		const ir: IRRequest = {
			...baseIR,
			system: [],
			messages: [
				{role: 'assistant', parts: [{type: 'tool_call', id: 'call_1', name: 'screenshot', arguments: '{}'}]},
				{
					role: 'user',
					parts: [
						{
							type: 'tool_result',
							toolCallId: 'call_1',
							content: [
								{type: 'text', text: 'Here it is'},
								{type: 'image', source: {kind: 'base64', mediaType: 'image/jpeg', data: '/9j/4AAQ'}},
							],
						},
					],
				},
			],
		};
		const encoded = await openaiAdapter.encodeRequest(ir, deepseek, testContext());
		assert.deepEqual((encoded.body.messages as unknown[]).slice(1), [
			{role: 'tool', tool_call_id: 'call_1', content: 'Here it is'},
			{
				role: 'user',
				content: [
					{type: 'text', text: 'Images returned by tool call call_1:'},
					{type: 'image_url', image_url: {url: 'data:image/jpeg;base64,/9j/4AAQ'}},
				],
			},
		]);
	});

	it('shortens tool-call ids over 40 characters for api.openai.com, the same way in the call and its result', async () => {
		const long = 'get_weather_1740000000000_0_abcdefghijklmnopqrstuvwxyz';
		const ir: IRRequest = {
			...baseIR,
			system: [],
			messages: [
				{role: 'assistant', parts: [{type: 'tool_call', id: long, name: 'get_weather', arguments: '{}', signature: {format: 'gemini', value: 'CiQB'}}]},
				{role: 'user', parts: [{type: 'tool_result', toolCallId: long, content: [{type: 'text', text: 'sunny'}]}]},
			],
		};
		const ctx = testContext();
		const messages = (await openaiAdapter.encodeRequest({...ir, topK: undefined, stop: undefined}, official, ctx)).body.messages as Array<Record<string, unknown>>;
		const callId = (messages[0].tool_calls as Array<{id: string}>)[0].id;
		assert.ok(callId.length <= 40);
		assert.match(callId, /^call_/);
		assert.equal(messages[1].tool_call_id, callId);
		assert.deepEqual(ctx.warnings, [`Dropped a gemini signature on tool call ${long}: OpenAI chat completions has no field for it.`]);
	});

	it('maps reasoning budgets to the nearest effort and leaves "off" out', async () => {
		assert.equal(budgetToEffort(1024), 'low');
		assert.equal(budgetToEffort(4095), 'low');
		assert.equal(budgetToEffort(4096), 'medium');
		assert.equal(budgetToEffort(16_383), 'medium');
		assert.equal(budgetToEffort(16_384), 'high');
		const encode = async (reasoning: IRRequest['reasoning']) =>
			(await openaiAdapter.encodeRequest({...baseIR, reasoning}, deepseek, testContext())).body.reasoning_effort;
		assert.equal(await encode({enabled: true, effort: 'minimal'}), 'minimal');
		assert.equal(await encode({enabled: true, budgetTokens: 32_000}), 'high');
		assert.equal(await encode({enabled: false}), undefined);
		assert.equal(await encode({enabled: true, budgetTokens: 0}), undefined);
		assert.equal(await encode({enabled: true, budgetTokens: -1}), undefined);
	});

	it('names an unnamed json_schema response format "response"', async () => {
		const encoded = await openaiAdapter.encodeRequest(
			{...baseIR, responseFormat: {type: 'json_schema', schema: {type: 'object'}}},
			deepseek,
			testContext(),
		);
		assert.deepEqual(encoded.body.response_format, {type: 'json_schema', json_schema: {name: 'response', schema: {type: 'object'}}});
	});

	it('round-trips the supported subset: decode(encode(x)) equals x', async () => {
		const ir: IRRequest = {
			model: 'm',
			system: [{text: 'Be brief.'}],
			messages: [
				{role: 'user', parts: [{type: 'text', text: 'Look'}, {type: 'image', source: {kind: 'url', url: 'https://example.com/a.png'}}]},
				{role: 'assistant', parts: [{type: 'reasoning', text: 'think'}, {type: 'text', text: 'Calling'}, {type: 'tool_call', id: 'call_1', name: 'f', arguments: '{"a":1}'}]},
				{role: 'user', parts: [{type: 'tool_result', toolCallId: 'call_1', name: 'f', content: [{type: 'text', text: 'ok'}]}]},
			],
			tools: [{name: 'f', description: 'F', parameters: {type: 'object', properties: {a: {type: 'number'}}}}],
			toolChoice: {type: 'required'},
			parallelToolCalls: false,
			maxTokens: 100,
			temperature: 0.7,
			topP: 0.5,
			stop: ['x'],
			responseFormat: {type: 'json_schema', name: 'out', schema: {type: 'object'}, strict: true},
			reasoning: {enabled: true, effort: 'high'},
			stream: true,
			includeUsage: true,
			user: 'u1',
		};
		const encoded = await openaiAdapter.encodeRequest(ir, {...deepseek, baseUrl: 'https://openrouter.ai/api/v1', model: 'm', stream: true}, testContext());
		assert.deepEqual(openaiAdapter.decodeRequest(encoded.body, {}, testContext()), ir);
	});
});
