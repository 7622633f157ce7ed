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
import {anthropicClient, eventually, geminiClient, openaiClient} from '../helpers/sdks.js';

const formats = ['openai', 'anthropic', 'gemini'] as const;
type Format = (typeof formats)[number];

let gateway: TestGateway;
let secret: string;
const providers = {} as Record<Format, FakeProvider>;

before(async () => {
	gateway = await startTestGateway();
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

const hint = (format: Format) => new RegExp(`The provider of channel "ch-${format}" has no model "retired-${format}-1" \\(retired or renamed\\?\\): HTTP 404: .*\`gateway-tui channels test ch-${format}\` names the channel's models its provider no longer lists; \`gateway-tui channels edit ch-${format} --models …\` changes them\\.`);

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
