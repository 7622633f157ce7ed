/**
 * Codex's built-in tools on translated channels (issue 16): hosted tools (`web_search`,
 * `image_generation`) never become a function with an empty name, and `namespace` tools keep their
 * schemas all the way to each channel format's request.
 */
import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import {formats} from '../../../source/base/ir.js';
import {adapters} from '../../../source/formats/index.js';
import {responsesAdapter} from '../../../source/formats/responses/index.js';
import {testContext} from './helpers.js';

const spawnSchema = {type: 'object', properties: {task: {type: 'string', description: 'What to do.'}, model: {type: 'string'}}, required: ['task']};

/** The tools a Codex 0.1xx request declares besides its functions. */
const codexTools = [
	{type: 'web_search', external_web_access: false},
	{type: 'image_generation', output_format: 'png'},
	{type: 'function', name: '', description: 'A tool whose name got lost.', parameters: {type: 'object', properties: {}}},
	{type: 'namespace', name: 'multi_agent_v1', description: 'Sub-agents.', tools: [{type: 'function', name: 'spawn_agent', description: 'Start one.', strict: false, parameters: spawnSchema}]},
];

describe('Codex built-in tools', () => {
	it('drops hosted tools and nameless ones, each with a warning, and keeps the namespace tool with its schema', () => {
		const ctx = testContext();
		const ir = responsesAdapter.decodeRequest({model: 'm', input: 'hi', tools: codexTools}, {}, ctx);
		assert.deepEqual(ir.tools, [{name: 'multi_agent_v1__spawn_agent', description: 'Sub-agents.\n\nStart one.', parameters: spawnSchema}]);
		assert.deepEqual(ctx.warnings, [
			"Dropped the web_search tool: it runs on OpenAI's servers and has no equivalent on this channel.",
			"Dropped the image_generation tool: it runs on OpenAI's servers and has no equivalent on this channel.",
			'Dropped 1 tool(s) without a name: no provider accepts them.',
		]);
	});

	for (const format of formats) {
		it(`reaches a ${format} channel with only named tools, the namespace tool's schema intact`, async () => {
			const ctx = testContext();
			const ir = responsesAdapter.decodeRequest({model: 'm', input: 'hi', tools: codexTools}, {}, ctx);
			const {body} = await adapters[format].encodeRequest(ir, {model: 'up', stream: true, baseUrl: 'https://example.test', defaultMaxTokens: 1024}, ctx);
			const text = JSON.stringify(body);
			assert.ok(!/"name":""/.test(text), 'no tool with an empty name');
			assert.match(text, /multi_agent_v1__spawn_agent/);
			assert.match(text, /What to do\./, 'the schema reached the channel');
		});
	}
});
