/** The channel setting `responsesApi` and how it routes Responses API requests. */
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {test} from 'node:test';
import {resolveRoutes} from '../../source/proxy/routing.js';
import {anthropicAdapter} from '../../source/formats/anthropic/index.js';
import {openaiAdapter} from '../../source/formats/openai/index.js';
import {responsesAdapter} from '../../source/formats/responses/index.js';
import type {Snapshot} from '../../source/proxy/registry.js';
import {addChannel, channelView, editChannel} from '../../source/services/channels.js';
import {Store} from '../../source/store/index.js';
import {channelRecordSchema, type KeyRecord} from '../../source/base/records.js';
import {tempHome} from '../helpers/gateway.js';
import {speaksResponsesApi} from '../../source/base/responses-api.js';

test('responsesApi: on by default only for api.openai.com, settable on OpenAI channels, refused on others', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	try {
		const official = await addChannel(store, {name: 'oa', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-real-1234567890abcdef', models: 'gpt-5'});
		const compatible = await addChannel(store, {name: 'ds', format: 'openai', baseUrl: 'https://api.deepseek.com/v1', models: 'deepseek-chat'});
		assert.equal(official.responsesApi, undefined, 'the default is not written into the record');
		assert.deepEqual([speaksResponsesApi(official), speaksResponsesApi(compatible)], [true, false]);
		assert.deepEqual([channelView(official).responsesApi, channelView(compatible).responsesApi], [true, false]);
		const on = await editChannel(store, 'ds', {responsesApi: 'on'});
		assert.deepEqual([on.responsesApi, speaksResponsesApi(on)], [true, true]);
		const off = await editChannel(store, 'oa', {responsesApi: 'off'});
		assert.equal(speaksResponsesApi(off), false);
		assert.equal((await editChannel(store, 'oa', {priority: 3})).responsesApi, false, 'kept when other settings change');
		await assert.rejects(addChannel(store, {name: 'an', format: 'anthropic', baseUrl: 'https://api.anthropic.com', models: 'claude-sonnet-4-6', responsesApi: 'on'}), /openai channels only/);
		await assert.rejects(editChannel(store, 'ds', {responsesApi: 'yes'}), /use on or off/);
		const moved = await editChannel(store, 'ds', {format: 'anthropic', baseUrl: 'https://api.anthropic.com'});
		assert.equal(moved.responsesApi, undefined, 'a channel that stops being OpenAI loses the setting');
	} finally {
		await store.close();
		rmSync(home, {recursive: true, force: true});
	}
});

test('records written before the setting existed stay valid', () => {
	const old = {v: 1, id: 'ch_1', name: 'oa', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: null, models: [{name: 'm', upstream: 'm'}], enabled: true, priority: 0, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z'};
	assert.equal(channelRecordSchema.safeParse(old).success, true);
});

test('Responses requests pass through only to OpenAI channels that speak it, and prefer OpenAI channels', () => {
	const channel = (name: string, format: 'openai' | 'anthropic' | 'gemini', baseUrl: string, priority = 0, responsesApi?: boolean) =>
		channelRecordSchema.parse({v: 1, id: `ch_${name}`, name, format, baseUrl, apiKey: null, models: [{name: 'm', upstream: 'm'}], enabled: true, priority, ...(responsesApi === undefined ? {} : {responsesApi}), createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z'});
	const anthropic = channel('anthropic', 'anthropic', 'https://api.anthropic.com', 10);
	const chat = channel('chat', 'openai', 'http://127.0.0.1:11434/v1', 5);
	const native = channel('native', 'openai', 'http://127.0.0.1:8000/v1', 0, true);
	assert.deepEqual([responsesAdapter.affinity(native), responsesAdapter.affinity(chat), openaiAdapter.affinity(chat), responsesAdapter.affinity(anthropic)], [2, 1, 2, 0]);
	const key = {models: [], channels: [], name: 'k'} as unknown as KeyRecord;
	const snapshot = {channels: [anthropic, chat, native]} as unknown as Snapshot;
	assert.deepEqual(resolveRoutes(snapshot, key, 'm', responsesAdapter).map(route => route.channel.name), ['native', 'chat', 'anthropic']);
	assert.deepEqual(resolveRoutes(snapshot, key, 'm', anthropicAdapter).map(route => route.channel.name), ['anthropic', 'chat', 'native']);
});
