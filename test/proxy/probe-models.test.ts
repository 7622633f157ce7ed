/**
 * `channels test` / the TUI's `t` read the provider's whole model list (one page: Anthropic's 20 and
 * Gemini's 50 a page are asked for 1000) and say which of the channel's models it does not name —
 * retired, misspelt, not open to the key — and which it lists as deprecated, with the date the
 * provider gives. Against the strict fakes, which page their lists as the providers do.
 */
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import type {ChannelRecord} from '../../source/base/records.js';
import type {Format} from '../../source/base/ir.js';
import {parseModels} from '../../source/services/parse.js';
import {probeOutcome} from '../../source/services/channels.js';
import {alternativesFor, compareModels, modelFamily, probeChannel} from '../../source/proxy/probe.js';
import {startFakeProvider, type FakeOptions, type FakeProvider} from '../helpers/fake-providers.js';

const started: FakeProvider[] = [];
const fake = async (format: Format, options: FakeOptions): Promise<FakeProvider> => {
	const provider = await startFakeProvider(format, options);
	started.push(provider);
	return provider;
};
after(() => Promise.all(started.map(provider => provider.close())));

const channel = (provider: FakeProvider, models: string): ChannelRecord => ({v: 1, id: `ch_${provider.format}`, name: provider.format, format: provider.format, baseUrl: provider.url, apiKey: provider.apiKey, models: parseModels(models), enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'});
const many = (prefix: string, count: number) => Array.from({length: count}, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);
const now = Date.parse('2026-11-29T12:00:00Z');

let anthropic: FakeProvider;
before(async () => {
	// More models than one default page (20), the channel's own far down the list; one dated, one deprecated.
	anthropic = await fake('anthropic', {models: [...many('claude-old', 40), 'claude-sonnet-4-5-20250929', 'claude-sonnet-5-5', 'claude-haiku-5-5'], deprecated: {'claude-sonnet-4-5-20250929': '2026-11-30T00:00:00Z'}});
});

test('Anthropic: the whole list in one call (limit=1000); a dated snapshot names its alias; a deprecated model with its retirement date', async () => {
	const result = await probeChannel(channel(anthropic, 'claude-sonnet-4-5,sonnet=claude-sonnet-5-5,claude-haiku-5-5,claude-opus-9'));
	// The deprecated model's family in the list: the name to move to (claude-opus-9 has none listed).
	assert.deepEqual(result, {ok: true, latencyMs: result.latencyMs, models: 43, unlisted: ['claude-opus-9'], retiring: [{model: 'claude-sonnet-4-5', retiresAt: '2026-11-30T00:00:00Z'}], alternatives: {'claude-sonnet-4-5': ['claude-sonnet-5-5']}});
	assert.deepEqual(anthropic.received.find(request => request.path === '/v1/models')?.query, {limit: '1000'});
	assert.deepEqual(anthropic.received.filter(request => request.path.startsWith('/v1/models/')).map(request => request.path), ['/v1/models/claude-opus-9'], 'what the list did not name, asked for alone');
	assert.equal(
		probeOutcome('anthropic', result, 'with `gateway-tui channels edit anthropic`', now).replace(/\d+ ms/, 'N ms'),
		'Channel "anthropic" answered in N ms (43 models listed). Its list does not name claude-opus-9: a request for it fails if the provider retired it or the key may not use it — check the name and change the channel\'s models with `gateway-tui channels edit anthropic`. claude-sonnet-4-5 is deprecated: the provider retires it on 2026-11-30 (in 12h) — move to a newer model (it lists claude-sonnet-5-5) with `gateway-tui channels edit anthropic`.',
	);
	assert.match(probeOutcome('anthropic', result, '(e edits the channel)', Date.parse('2026-12-02T00:00:00Z')), /claude-sonnet-4-5 is deprecated and past its retirement date \(2026-11-30\) — move to a newer model \(it lists claude-sonnet-5-5\) \(e edits the channel\)\.$/);
});

test('Gemini: the whole list in one call (pageSize=1000), names without their models/ prefix', async () => {
	const gemini = await fake('gemini', {models: [...many('gemini-old', 80), 'gemini-3.5-flash']});
	const result = await probeChannel(channel(gemini, 'gemini-3.5-flash,flash=gemini-2.5-flash,gemini-2.5-pro'));
	assert.ok(result.ok);
	assert.deepEqual([result.models, result.unlisted, result.retiring, result.alternatives], [81, ['gemini-2.5-flash', 'gemini-2.5-pro'], [], {'gemini-2.5-flash': ['gemini-3.5-flash']}]);
	assert.deepEqual(gemini.received.find(request => request.path === '/v1beta/models')?.query, {pageSize: '1000'});
	assert.match(probeOutcome('gemini', result, '(e edits the channel)', now), /Its list does not name gemini-2\.5-flash \(it lists gemini-3\.5-flash\), gemini-2\.5-pro: requests for them fail if the provider retired them or the key may not use them — check the names and change the channel's models \(e edits the channel\)\.$/);
});

test('OpenAI: one list; every model listed says nothing more', async () => {
	const openai = await fake('openai', {});
	const result = await probeChannel(channel(openai, 'gpt-4o-mini,fast=gpt-4o'));
	assert.deepEqual(result, {ok: true, latencyMs: result.latencyMs, models: 4, unlisted: [], retiring: [], alternatives: {}});
	assert.equal(probeOutcome('openai', result, '(e edits the channel)').replace(/\d+ ms/, 'N ms'), 'Channel "openai" answered in N ms (4 models listed).');
});

test("a local server's untagged name is its :latest (Ollama lists llama3.2 as llama3.2:latest); another tag is another model", async () => {
	const ollama = await fake('openai', {models: ['llama3.2:latest', 'qwen2.5-coder:7b']});
	const result = await probeChannel(channel(ollama, 'llama3.2,coder=qwen2.5-coder:7b,qwen2.5-coder'));
	assert.ok(result.ok);
	assert.deepEqual(result.unlisted, ['qwen2.5-coder']);
});

test("a name the list leaves out but the provider answers to (xAI's grok-4 for grok-4-0709) is asked for alone, and is not missing", async () => {
	const xai = await fake('openai', {models: ['grok-4-0709', 'grok-3'], aliases: {'grok-4': 'grok-4-0709'}});
	const result = await probeChannel(channel(xai, 'grok-4,old=grok-2-1212'));
	assert.ok(result.ok);
	assert.deepEqual(result.unlisted, ['grok-2-1212']);
	assert.deepEqual(xai.received.filter(request => request.path.startsWith('/v1/models/')).map(request => request.path).sort(), ['/v1/models/grok-2-1212', '/v1/models/grok-4']);
});

test('a list with more pages than one call reads, or not a list at all, names nothing as missing', async () => {
	const huge = await fake('anthropic', {models: many('claude-x', 1001)});
	const result = await probeChannel(channel(huge, 'claude-not-on-page-one'));
	assert.deepEqual(result, {ok: true, latencyMs: result.latencyMs, models: 1000, unlisted: [], retiring: [], alternatives: {}});
	const unknown = {ids: [], complete: false, deprecated: new Map<string, string | null>()};
	assert.deepEqual(compareModels({models: parseModels('a,b')}, unknown), {models: 0, unlisted: [], retiring: []});
	// An empty list is no evidence either (a local server with nothing loaded says so by failing the request).
	assert.deepEqual(compareModels({models: parseModels('a')}, {...unknown, complete: true}), {models: 0, unlisted: [], retiring: []});
});

test('the names to move to: the listed models of the same family the provider does not deprecate, newest first, three at most', () => {
	const families: Array<[string, string]> = [
		['claude-sonnet-4-5', 'claude-sonnet'],
		['claude-sonnet-4-5-20250929', 'claude-sonnet'],
		['claude-3-5-sonnet-20241022', 'claude-sonnet'],
		['gemini-2.5-flash', 'gemini-flash'],
		['gemini-3.1-pro-preview', 'gemini-pro'],
		['gpt-4o-mini', 'gpt-mini'],
		['gpt-5.4', 'gpt'],
		['gpt-4o-2024-08-06', 'gpt'],
		['anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet'],
	];
	for (const [name, family] of families) assert.equal(modelFamily(name), family, name);
	const listed = {
		ids: ['claude-sonnet-4-6', 'claude-sonnet-5-5', 'claude-sonnet-5-5-20261001', 'claude-sonnet-10', 'claude-sonnet-4-5-20250929', 'claude-haiku-5-5', 'claude-opus-4-8', 'claude-sonnet-3-7'],
		complete: true,
		deprecated: new Map([['claude-sonnet-3-7', '2026-02-19T00:00:00Z']]),
	};
	assert.deepEqual(alternativesFor(['claude-sonnet-4-5', 'claude-opus-9', 'claude-fable-1'], listed), {
		// Numbers compared as numbers (10 before 5-5), a dated snapshot left out beside its alias, the deprecated one and the model's own snapshot left out.
		'claude-sonnet-4-5': ['claude-sonnet-10', 'claude-sonnet-5-5', 'claude-sonnet-4-6'],
		'claude-opus-9': ['claude-opus-4-8'],
	});
	assert.deepEqual(alternativesFor(['4', 'latest'], listed), {}, 'a name that is all numbers has no family');
});
