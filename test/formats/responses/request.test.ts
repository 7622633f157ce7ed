import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {GatewayError} from '../../../source/base/errors.js';
import {responsesAdapter} from '../../../source/formats/responses/index.js';
import {wrapSignature} from '../../../source/formats/signature.js';
import {fixture, testContext, type TestContext} from './helpers.js';

const decode = (body: unknown, ctx: TestContext = testContext()) => responsesAdapter.decodeRequest(body, {}, ctx);

const weatherTool = {type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: {type: 'object', properties: {city: {type: 'string'}}, required: ['city']}, strict: false};

function rejects(body: unknown, pattern: RegExp, param?: string): void {
	assert.throws(
		() => decode(body),
		(error: unknown) => error instanceof GatewayError && error.status === 400 && pattern.test(error.message) && (param === undefined || error.param === param),
	);
}

describe('responses decodeRequest', () => {
	it('reads a string input with instructions and the sampling settings', () => {
		const ir = decode({model: 'm', instructions: 'Be brief.', input: 'Hello', max_output_tokens: 100, temperature: 0.2, top_p: 0.9, stream: true});
		assert.deepEqual(ir, {
			model: 'm',
			system: [{text: 'Be brief.'}],
			messages: [{role: 'user', parts: [{type: 'text', text: 'Hello'}]}],
			tools: [],
			stream: true,
			maxTokens: 100,
			temperature: 0.2,
			topP: 0.9,
		});
	});

	it('folds developer and system messages into the system prompt and joins consecutive items of one role', () => {
		const png = 'iVBORw0KGgo=';
		const ir = decode({
			model: 'm',
			input: [
				{type: 'message', role: 'developer', content: [{type: 'input_text', text: 'Sandbox: read-only.'}]},
				{role: 'system', content: 'Answer in English.'},
				{type: 'message', role: 'user', content: [{type: 'input_text', text: '<environment_context/>'}]},
				{role: 'user', content: [{type: 'input_text', text: 'What is this?'}, {type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto'}]},
				{type: 'message', role: 'assistant', content: [{type: 'output_text', text: 'A pixel.', annotations: []}]},
			],
		});
		assert.deepEqual(ir.system, [{text: 'Sandbox: read-only.'}, {text: 'Answer in English.'}]);
		assert.deepEqual(ir.messages, [
			{
				role: 'user',
				parts: [
					{type: 'text', text: '<environment_context/>'},
					{type: 'text', text: 'What is this?'},
					{type: 'image', source: {kind: 'base64', mediaType: 'image/png', data: png}},
				],
			},
			{role: 'assistant', parts: [{type: 'text', text: 'A pixel.'}]},
		]);
	});

	it('turns reasoning, function_call and function_call_output items into one assistant turn and one user turn', () => {
		const signature = wrapSignature({format: 'anthropic', value: 'EqoBsig'}, 'openai');
		const ir = decode({
			model: 'm',
			input: [
				{role: 'user', content: 'Weather in Paris and Rome?'},
				{type: 'reasoning', id: 'rs_1', summary: [{type: 'summary_text', text: 'I should call the tool.'}], encrypted_content: signature},
				{type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}'},
				{type: 'function_call', id: 'fc_2', call_id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}'},
				{type: 'function_call_output', call_id: 'call_a', output: 'sunny'},
				{type: 'function_call_output', call_id: 'call_b', output: [{type: 'input_text', text: 'rainy'}]},
			],
			tools: [weatherTool],
		});
		assert.deepEqual(ir.messages.slice(1), [
			{
				role: 'assistant',
				parts: [
					{type: 'reasoning', text: 'I should call the tool.', signature: {format: 'anthropic', value: 'EqoBsig'}},
					{type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}'},
					{type: 'tool_call', id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}'},
				],
			},
			{
				role: 'user',
				parts: [
					{type: 'tool_result', toolCallId: 'call_a', name: 'get_weather', content: [{type: 'text', text: 'sunny'}]},
					{type: 'tool_result', toolCallId: 'call_b', name: 'get_weather', content: [{type: 'text', text: 'rainy'}]},
				],
			},
		]);
		assert.deepEqual(ir.tools, [{name: 'get_weather', description: 'Weather for a city', parameters: weatherTool.parameters}]);
	});

	it('keeps OpenAI\'s own encrypted reasoning as an openai signature, and recalls a Gemini tool-call signature by call id', () => {
		const ctx = testContext();
		ctx.signatures.remember('call_gem', {format: 'gemini', value: 'CiQBsig'});
		const ir = decode({
			model: 'm',
			input: [
				{role: 'user', content: 'hi'},
				{type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAAB-native'},
				{type: 'function_call', call_id: 'call_gem', name: 'f', arguments: '{}'},
			],
		}, ctx);
		assert.deepEqual(ir.messages[1]!.parts, [
			{type: 'reasoning', text: '', signature: {format: 'openai', value: 'gAAAAAB-native'}},
			{type: 'tool_call', id: 'call_gem', name: 'f', arguments: '{}', signature: {format: 'gemini', value: 'CiQBsig'}},
		]);
	});

	it('declares a custom (freeform) tool as a function with one string input, and reads its calls back', () => {
		const ir = decode({
			model: 'm',
			input: [
				{role: 'user', content: 'Fix the typo.'},
				{type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch'},
				{type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done!'},
			],
			tools: [{type: 'custom', name: 'apply_patch', description: 'Edit files.', format: {type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch"'}}],
		});
		const [tool] = ir.tools;
		assert.equal(tool!.name, 'apply_patch');
		assert.deepEqual(tool!.parameters, {type: 'object', properties: {input: {type: 'string', description: 'The raw text input.'}}, required: ['input']});
		assert.match(tool!.description!, /^Edit files\.\n\nCall it with \{"input": "<raw text>"\}.*\n\nThe text must follow this lark grammar:\nstart: "\*\*\* Begin Patch"$/s);
		assert.deepEqual(ir.messages[1]!.parts, [{type: 'tool_call', id: 'call_p', name: 'apply_patch', arguments: '{"input":"*** Begin Patch\\n*** End Patch"}'}]);
		assert.deepEqual(ir.messages[2]!.parts, [{type: 'tool_result', toolCallId: 'call_p', name: 'apply_patch', content: [{type: 'text', text: 'Done!'}]}]);
	});

	it('flattens a namespace\'s tools (Codex\'s sub-agent tools) and reads namespaced calls back under the flat name', () => {
		const ir = decode({
			model: 'm',
			input: [
				{role: 'user', content: 'Spawn a helper.'},
				{type: 'function_call', call_id: 'call_s', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{"task":"x"}'},
				{type: 'function_call_output', call_id: 'call_s', output: 'agent-1'},
			],
			tools: [{type: 'namespace', name: 'multi_agent_v1', description: 'Tools for sub-agents.', tools: [{type: 'function', name: 'spawn_agent', description: 'Start one.', parameters: {type: 'object', properties: {task: {type: 'string'}}}}]}],
			tool_choice: {type: 'function', namespace: 'multi_agent_v1', name: 'spawn_agent'},
		});
		assert.deepEqual(ir.tools, [{name: 'multi_agent_v1__spawn_agent', description: 'Tools for sub-agents.\n\nStart one.', parameters: {type: 'object', properties: {task: {type: 'string'}}}}]);
		assert.deepEqual(ir.toolChoice, {type: 'tool', name: 'multi_agent_v1__spawn_agent'});
		assert.deepEqual(ir.messages[1]!.parts, [{type: 'tool_call', id: 'call_s', name: 'multi_agent_v1__spawn_agent', arguments: '{"task":"x"}'}]);
		assert.deepEqual(ir.messages[2]!.parts, [{type: 'tool_result', toolCallId: 'call_s', name: 'multi_agent_v1__spawn_agent', content: [{type: 'text', text: 'agent-1'}]}]);
	});

	it('drops hosted tools and unknown input items with a warning, and keeps local_shell as a function', () => {
		const ctx = testContext();
		const ir = decode(
			{
				model: 'm',
				input: [{role: 'user', content: 'hi'}, {type: 'web_search_call', id: 'ws_1', status: 'completed', action: {type: 'search', query: 'x'}}],
				tools: [{type: 'web_search', external_web_access: false}, {type: 'local_shell'}, weatherTool],
				tool_choice: {type: 'web_search'},
			},
			ctx,
		);
		assert.deepEqual(ir.tools.map(tool => tool.name), ['local_shell', 'get_weather']);
		assert.deepEqual(ir.toolChoice, {type: 'auto'});
		assert.deepEqual(ctx.warnings, [
			'Dropped an input item of type "web_search_call": it has no equivalent on this channel.',
			'tool_choice "web_search" names a tool this channel does not have; sent as "auto".',
			"Dropped the web_search tool: it runs on OpenAI's servers and has no equivalent on this channel.",
		]);
	});

	it('maps tool_choice, parallel_tool_calls, text.format and reasoning.effort', () => {
		const base = {model: 'm', input: 'hi', tools: [weatherTool, {type: 'custom', name: 'apply_patch'}]};
		assert.deepEqual(decode({...base, tool_choice: 'required'}).toolChoice, {type: 'required'});
		assert.deepEqual(decode({...base, tool_choice: {type: 'function', name: 'get_weather'}}).toolChoice, {type: 'tool', name: 'get_weather'});
		assert.deepEqual(decode({...base, tool_choice: {type: 'custom', name: 'apply_patch'}}).toolChoice, {type: 'tool', name: 'apply_patch'});
		const allowed = decode({...base, tool_choice: {type: 'allowed_tools', mode: 'required', tools: [{type: 'function', name: 'get_weather'}]}});
		assert.deepEqual([allowed.toolChoice, allowed.tools.map(tool => tool.name)], [{type: 'required'}, ['get_weather']]);
		assert.equal(decode({...base, parallel_tool_calls: false}).parallelToolCalls, false);
		const schema = {type: 'object', properties: {answer: {type: 'string'}}, required: ['answer'], additionalProperties: false};
		assert.deepEqual(decode({...base, text: {format: {type: 'json_schema', name: 'answer', schema, strict: true}}}).responseFormat, {type: 'json_schema', name: 'answer', schema, strict: true});
		assert.deepEqual(decode({...base, text: {format: {type: 'json_object'}}}).responseFormat, {type: 'json_object'});
		assert.deepEqual(decode({...base, reasoning: {effort: 'high', summary: 'auto'}}).reasoning, {enabled: true, effort: 'high'});
		assert.deepEqual(decode({...base, reasoning: {effort: 'none'}}).reasoning, {enabled: false});
	});

	it('ignores store: false, include and prompt_cache_key silently, and says what it drops', () => {
		const ctx = testContext();
		decode({model: 'm', input: 'hi', store: false, include: ['reasoning.encrypted_content'], prompt_cache_key: 'k', service_tier: 'flex', text: {verbosity: 'low'}}, ctx);
		assert.deepEqual(ctx.warnings, ['Ignored service_tier, text.verbosity: no equivalent on the upstream format.']);
		const stored = testContext();
		decode({model: 'm', input: 'hi', store: true}, stored);
		assert.deepEqual(stored.warnings, [], 'store: true is honoured by the gateway (see test/responses/stored.test.ts)');
	});

	it('refuses what needs state stored at OpenAI, in words that say what to do', () => {
		rejects({model: 'm', input: 'hi', previous_response_id: 'resp_123'}, /Previous response with id 'resp_123' not found\. .*send the whole conversation in `input`/, 'previous_response_id');
		rejects({model: 'm', input: [{type: 'item_reference', id: 'msg_1'}]}, /no stored items/);
		rejects({model: 'm', conversation: 'conv_1', input: 'hi'}, /state stored at OpenAI/, 'conversation');
		rejects({model: 'm', input: [{role: 'user', content: [{type: 'input_image', file_id: 'file-1'}]}]}, /stored at OpenAI.*image_url/);
	});

	it('rejects malformed requests with the field to fix', () => {
		rejects({model: 'm'}, /`input` must be a string or an array/, 'input');
		rejects({model: 'm', input: []}, /non-empty/, 'input');
		rejects({model: 'm', input: [{role: 'tool', content: 'x'}]}, /role/, 'input[0].role');
		rejects({model: 'm', input: 'hi', reasoning: {effort: 'extreme'}}, /reasoning.effort/, 'reasoning.effort');
		rejects({model: 'm', input: 'hi', text: {format: {type: 'yaml'}}}, /text.format.type/, 'text.format.type');
		rejects({model: 'm', input: [{type: 'function_call', name: 'f', arguments: '{}'}]}, /call_id/, 'input[0].call_id');
	});
});

describe('responses decodeRequest: what Codex CLI 0.169 sends (captured)', () => {
	it('reads the first turn: developer messages as the system prompt, namespaced tools flattened, web_search dropped', () => {
		const ctx = testContext();
		const ir = decode(fixture('request-codex'), ctx);
		assert.equal(ir.stream, true);
		assert.equal(ir.system.length, 3);
		assert.match(ir.system[0]!.text, /^You are a coding agent running in the Codex CLI/);
		assert.equal(ir.messages.length, 1);
		assert.deepEqual(ir.messages[0]!.parts.at(-1), {type: 'text', text: 'Say hello'});
		assert.deepEqual(ir.tools.map(tool => tool.name), ['exec_command', 'view_image', 'multi_agent_v1__close_agent', 'multi_agent_v1__resume_agent']);
		assert.deepEqual(ir.parallelToolCalls, true);
		assert.deepEqual(ctx.warnings, ["Dropped the web_search tool: it runs on OpenAI's servers and has no equivalent on this channel."]);
	});

	it('reads a later turn: the function_call and its output, paired by call_id', () => {
		const ir = decode(fixture('request-codex-tool-output'));
		assert.deepEqual(ir.messages.slice(1), [
			{role: 'assistant', parts: [{type: 'tool_call', id: 'call_x1', name: 'exec_command', arguments: '{"cmd":"echo gateway-ok"}'}]},
			{role: 'user', parts: [{type: 'tool_result', toolCallId: 'call_x1', name: 'exec_command', content: [{type: 'text', text: 'Chunk ID: 7a4d37\nWall time: 0.3407 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\ngateway-ok\n'}]}]},
		]);
	});
});
