/**
 * A model its provider no longer has (retired or renamed): the provider's 404 reaches each real SDK
 * as a 404, and what the client and the request log read says which channel it was and what to run
 * next. Passed through, the client gets the provider's own error as it came; the log gets the hint
 * and the provider's request id. Translated, the client's message carries the hint too.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {ApiError} from '@google/genai';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {editChannel} from '../../source/services/channels.js';
import {defaultHealthOptions} from '../../source/proxy/health.js';
import {anthropicClient, eventually, geminiClient, openaiClient} from '../helpers/sdks.js';
import {warningText} from '../../source/ui/hooks/use-status.js';
import {statusMessageLines} from '../../source/ui/components/chrome.js';

const formats = ['openai', 'anthropic', 'gemini'] as const;
type Format = (typeof formats)[number];

let gateway: TestGateway;
let now = Date.now();
let secret: string;
const providers = {} as Record<Format, FakeProvider>;

before(async () => {
	// Channel health reads this clock: the test moves it past the time a missing model is remembered.
	gateway = await startTestGateway({health: {...defaultHealthOptions, clock: {now: () => now}}});
	for (const format of formats) {
		providers[format] = await startFakeProvider(format);
		// The channel still names a model its provider has retired: the client asks for `old-FORMAT`, the channel sends `retired-FORMAT-1`.
		await gateway.addProvider(providers[format], {name: `ch-${format}`, models: `old-${format}=retired-${format}-1`});
	}
	secret = (await gateway.createKey()).secret;
});
after(async () => {
	await gateway.close();
	for (const format of formats) await providers[format].close();
});

/** What each SDK throws for a generate call on `model`: its status and the message it shows. */
async function failure(client: Format, model: string): Promise<{status: number; message: string; code?: string | null}> {
	try {
		switch (client) {
			case 'openai':
				await openaiClient(gateway.url, secret).chat.completions.create({model, messages: [{role: 'user', content: 'hi'}]});
				break;
			case 'anthropic':
				await anthropicClient(gateway.url, secret).messages.create({model, max_tokens: 16, messages: [{role: 'user', content: 'hi'}]});
				break;
			case 'gemini':
				await geminiClient(gateway.url, secret).models.generateContent({model, contents: 'hi'});
				break;
		}
	} catch (error) {
		if (error instanceof OpenAI.APIError) return {status: error.status ?? 0, message: error.message, code: error.code};
		// The Anthropic and Gemini SDKs put the error body's JSON in their message: what a user reads is its message field.
		if (error instanceof Anthropic.APIError) return {status: error.status ?? 0, message: (error.error as {error?: {message?: string}} | undefined)?.error?.message ?? error.message};
		if (error instanceof ApiError) return {status: error.status, message: (JSON.parse(error.message) as {error: {message: string}}).error.message};
		throw error;
	}
	assert.fail(`${client} client: the request for ${model} succeeded`);
}

const hint = (format: Format) => new RegExp(`The provider of channel "ch-${format}" has no model "retired-${format}-1" \\(retired or renamed\\?\\): HTTP 404: .*\`gateway-tui channels test ch-${format}\` names the models its provider lists instead; \`gateway-tui channels edit ch-${format} --remove-models retired-${format}-1 --add-models NEW\` swaps it\\.`);

for (const client of formats) {
	for (const channel of formats) {
		test(`${client} client, ${channel} channel: a retired model is a 404 that says what to run`, async () => {
			const logged = gateway.nextFinished();
			const seen = await failure(client, `old-${channel}`);
			assert.equal(seen.status, 404, seen.message);
			const record = await logged;
			assert.equal(record.status, 404);
			assert.match(record.error ?? '', hint(channel));
			if (client === channel) {
				// Passed through: the provider's own words, not the gateway's; the log adds the hint and keeps the provider's request id where it sends one.
				assert.doesNotMatch(seen.message, /gateway-tui/);
				assert.match(seen.message, /retired-/);
				if (channel !== 'gemini') assert.match(record.error ?? '', /\(provider request id \S+\)$/);
			} else {
				assert.match(seen.message, hint(channel));
				if (client === 'openai') assert.equal(seen.code, 'model_not_found');
			}
		});
	}
}

test('the last channel serving a retired model: its 404 goes to the client, and the model is remembered and said once, as the last one', async () => {
	const alone = await gateway.addProvider(providers.openai, {name: 'alone', models: 'gone-alone=retired-alone-1'});
	const warnings: string[] = [];
	const inTui: string[] = [];
	const stop = gateway.events.on('warning', warning => {
		warnings.push(warning.message);
		inTui.push(statusMessageLines(warningText(warning), 80).join(' '));
	});
	try {
		for (const client of formats) assert.equal((await failure(client, 'gone-alone')).status, 404);
		assert.deepEqual(warnings, ['channel "alone" has no model "retired-alone-1" any more (HTTP 404); check it (`gateway-tui channels test alone`). It was the last channel serving it, so the request failed.'], 'said once, not on every request');
		assert.match(inTui[0]!, /check it \(2, then t on "alone"\)/);
		// The Channels pane and `channels list` show it as lacked.
		assert.ok(gateway.health.lacks(alone, 'retired-alone-1'));
		assert.equal(gateway.health.stateOf(alone), 'healthy', 'not a failure of the channel');
	} finally {
		stop();
	}
});

