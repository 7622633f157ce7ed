/**
 * A channel's last test is kept in the store (`test:<channel id>` in the meta namespace): read back
 * by every reader, replaced by the next test, left out where another version wrote it in a form this
 * one cannot read, and gone with its channel.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Store} from '../../source/store/index.js';
import {addChannel, editChannel, removeChannel, testChannel} from '../../source/services/channels.js';
import {keepProbeRound, readChannelTest, readChannelTests, saveChannelTest} from '../../source/store/channel-tests.js';
import {tempHome} from '../helpers/gateway.js';

test('a channel test is kept as its last one, replaced by the next, unreadable ones left out, and removed with its channel', async () => {
	const store = await Store.open(tempHome());
	try {
		const channel = await addChannel(store, {name: 'one', format: 'openai', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-real-0123456789abcdef', models: 'gpt-4o'});
		const other = await addChannel(store, {name: 'two', format: 'openai', baseUrl: 'https://api.example.org/v1', apiKey: 'sk-real-abcdef0123456789', models: 'gpt-4o'});
		assert.deepEqual(await readChannelTests(store), new Map());
		const before = Date.now();
		const revision = await store.revision();
		await testChannel(store, 'one', async () => ({ok: false, latencyMs: 7, status: 401, error: 'HTTP 401: Incorrect API key provided: sk-…cdef'}));
		assert.notEqual(await store.revision(), revision, 'readers are told (a TUI in another terminal reloads and shows it)');
		await testChannel(store, 'one', async () => ({ok: true, latencyMs: 12, models: 3, unlisted: ['gpt-4o'], retiring: [{model: 'gpt-4o', retiresAt: null}], alternatives: {'gpt-4o': ['gpt-5.4']}}));
		await testChannel(store, 'two', async () => ({ok: false, latencyMs: 3, error: 'could not be reached'}));
		const kept = await readChannelTest(store, channel.id);
		assert.deepEqual(kept?.result, {ok: true, latencyMs: 12, models: 3, unlisted: ['gpt-4o'], retiring: [{model: 'gpt-4o', retiresAt: null}], alternatives: {'gpt-4o': ['gpt-5.4']}}, 'the newest test');
		assert.equal(kept?.channelUpdatedAt, channel.updatedAt);
		assert.ok(Date.parse(kept!.at) >= before - 1000 && Date.parse(kept!.at) <= Date.now());
		assert.deepEqual([...(await readChannelTests(store)).keys()].sort(), [channel.id, other.id].sort());
		// Another version's form of the record: left out, never an error.
		await store.raw('meta').set(`test:${other.id}`, {v: 2, outcome: 'elsewhere'});
		assert.deepEqual([...(await readChannelTests(store)).keys()], [channel.id]);
		assert.equal(await readChannelTest(store, other.id), undefined);
		await removeChannel(store, 'one');
		assert.equal(await readChannelTest(store, channel.id), undefined, 'gone with its channel');
		// A test that ran while its channel was removed is not left behind (the TUI's t, a probe round).
		await saveChannelTest(store, channel, {ok: true, latencyMs: 1, models: 3, unlisted: [], retiring: [], alternatives: {}});
		assert.equal(await readChannelTest(store, channel.id), undefined, 'a channel removed while it was tested');
		assert.equal(await keepProbeRound(store, [{channel, result: {ok: false, latencyMs: 1, error: 'could not be reached'}}]), true);
		assert.equal(await store.raw('meta').get(`test:${channel.id}`), undefined, 'nor from a probe round');
	} finally {
		await store.close();
	}
});

test("a round of --probe-every checks is kept as the channels' last tests, and tells readers only when a finding differs from the one kept", async () => {
	const store = await Store.open(tempHome());
	try {
		const one = await addChannel(store, {name: 'one', format: 'openai', baseUrl: 'https://api.example.com/v1', apiKey: 'sk-real-0123456789abcdef', models: 'gpt-4o'});
		const two = await addChannel(store, {name: 'two', format: 'openai', baseUrl: 'https://api.example.org/v1', apiKey: 'sk-real-abcdef0123456789', models: 'gpt-4o'});
		const fine = (latencyMs: number) => ({ok: true as const, latencyMs, models: 3, unlisted: [], retiring: [], alternatives: {}});
		const refused = {ok: false as const, latencyMs: 4, status: 401, error: 'HTTP 401: Incorrect API key provided: sk-…cdef'};
		const told = async (round: Parameters<typeof keepProbeRound>[1], at: Date) => {
			const revision = await store.revision();
			const said = await keepProbeRound(store, round, at);
			assert.equal(said, (await store.revision()) !== revision, 'what it returns is whether the revision moved');
			return said;
		};
		assert.equal(await told([{channel: one, result: fine(10)}, {channel: two, result: fine(11)}], new Date('2026-11-30T10:00:00Z')), true, 'nothing kept before');
		assert.equal(await told([{channel: one, result: fine(30)}, {channel: two, result: fine(5)}], new Date('2026-11-30T10:01:00Z')), false, 'the same findings, other latencies');
		const kept = await readChannelTests(store);
		assert.deepEqual(kept.get(one.id), {at: '2026-11-30T10:01:00.000Z', channelUpdatedAt: one.updatedAt, result: fine(30), by: 'probe'}, 'each check is kept, with its time, though not told');
		assert.equal(await told([{channel: one, result: fine(9)}, {channel: two, result: refused}], new Date('2026-11-30T10:02:00Z')), true, 'a refusal');
		assert.equal(await told([{channel: one, result: {...fine(9), unlisted: ['gpt-4o']}}, {channel: two, result: refused}], new Date('2026-11-30T10:03:00Z')), true, 'a model gone from the list');
		const edited = await editChannel(store, 'two', {priority: 2});
		assert.equal(await told([{channel: one, result: {...fine(9), unlisted: ['gpt-4o']}}, {channel: edited, result: refused}], new Date('2026-11-30T10:04:00Z')), true, 'the channel changed since');
		// A test by hand is kept as one; the next check finding the same does not tell.
		await testChannel(store, 'one', async () => ({...fine(2), unlisted: ['gpt-4o']}));
		assert.equal((await readChannelTest(store, one.id))?.by, 'test');
		assert.equal(await told([{channel: one, result: {...fine(9), unlisted: ['gpt-4o']}}], new Date()), false);
		assert.equal((await readChannelTest(store, one.id))?.by, 'probe');
		assert.equal(await told([], new Date()), false, 'no enabled channels: nothing to keep');
	} finally {
		await store.close();
	}
});
