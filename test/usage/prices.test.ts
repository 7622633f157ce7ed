/** Prices per channel model and the cost of a request: tokens × price, cached input at its own price. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {Store} from '../../source/store/index.js';
import {addChannel, editChannel, findChannel} from '../../source/services/channels.js';
import {costOf, formatPrices, parsePriceSpec, priceOf} from '../../source/base/prices.js';
import {UsageRecorder} from '../../source/proxy/usage-recorder.js';
import {recentRequests, usageSummary} from '../../source/store/usage-summary.js';
import {UserError} from '../../source/base/errors.js';
import {tempHome} from '../helpers/gateway.js';
import {finished} from './events.js';

test('parsePriceSpec: IN/OUT, IN/OUT/CACHED, MODEL= clears; anything else says what to type', () => {
	assert.deepEqual(parsePriceSpec('gpt-4o=2.5/10'), {model: 'gpt-4o', price: {input: 2.5, output: 10}});
	assert.deepEqual(parsePriceSpec(' gpt-4o = 2.5/10/1.25 '), {model: 'gpt-4o', price: {input: 2.5, output: 10, cached: 1.25}});
	assert.deepEqual(parsePriceSpec('gpt-4o=0/0'), {model: 'gpt-4o', price: {input: 0, output: 0}});
	assert.deepEqual(parsePriceSpec('gpt-4o='), {model: 'gpt-4o', price: null});
	for (const bad of ['gpt-4o', '=1/2', 'gpt-4o=1', 'gpt-4o=1/2/3/4', 'gpt-4o=-1/2', 'gpt-4o=$1/2', 'gpt-4o=a/b']) {
		assert.throws(() => parsePriceSpec(bad), (error: Error) => error instanceof UserError && /USD per 1M tokens|e\.g\./.test(error.message), bad);
	}
});

test('costOf: cached input at the cached price, the rest at the input price; no price → 0 and unpriced', () => {
	const usage = {inputTokens: 1_000_000, outputTokens: 200_000, cachedTokens: 400_000};
	assert.deepEqual(costOf(usage, {input: 3, output: 15, cached: 0.3}), {costUsd: 0.6 * 3 + 0.4 * 0.3 + 0.2 * 15, unpriced: false});
	assert.deepEqual(costOf(usage, {input: 3, output: 15}), {costUsd: 3 + 0.2 * 15, unpriced: false}, 'without a cached price, cached input costs the input price');
	assert.deepEqual(costOf(usage, undefined), {costUsd: 0, unpriced: true});
	assert.deepEqual(costOf(null, undefined), {costUsd: 0, unpriced: false}, 'no tokens, nothing to price');
	assert.deepEqual(costOf({inputTokens: 0, outputTokens: 0}, undefined), {costUsd: 0, unpriced: false});
});

test('priceOf: by the client-facing name first, then the upstream name', () => {
	const channel = {prices: {fast: {input: 1, output: 2}, 'gpt-4o': {input: 3, output: 4}}};
	assert.deepEqual(priceOf(channel, 'fast', 'gpt-4o-mini'), {input: 1, output: 2});
	assert.deepEqual(priceOf(channel, 'smart', 'gpt-4o'), {input: 3, output: 4});
	assert.equal(priceOf(channel, 'other', 'other'), undefined);
	assert.equal(priceOf({}, 'fast', 'fast'), undefined);
});

test('channels: prices set on add and edit, cleared with MODEL=, refused for a model the channel does not serve; old records stay valid', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	try {
		const base = {format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-real-1234567890abcd', models: 'gpt-4o,fast=gpt-4o-mini'};
		const added = await addChannel(store, {...base, name: 'priced', prices: ['gpt-4o=2.5/10/1.25', 'gpt-4o-mini=0.15/0.6']});
		assert.deepEqual(added.prices, {'gpt-4o': {input: 2.5, output: 10, cached: 1.25}, 'gpt-4o-mini': {input: 0.15, output: 0.6}});
		assert.equal(formatPrices(added.prices), 'gpt-4o=2.5/10/1.25, gpt-4o-mini=0.15/0.6');

		const edited = await editChannel(store, 'priced', {prices: ['gpt-4o=3/12', 'gpt-4o-mini=']});
		assert.deepEqual(edited.prices, {'gpt-4o': {input: 3, output: 12}});
		const cleared = await editChannel(store, 'priced', {prices: ['gpt-4o=']});
		assert.equal(cleared.prices, undefined);
		assert.equal('prices' in (await findChannel(store, 'priced')), false);
		assert.equal(formatPrices(cleared.prices), '-');
		await assert.rejects(editChannel(store, 'priced', {prices: ['claude-opus-4-1=15/75']}), /does not serve "claude-opus-4-1" \(its models: gpt-4o, fast\)/);
		await assert.rejects(addChannel(store, {...base, name: 'x', prices: ['gpt-4o=cheap']}), /Invalid price/);

		const old = await addChannel(store, {...base, name: 'old'});
		const {prices: _none, ...withoutPrices} = old;
		await store.raw('channels').set(old.id, withoutPrices);
		assert.equal((await findChannel(store, 'old')).name, 'old', 'a record written before prices existed reads fine');
	} finally {
		await store.close();
		rmSync(home, {recursive: true, force: true});
	}
});

test('a request is priced when it ends, with its channel\'s prices, and the recorder keeps that price', async () => {
	const home = tempHome();
	const store = await Store.open(home);
	try {
		const channel = await addChannel(store, {name: 'oa', format: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-4o,fast=gpt-4o-mini', prices: ['fast=1/2/0.5']});
		const recorder = new UsageRecorder(store, {adopt: false});
		const on = {channelId: channel.id, channelName: 'oa'};
		recorder.record(finished({...on, model: 'fast', upstreamModel: 'gpt-4o-mini', usage: {inputTokens: 3000, outputTokens: 1000, cachedTokens: 2000}}, channel));
		recorder.record(finished({...on, model: 'gpt-4o', upstreamModel: 'gpt-4o', usage: {inputTokens: 10, outputTokens: 10}}, channel));
		await recorder.close();
		const records = await recentRequests(store, 10);
		assert.deepEqual(records.map(record => [record.model, record.costUsd, record.unpriced]), [
			['fast', (1000 * 1 + 2000 * 0.5 + 1000 * 2) / 1e6, false],
			['gpt-4o', 0, true],
		]);
		const rows = await usageSummary(store, {by: 'model'});
		assert.deepEqual(rows.map(row => [row.group, row.costUsd, row.unpriced]), [
			['fast', 0.004, false],
			['gpt-4o', 0, true],
		]);
	} finally {
		await store.close();
		rmSync(home, {recursive: true, force: true});
	}
});
