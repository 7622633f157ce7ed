import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {GatewayError} from '../../../source/base/errors.js';
import {geminiAdapter} from '../../../source/formats/gemini/index.js';
import type {IRToolCallPart, IRToolResultPart} from '../../../source/base/ir.js';
import {loadJson, testContext} from './fixtures.js';

const decode = (body: unknown, options = {model: 'gemini-2.5-flash', stream: false}) => {
	const ctx = testContext();
	return {request: geminiAdapter.decodeRequest(body, options, ctx), warnings: ctx.warnings};
};

describe('gemini decodeRequest', () => {
	it('reads a Gemini CLI request: system, tools, thoughts, signed calls and their responses', () => {
		const {request} = decode(loadJson('request-agent'), {model: 'models/gemini-3-pro-preview', stream: true});
		assert.equal(request.model, 'gemini-3-pro-preview');
		assert.equal(request.stream, true);
		assert.deepEqual(request.system, [{text: 'You are an interactive CLI agent.'}]);
		assert.deepEqual(request.messages[1], {
			role: 'assistant',
			parts: [
				{type: 'reasoning', text: '**Reading the file**'},
				{
					type: 'tool_call',
					id: 'read_file-1759000000000-a1b2',
					name: 'read_file',
					arguments: '{"absolute_path":"/repo/README.md"}',
					signature: {format: 'gemini', value: 'CiQBjz1rX2vQ0yq7tV8c0pNmZl9kqS1T'},
				},
			],
		});
		assert.deepEqual(request.messages[2], {
			role: 'user',
			parts: [{type: 'tool_result', toolCallId: 'read_file-1759000000000-a1b2', name: 'read_file', content: [{type: 'text', text: '# gateway-tui\nA local LLM gateway.'}]}],
		});
		assert.deepEqual(request.toolChoice, {type: 'auto'});
		assert.deepEqual(request.reasoning, {enabled: true, budgetTokens: 8192});
		assert.equal(request.maxTokens, 8192);
		assert.equal(request.temperature, 0);
		assert.equal(request.topP, 1);
	});

	it('keeps parametersJsonSchema as is and turns the OpenAPI-subset parameters into JSON Schema', () => {
		const {request} = decode(loadJson('request-agent'));
		assert.deepEqual(request.tools[0].parameters, {
			type: 'object',
			properties: {absolute_path: {type: 'string', description: 'Absolute path.'}, offset: {type: 'number'}},
			required: ['absolute_path'],
		});
		assert.deepEqual(request.tools[1], {
			name: 'list_directory',
			description: 'Lists a directory.',
			parameters: {
				type: 'object',
				properties: {path: {type: 'string'}, ignore: {type: ['array', 'null'], items: {type: 'string'}}},
				required: ['path'],
			},
		});
	});

	it('accepts snake_case fields and pairs id-less responses with calls by name and order', () => {
		const {request} = decode(loadJson('request-snake-case'));
		assert.deepEqual(request.system, [{text: 'Be brief.'}]);
		assert.deepEqual(request.messages[0].parts[1], {type: 'image', source: {kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg=='}});
		const calls = request.messages[1].parts as IRToolCallPart[];
		const results = request.messages[2].parts as IRToolResultPart[];
		assert.match(calls[0].id, /^call_[0-9a-f]{24}$/);
		assert.notEqual(calls[0].id, calls[1].id);
		assert.equal(results[0].toolCallId, calls[0].id);
		assert.equal(results[1].toolCallId, calls[1].id);
		assert.deepEqual(results[1].content, [{type: 'text', text: 'city not found'}]);
		assert.equal(results[1].isError, true);
		assert.deepEqual(request.toolChoice, {type: 'tool', name: 'get_weather'});
		assert.deepEqual(request.stop, ['END']);
		assert.equal(request.maxTokens, 256);
		assert.deepEqual(request.responseFormat, {type: 'json_schema', schema: {type: 'object', properties: {answer: {type: 'string'}}}});
		assert.deepEqual(request.reasoning, {enabled: true, effort: 'low'});
	});

	it('unwraps signatures that carry another format back to that format', () => {
		const body = {contents: [{role: 'model', parts: [{text: 'thinking', thought: true, thoughtSignature: 'gtui1.anthropic.EqQBCkYIBx'}]}]};
		const {request} = decode(body);
		assert.deepEqual(request.messages[0].parts[0], {type: 'reasoning', text: 'thinking', signature: {format: 'anthropic', value: 'EqQBCkYIBx'}});
	});

	it('reads fileData as an image URL and drops other media with a warning', () => {
		const body = {
			contents: [{parts: [
				{fileData: {mimeType: 'image/jpeg', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc'}},
				{inlineData: {mimeType: 'application/pdf', data: 'JVBERi0='}},
			]}],
		};
		const {request, warnings} = decode(body);
		assert.deepEqual(request.messages[0].parts, [
			{type: 'image', source: {kind: 'url', url: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mediaType: 'image/jpeg'}},
		]);
		assert.match(warnings[0], /application\/pdf/);
	});

	it('maps function-calling modes and thinking settings', () => {
		const withConfig = (toolConfig: unknown, generationConfig: unknown = {}) =>
			decode({contents: [], toolConfig, generationConfig, tools: [{functionDeclarations: [{name: 'a'}, {name: 'b'}, {name: 'c'}]}]}).request;
		assert.deepEqual(withConfig({functionCallingConfig: {mode: 'NONE'}}).toolChoice, {type: 'none'});
		const narrowed = withConfig({functionCallingConfig: {mode: 'ANY', allowedFunctionNames: ['a', 'c']}});
		assert.deepEqual(narrowed.toolChoice, {type: 'required'});
		assert.deepEqual(narrowed.tools.map(tool => tool.name), ['a', 'c']);
		assert.deepEqual(withConfig({}, {thinkingConfig: {thinkingBudget: 0}}).reasoning, {enabled: false});
		assert.deepEqual(withConfig({}, {thinkingConfig: {thinkingBudget: -1}}).reasoning, {enabled: true});
		assert.deepEqual(withConfig({}, {thinkingConfig: {thinkingLevel: 'HIGH'}}).reasoning, {enabled: true, effort: 'high'});
		assert.deepEqual(withConfig({}, {responseMimeType: 'application/json'}).responseFormat, {type: 'json_object'});
		assert.deepEqual(withConfig({}).tools[0].parameters, {type: 'object', properties: {}});
	});

	it('rejects bodies a client can fix, saying what is wrong', () => {
		const reject = (body: unknown, pattern: RegExp) =>
			assert.throws(() => decode(body), (error: unknown) => error instanceof GatewayError && error.status === 400 && pattern.test(error.message));
		reject('hello', /JSON object/);
		reject({}, /contents is required/);
		reject({contents: [{role: 'assistant', parts: [{text: 'hi'}]}]}, /Gemini roles are "user" and "model"/);
		reject({contents: [{role: 'user', parts: [{functionCall: {name: 'x', args: {}}}]}]}, /functionCall parts belong in "model" turns/);
		reject({contents: [{role: 'user', parts: [{functionResponse: {response: {}}}]}]}, /functionResponse.name is required/);
		reject({contents: [], tools: [{functionDeclarations: [{description: 'no name'}]}]}, /name is required/);
		assert.throws(() => geminiAdapter.decodeRequest({contents: []}, {}, testContext()), /No model given/);
	});

	it('warns about what cannot be translated instead of dropping it silently', () => {
		const {warnings} = decode({contents: [], tools: [{googleSearch: {}}], cachedContent: 'cachedContents/1', generationConfig: {candidateCount: 2}});
		assert.equal(warnings.length, 3);
		assert.match(warnings.join('\n'), /googleSearch/);
		assert.match(warnings.join('\n'), /cachedContent/);
		assert.match(warnings.join('\n'), /candidateCount 2/);
	});
});