test('a 404 that is not about the model keeps the plain message', async () => {
	// The OpenAI fake answers an unknown path with a 404 that names no model: a channel whose base URL lost its /v1, say.
	const misplaced = await gateway.addProvider(providers.openai, {name: 'no-v1', models: 'elsewhere'});
	await editChannel(gateway.store, misplaced.id, {baseUrl: providers.openai.url.replace(/\/v1$/, '')});
	await gateway.registry.refresh();
	const seen = await failure('anthropic', 'elsewhere');
	assert.equal(seen.status, 404, seen.message);
	assert.match(seen.message, /The provider of channel "no-v1" rejected the request: Invalid URL/);
	assert.doesNotMatch(seen.message, /retired or renamed/);
	await eventually(() => gateway.finished.at(-1)?.model === 'elsewhere');
});

test('another channel serving the model takes the request when the first one\'s provider has retired it — passed through, streamed, translated — and goes first while it is remembered', async () => {
	// "moving" is served by two channels; the first (higher priority) still names the model its provider retired.
	// Each call is its own conversation: one the gateway pinned to "second" would not try "first" again anyway.
	await gateway.addProvider(providers.openai, {name: 'first', models: 'moving=retired-openai-2', priority: 10});
	await gateway.addProvider(providers.anthropic, {name: 'second', models: `moving=${providers.anthropic.models[0]}`});
	const first = () => gateway.registry.snapshot.channels.find(channel => channel.name === 'first')!;
	let turn = 0;
	const calls: Record<string, () => Promise<unknown>> = {
		openai: () => openaiClient(gateway.url, secret).chat.completions.create({model: 'moving', messages: [{role: 'user', content: `turn ${++turn}`}]}),
		'openai streamed': async () => {
			const stream = await openaiClient(gateway.url, secret).chat.completions.create({model: 'moving', stream: true, messages: [{role: 'user', content: `turn ${++turn}`}]});
			for await (const _ of stream);
		},
		// A Gemini client has no channel of its own format here, so priority puts "first" first (an Anthropic client would go to "second", its own format, at once).
		gemini: () => geminiClient(gateway.url, secret).models.generateContent({model: 'moving', contents: `turn ${++turn}`}),
	};
	const served = async (name: string) => {
		const logged = gateway.nextFinished();
		await calls[name]!();
		const record = await logged;
		assert.equal(record.status, 200, name);
		assert.equal(record.channelName, 'second', name);
		return record;
	};
	const failedOver = async (name: string) => {
		const record = await served(name);
		assert.deepEqual(record.attempts, ['first', 'second'], name);
		assert.ok(record.warnings.some(warning => warning.includes('channel "first" has no model "retired-openai-2" any more') && warning.includes('`gateway-tui channels test first`')), `${name}: ${record.warnings.join('; ')}`);
	};
	const straight = async (name: string) => {
		const record = await served(name);
		assert.deepEqual(record.attempts, ['second'], `${name}: the channel that lacks the model is tried last now`);
		assert.deepEqual(record.warnings, [], name);
	};
	const warnings: string[] = [];
	const inTui: string[] = [];
	const stop = gateway.events.on('warning', warning => {
		warnings.push(warning.message);
		inTui.push(statusMessageLines(warningText(warning), 80).join(' '));
	});
	// The Channels pane is told what the channel lacks, and when it no longer does.
	// Each model with how long it is remembered from then (the view carries the time, so readers leave it out once past).
	const lacking: Array<Array<[string, number]> | undefined> = [];
	const stopHealth = gateway.events.on('channel:health', view => view.channelName === 'first' && lacking.push(view.lacking?.map(({model, until}) => [model, Date.parse(until) - now])));
	for (const name of Object.keys(calls)) {
		// Each kind of request fails over once; after it, "first" goes last for that model until it is forgotten.
		gateway.health.reset(first());
		await failedOver(name);
		await straight(name);
	}
	assert.equal(gateway.health.stateOf(first()), 'healthy', 'the first channel\'s other models still work: the 404 is not its fault');
	// serve's stderr and the TUI's status bar are told once a time it is found, not on every request.
	const told = 'channel "first" has no model "retired-openai-2" any more (HTTP 404); check it (`gateway-tui channels test first`). Other channels serving it go first for 10 min.';
	assert.deepEqual(warnings, [told, told, told]);
	// The TUI's status bar at 80 columns cuts the explanation, never the step.
	assert.match(inTui[0]!, /^channel "first" has no model "retired-openai-2" any more \(HTTP 404\); check it \(2, then t on "first"\)\./);
	now += 9 * 60_000;
	await straight('openai');
	now += 2 * 60_000;
	await failedOver('openai');
	assert.equal(warnings.length, 4, 'told again once it was forgotten and found again');
	stop();
	// Found three times (each after gateway.health.reset, which says it lacks nothing), forgotten once, found again.
	const found: Array<[string, number]> = [['retired-openai-2', 10 * 60_000]];
	assert.deepEqual(lacking, [found, undefined, found, undefined, found, undefined, found]);
	stopHealth();
	// A change to the channel's models forgets it at once.
	await editChannel(gateway.store, 'first', {models: 'moving=retired-openai-2,spare'});
	await gateway.registry.refresh();
	await failedOver('gemini');
	// With no other channel for the model, the 404 reaches the client as before.
	await editChannel(gateway.store, 'second', {enabled: false});
	await gateway.registry.refresh();
	const alone = await failure('openai', 'moving');
	assert.equal(alone.status, 404);
	assert.equal(alone.code, 'model_not_found');
});
