/**
 * No real key leaves the gateway: providers of each format whose errors, 401s and mid-stream errors
 * quote every channel's real key (and another client's virtual key) are called from every inbound
 * format, passthrough and translated, streaming and not. The client's bytes (headers and body), the
 * log lines `serve` prints, `logs --json`, the health reasons and `channels test` are scanned.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {randomBytes} from 'node:crypto';
import {addChannel} from '../../source/services/channels.js';
import {formatRequestLine} from '../../source/base/request-line.js';
import {readPublishedHealth} from '../../source/store/published-health.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {eventually} from '../helpers/sdks.js';
import {frames, json, sse, startFaulty, stream, type FaultyProvider, type Play} from '../helpers/faulty-providers.js';
import {runCommand} from './cli-capture.js';
import {rawCall, type ClientFormat} from './raw-call.js';

type ChannelFormat = 'openai' | 'anthropic' | 'gemini' | 'responses';

const realKeys = {
	openai: `sk-proj-${randomBytes(24).toString('base64url')}`,
	anthropic: `sk-ant-api03-${randomBytes(24).toString('base64url')}`,
	gemini: `AIzaSy${randomBytes(20).toString('base64url')}`,
	responses: `sk-svcacct-${randomBytes(24).toString('base64url')}`,
};
let otherClientKey = '';
let gateway: TestGateway;
let secret = '';
const providers = {} as Record<ChannelFormat, FaultyProvider>;
const models: Record<ChannelFormat, string> = {openai: 'o-model', anthropic: 'a-model', gemini: 'g-model', responses: 'r-model'};

// The secrets the gateway under test knows (a key it was never given cannot be recognised).
let known = (): string[] => [...Object.values(realKeys), otherClientKey];
const allSecrets = () => known();
const leakyMessage = () => `key problem: ${allSecrets().join(' and ')}`;

function assertClean(text: string, where: string): void {
	for (const key of allSecrets()) assert.ok(!text.includes(key), `${where} contains a key: ${text.slice(0, 400)}`);
	// A key cut in half is still a leak.
	for (const key of allSecrets()) assert.ok(!text.includes(key.slice(0, 16)), `${where} contains part of a key: ${text.slice(0, 400)}`);
}

function errorBody(format: ChannelFormat, status: number): unknown {
	const message = leakyMessage();
	if (format === 'anthropic') return {type: 'error', error: {type: status === 401 ? 'authentication_error' : 'api_error', message}};
	if (format === 'gemini') return {error: {code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'INTERNAL'}};
	return {error: {message, type: status === 401 ? 'invalid_request_error' : 'server_error', param: null, code: status === 401 ? 'invalid_api_key' : null}};
}

function midStream(format: ChannelFormat): Play {
	const message = leakyMessage();
	switch (format) {
		case 'anthropic':
			return stream(sse, [frames.anthropic('Hel'), frames.anthropicError(message)], 'close');
		case 'gemini':
			return stream(sse, [frames.gemini('Hel'), frames.geminiError(message)], 'close');
		case 'responses':
			return stream(sse, [frames.responses('Hel'), frames.responsesError(message)], 'close');
		default:
			return stream(sse, [frames.openai('Hel'), frames.openaiError(message)], 'close');
	}
}

before(async () => {
	gateway = await startTestGateway({health: {threshold: 10_000, cooldownMs: 1}});
	for (const format of ['openai', 'anthropic', 'gemini', 'responses'] as const) {
		providers[format] = await startFaulty();
		const wire = format === 'responses' ? 'openai' : format;
		const upstream = {openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-6', gemini: 'gemini-2.5-flash', responses: 'gpt-4o-mini'}[format];
		await addChannel(gateway.store, {name: `leaky-${format}`, format: wire, baseUrl: wire === 'openai' ? `${providers[format].url}/v1` : providers[format].url, apiKey: realKeys[format], models: `${models[format]}=${upstream}`, ...(format === 'responses' ? {responsesApi: 'on'} : {})});
	}
	otherClientKey = (await gateway.createKey({name: 'someone-else'})).secret;
	secret = (await gateway.createKey({name: 'scanner'})).secret;
	await gateway.registry.refresh();
});
after(async () => {
	await gateway.close();
	await Promise.all(Object.values(providers).map(provider => provider.close()));
});

const clients: readonly ClientFormat[] = ['openai', 'anthropic', 'gemini', 'responses'];
const channels: readonly ChannelFormat[] = ['openai', 'anthropic', 'gemini', 'responses'];

test('provider errors, refused keys and mid-stream errors quoting real keys reach no client, in any format', async () => {
	let calls = 0;
	for (const client of clients) {
		for (const channel of channels) {
			// The Responses-native channel only serves the Responses API as it is.
			if (channel === 'responses' && client !== 'responses') continue;
			const cases: Array<[string, Play, boolean]> = [
				['500', json(500, errorBody(channel, 500), {'x-request-id': realKeys[channel]}), false],
				['401', json(401, errorBody(channel, 401)), false],
				['mid-stream', midStream(channel), true],
				['500 streamed', json(500, errorBody(channel, 500)), true],
			];
			for (const [name, play, streamed] of cases) {
				providers[channel].enqueue(play);
				const answer = await rawCall(gateway.url, secret, client, models[channel], streamed);
				calls++;
				assertClean(answer.headers + answer.body, `${client} client, ${channel} channel, ${name}`);
				assert.ok(answer.status >= 400 || /error/i.test(answer.body), `${client}→${channel} ${name} reports an error (${answer.status} ${answer.body.slice(0, 200)})`);
			}
		}
	}
	await eventually(() => gateway.finished.length >= calls, 5000, 'every request logged');
	for (const event of gateway.finished) {
		assertClean(JSON.stringify(event), 'serve --json-logs line');
		assertClean(formatRequestLine(event), 'serve log line');
	}
	assert.ok(gateway.finished.some(event => event.error?.includes('key problem')), 'the provider message itself is kept, masked');
	await gateway.usage.flush();
	assertClean(await runCommand(gateway.home, ['logs', '--json', '--tail', '500']), 'logs --json');
	assertClean(await runCommand(gateway.home, ['logs', '--tail', '500']), 'logs');
});

test('health reasons and `channels test` quote no key', async () => {
	const view = (format: ChannelFormat) => gateway.health.view(gateway.registry.snapshot.channels.find(channel => channel.name === `leaky-${format}`)!);
	// One more failure is enough to open the circuit of a fresh gateway with threshold 1: use this one's reasons directly.
	for (const format of channels) {
		providers[format].enqueue(json(401, errorBody(format, 401)));
		const tested = await runCommand(gateway.home, ['channels', 'test', `leaky-${format}`]);
		assert.match(tested, /failed after \d+ ms: HTTP 401: key problem/);
		assertClean(tested, `channels test leaky-${format}`);
		providers[format].enqueue(json(401, errorBody(format, 401)));
		assertClean(await runCommand(gateway.home, ['channels', 'test', `leaky-${format}`, '--json']), `channels test --json leaky-${format}`);
		assertClean(JSON.stringify(view(format)), `health of leaky-${format}`);
	}
	const published = await readPublishedHealth(gateway.store);
	assertClean(JSON.stringify(published), 'published health');
	assertClean(await runCommand(gateway.home, ['channels', 'list', '--json']), 'channels list --json');
});

test('a circuit opened by a mid-stream error quoting keys keeps a masked reason', async () => {
	const strict = await startTestGateway({health: {threshold: 1, cooldownMs: 60_000}});
	const provider = await startFaulty();
	try {
		await addChannel(strict.store, {name: 'leaky', format: 'anthropic', baseUrl: provider.url, apiKey: realKeys.anthropic, models: 'a-model=claude-sonnet-4-6'});
		const key = (await strict.createKey({name: 'k'})).secret;
		otherClientKey = (await strict.createKey({name: 'other'})).secret;
		known = () => [realKeys.anthropic, otherClientKey];
		await strict.registry.refresh();
		provider.enqueue(midStream('anthropic'));
		const answer = await rawCall(strict.url, key, 'anthropic', 'a-model', true);
		assertClean(answer.body, 'the client stream');
		const health = strict.health.view(strict.registry.snapshot.channels[0]!);
		assert.equal(health.state, 'unavailable', 'a mid-stream error counts against the channel');
		assert.match(health.reason ?? '', /key problem: sk-…/);
		assertClean(health.reason ?? '', 'health reason');
		await eventually(async () => Boolean((await readPublishedHealth(strict.store)).some(record => record.channels[strict.registry.snapshot.channels[0]!.id])), 3000, 'health published');
		assertClean(JSON.stringify(await readPublishedHealth(strict.store)), 'published health');
	} finally {
		await strict.close();
		await provider.close();
	}
});
