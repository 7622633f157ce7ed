import assert from 'node:assert/strict';
import {describe, it} from 'node:test';
import type {IRRequest, IRStreamEvent} from '../../source/base/ir.js';
import {aliasToolNames, restoreStreamToolNames, ToolNameMap} from '../../source/formats/tool-names.js';
import {collect, fromArray} from '../helpers/streams.js';

const everyProvider = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

describe('ToolNameMap', () => {
	it('keeps valid names, escapes others, shortens long ones with a hash, and maps every alias back', () => {
		const names = new ToolNameMap();
		const long = `mcp__server__${'x'.repeat(80)}`;
		const cases = ['get_weather', 'mcp__github.com__create_issue', '1password_lookup', long, `${long}2`];
		const aliases = cases.map(name => names.alias(name));
		assert.equal(aliases[0], 'get_weather');
		assert.equal(aliases[1], 'mcp__github_com__create_issue');
		assert.equal(aliases[2], '_1password_lookup');
		assert.ok(aliases.every(alias => everyProvider.test(alias)), aliases.join(', '));
		assert.equal(new Set(aliases).size, cases.length, 'two long names sharing a prefix get different aliases');
		assert.deepEqual(aliases.map(alias => names.original(alias)), cases);
		assert.equal(names.original('a_name_the_model_made_up'), 'a_name_the_model_made_up');
	});

	it('gives the same aliases on every request (a provider prompt cache keeps matching)', () => {
		const name = `mcp__${'y'.repeat(70)}`;
		assert.equal(new ToolNameMap().alias(name), new ToolNameMap().alias(name));
	});

	it('keeps a client name that equals another name\'s alias apart from it', () => {
		const names = new ToolNameMap();
		const dotted = names.alias('a.b');
		const plain = names.alias('a_b');
		assert.notEqual(dotted, plain);
		assert.deepEqual([names.original(dotted), names.original(plain)], ['a.b', 'a_b']);
	});

	it('renames declarations, the forced choice, history calls and results; restores streamed calls', async () => {
		const names = new ToolNameMap();
		const request: IRRequest = {
			model: 'm',
			system: [],
			stream: true,
			tools: [{name: 'a.b', parameters: {type: 'object'}}],
			toolChoice: {type: 'tool', name: 'a.b'},
			messages: [
				{role: 'assistant', parts: [{type: 'tool_call', id: 'c1', name: 'a.b', arguments: '{}'}]},
				{role: 'user', parts: [{type: 'tool_result', toolCallId: 'c1', name: 'a.b', content: []}]},
			],
		};
		const aliased = aliasToolNames(request, names);
		assert.equal(JSON.stringify(aliased).includes('a.b'), false);
		const events: IRStreamEvent[] = [{type: 'block-start', index: 0, block: {kind: 'tool_call', id: 'c2', name: 'a_b'}}];
		const restored = await collect(restoreStreamToolNames(fromArray(events), names));
		assert.deepEqual(restored, [{type: 'block-start', index: 0, block: {kind: 'tool_call', id: 'c2', name: 'a.b'}}]);
	});
});
