import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {GatewayError} from '../../../source/base/errors.js';
import {geminiAdapter} from '../../../source/formats/gemini/index.js';
import type {IRMessage, IRRequest} from '../../../source/base/ir.js';
import {testContext} from './fixtures.js';

const base: IRRequest = {model: 'client-model', system: [], messages: [], tools: [], stream: false};
const target = (model: string, stream = false) => ({model, stream, baseUrl: 'https://generativelanguage.googleapis.com', defaultMaxTokens: 4096});
const png = {mediaType: 'image/png', data: 'iVBORw0KGgo='};

async function encode(request: Partial<IRRequest>, model = 'gemini-2.5-flash', stream = false, ctx = testContext({'https://example.com/cat.png': png})) {
	const encoded = await geminiAdapter.encodeRequest({...base, ...request}, target(model, stream), ctx);
	return {...encoded, warnings: ctx.warnings, fetched: ctx.fetched};
}

const toolTurns: IRMessage[] = [
	{role: 'user', parts: [{type: 'text', text: 'Weather in Paris and Tokyo?'}]},
	{role: 'assistant', parts: [
		{type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}'},
		{type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Tokyo"}'},
	]},
	{role: 'user', parts: [
		{type: 'tool_result', toolCallId: 'call_1', content: [{type: 'text', text: 'sunny'}]},
		{type: 'tool_result', toolCallId: 'call_2', content: [{type: 'text', text: 'no such city'}], isError: true},
	]},
];

describe('gemini encodeRequest', () => {
	it('targets :generateContent, or :streamGenerateContent with alt=sse', async () => {
		assert.equal((await encode({})).path, '/v1beta/models/gemini-2.5-flash:generateContent');
		const streamed = await encode({}, 'models/gemini-2.5-flash', true);
		assert.equal(streamed.path, '/v1beta/models/gemini-2.5-flash:streamGenerateContent');
		assert.deepEqual(streamed.query, {alt: 'sse'});
	});

	it('writes system, merged user/model turns and generation settings, and nothing else', async () => {
		const {body} = await encode({
			system: [{text: 'Be brief.'}, {text: 'Answer in French.', cache: {type: 'ephemeral'}}],
			messages: [
				{role: 'user', parts: [{type: 'text', text: 'Hi'}]},
				{role: 'user', parts: [{type: 'text', text: 'there'}]},
				{role: 'assistant', parts: [{type: 'text', text: 'Bonjour'}]},
			],
			maxTokens: 100, temperature: 0.2, topP: 0.9, topK: 40, stop: ['END'], user: 'user-1', includeUsage: true,
		});
		assert.deepEqual(body, {
			contents: [
				{role: 'user', parts: [{text: 'Hi'}, {text: 'there'}]},
				{role: 'model', parts: [{text: 'Bonjour'}]},
			],
			systemInstruction: {parts: [{text: 'Be brief.'}, {text: 'Answer in French.'}]},
			generationConfig: {maxOutputTokens: 100, temperature: 0.2, topP: 0.9, topK: 40, stopSequences: ['END']},
		});
	});

	it('names each functionResponse after its call and wraps results as output / error', async () => {
		const {body} = await encode({messages: toolTurns});
		assert.deepEqual((body.contents as unknown[])[2], {
			role: 'user',
			parts: [
				{functionResponse: {id: 'call_1', name: 'get_weather', response: {output: 'sunny'}}},
				{functionResponse: {id: 'call_2', name: 'get_weather', response: {error: 'no such city'}}},
			],
		});
	});

	it('refuses a tool result that answers no call, since Gemini needs the name', async () => {
		const orphan: IRMessage[] = [{role: 'user', parts: [{type: 'tool_result', toolCallId: 'call_x', content: []}]}];
		await assert.rejects(encode({messages: orphan}), (error: unknown) => error instanceof GatewayError && /call_x/.test(error.message));
	});

	it('fetches http images, keeps data URLs and Files API URIs, and puts tool-result images where the model reads them', async () => {
		const messages: IRMessage[] = [
			{role: 'user', parts: [
				{type: 'image', source: {kind: 'url', url: 'https://example.com/cat.png'}},
				{type: 'image', source: {kind: 'url', url: 'data:image/gif;base64,R0lGOD=='}},
				{type: 'image', source: {kind: 'url', url: 'https://generativelanguage.googleapis.com/v1beta/files/f1', mediaType: 'image/jpeg'}},
			]},
			{role: 'assistant', parts: [{type: 'tool_call', id: 'call_s', name: 'screenshot', arguments: '{}'}]},
			{role: 'user', parts: [{type: 'tool_result', toolCallId: 'call_s', content: [{type: 'image', source: {kind: 'base64', ...png}}]}]},
		];
		const old = await encode({messages}, 'gemini-2.5-flash');
		const contents = old.body.contents as Array<{parts: unknown[]}>;
		assert.deepEqual(old.fetched, ['https://example.com/cat.png']);
		assert.deepEqual(contents[0].parts, [
			{inlineData: {mimeType: 'image/png', data: 'iVBORw0KGgo='}},
			{inlineData: {mimeType: 'image/gif', data: 'R0lGOD=='}},
			{fileData: {mimeType: 'image/jpeg', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/f1'}},
		]);
		assert.deepEqual(contents[2].parts, [
			{functionResponse: {id: 'call_s', name: 'screenshot', response: {output: ''}}},
			{inlineData: {mimeType: 'image/png', data: 'iVBORw0KGgo='}},
		]);
		const current = await encode({messages}, 'gemini-3-flash-preview');
		assert.deepEqual((current.body.contents as Array<{parts: unknown[]}>)[2].parts, [
			{functionResponse: {id: 'call_s', name: 'screenshot', response: {output: ''}, parts: [{inlineData: {mimeType: 'image/png', data: 'iVBORw0KGgo='}}]}},
		]);
	});

	it('cleans tool schemas down to what `parameters` accepts', async () => {
		const {body} = await encode({
			tools: [
				{name: 'ping', description: 'No arguments.', parameters: {type: 'object', properties: {}, additionalProperties: false}},
				{name: 'search', parameters: {
					$schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false,
					properties: {query: {type: 'string', minLength: 1}, limit: {type: ['integer', 'null'], exclusiveMinimum: 0}},
					required: ['query', 'missing'],
				}},
			],
			toolChoice: {type: 'tool', name: 'search'},
		});
		assert.deepEqual(body.tools, [{functionDeclarations: [
			{name: 'ping', description: 'No arguments.'},
			{name: 'search', parameters: {type: 'OBJECT', properties: {query: {minLength: 1, type: 'STRING'}, limit: {nullable: true, type: 'INTEGER', minimum: 0}}, required: ['query']}},
		]}]);
		assert.deepEqual(body.toolConfig, {functionCallingConfig: {mode: 'ANY', allowedFunctionNames: ['search']}});
	});

	it('maps tool choices and leaves toolConfig out without tools', async () => {
		const tools = [{name: 'f', parameters: {type: 'object', properties: {a: {type: 'string'}}}}];
		assert.deepEqual((await encode({tools, toolChoice: {type: 'auto'}})).body.toolConfig, {functionCallingConfig: {mode: 'AUTO'}});
		assert.deepEqual((await encode({tools, toolChoice: {type: 'none'}})).body.toolConfig, {functionCallingConfig: {mode: 'NONE'}});
		assert.deepEqual((await encode({tools, toolChoice: {type: 'required'}})).body.toolConfig, {functionCallingConfig: {mode: 'ANY'}});
		assert.equal((await encode({toolChoice: {type: 'required'}})).body.toolConfig, undefined);
	});

	it('sends back Gemini signatures, drops foreign ones with a warning, and signs unsigned Gemini 3 calls with the placeholder', async () => {
		const messages: IRMessage[] = [
			{role: 'user', parts: [{type: 'text', text: 'Go'}]},
			{role: 'assistant', parts: [
				{type: 'reasoning', text: 'Let me think', signature: {format: 'anthropic', value: 'EqQB'}},
				{type: 'reasoning', text: 'My own thought', signature: {format: 'gemini', value: 'CiQB'}},
				{type: 'text', text: 'Calling.', signature: {format: 'gemini', value: 'CiQC'}},
				{type: 'tool_call', id: 'call_a', name: 'f', arguments: '{}'},
				{type: 'tool_call', id: 'call_b', name: 'f', arguments: '{}'},
			]},
			{role: 'user', parts: [{type: 'tool_result', toolCallId: 'call_a', content: []}, {type: 'tool_result', toolCallId: 'call_b', content: []}]},
		];
		const {body, warnings} = await encode({messages}, 'gemini-3-pro-preview');
		assert.deepEqual((body.contents as Array<{parts: unknown[]}>)[1].parts, [
			{text: 'My own thought', thought: true, thoughtSignature: 'CiQB'},
			{text: 'Calling.', thoughtSignature: 'CiQC'},
			{functionCall: {id: 'call_a', name: 'f', args: {}}, thoughtSignature: 'skip_thought_signature_validator'},
			{functionCall: {id: 'call_b', name: 'f', args: {}}},
		]);
		assert.equal(warnings.length, 2);
		assert.match(warnings[0], /reasoning signed by anthropic/);
		assert.match(warnings[1], /skip_thought_signature_validator/);
		const legacy = await encode({messages}, 'gemini-2.5-flash');
		assert.equal(JSON.stringify(legacy.body).includes('skip_thought_signature_validator'), false);
	});

	it('recalls the signature an OpenAI client could not carry', async () => {
		const ctx = testContext();
		ctx.signatures.remember('call_remembered', {format: 'gemini', value: 'CiRecalled'});
		const messages: IRMessage[] = [
			{role: 'user', parts: [{type: 'text', text: 'Go'}]},
			{role: 'assistant', parts: [{type: 'tool_call', id: 'call_remembered', name: 'f', arguments: '{"a":1}'}]},
		];
		const {body, warnings} = await encode({messages}, 'gemini-3-pro-preview', false, ctx);
		assert.deepEqual((body.contents as Array<{parts: unknown[]}>)[1].parts, [
			{functionCall: {id: 'call_remembered', name: 'f', args: {a: 1}}, thoughtSignature: 'CiRecalled'},
		]);
		assert.deepEqual(warnings, []);
	});

	it('maps reasoning to thinkingBudget on 2.5 and thinkingLevel on Gemini 3, never both', async () => {
		const thinking = async (reasoning: IRRequest['reasoning'], model: string) =>
			((await encode({reasoning}, model)).body.generationConfig as {thinkingConfig: unknown}).thinkingConfig;
		assert.deepEqual(await thinking({enabled: true, budgetTokens: 2048}, 'gemini-2.5-flash'), {includeThoughts: true, thinkingBudget: 2048});
		assert.deepEqual(await thinking({enabled: true, effort: 'high'}, 'gemini-2.5-pro'), {includeThoughts: true, thinkingBudget: 24_576});
		assert.deepEqual(await thinking({enabled: true}, 'gemini-2.5-flash'), {includeThoughts: true, thinkingBudget: -1});
		assert.deepEqual(await thinking({enabled: false}, 'gemini-2.5-flash'), {thinkingBudget: 0});
		assert.deepEqual(await thinking({enabled: false}, 'gemini-2.5-pro'), {thinkingBudget: 128});
		assert.deepEqual(await thinking({enabled: true, effort: 'medium'}, 'gemini-3-flash-preview'), {includeThoughts: true, thinkingLevel: 'MEDIUM'});
		assert.deepEqual(await thinking({enabled: true, effort: 'minimal'}, 'gemini-3.1-pro-preview'), {includeThoughts: true, thinkingLevel: 'LOW'});
		assert.deepEqual(await thinking({enabled: true, budgetTokens: 31_999}, 'gemini-3-pro-preview'), {includeThoughts: true, thinkingLevel: 'HIGH'});
		assert.deepEqual(await thinking({enabled: false}, 'gemini-3-flash-preview'), {thinkingLevel: 'MINIMAL'});
	});

	it('asks for JSON with responseJsonSchema and caps stop sequences at five', async () => {
		const schema = {type: 'object', properties: {a: {type: 'string'}}, additionalProperties: false};
		const {body, warnings} = await encode({responseFormat: {type: 'json_schema', name: 'x', schema}, stop: ['1', '2', '3', '4', '5', '6']});
		assert.deepEqual(body.generationConfig, {stopSequences: ['1', '2', '3', '4', '5'], responseMimeType: 'application/json', responseJsonSchema: schema});
		assert.match(warnings[0], /at most 5 stop sequences/);
	});
});
