/**
 * The 3 × 3 matrix: every official SDK as a client, against a strict fake provider of every format,
 * through the gateway. The diagonal is passthrough; the rest is translation.
 */
import {test, before, after, beforeEach, describe} from 'node:test';
import assert from 'node:assert/strict';
import {formats, type Format} from '../../source/base/ir.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {driver} from '../helpers/sdk-driver.js';
import {eventually} from '../helpers/sdks.js';
import {providerSaw} from '../helpers/provider-saw.js';

let gateway: TestGateway;
let secret: string;
const providers = {} as Record<Format, FakeProvider>;
const upstreamModel: Record<Format, string> = {openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5', gemini: 'gemini-2.5-flash'};
const model = (format: Format) => `via-${format}`;
// A 1×1 transparent PNG.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const finishNames: Record<Format, Record<'stop' | 'tool' | 'length', string>> = {
	openai: {stop: 'stop', tool: 'tool_calls', length: 'length'},
	anthropic: {stop: 'end_turn', tool: 'tool_use', length: 'max_tokens'},
	gemini: {stop: 'STOP', tool: 'STOP', length: 'MAX_TOKENS'},
};

before(async () => {
	gateway = await startTestGateway();
	for (const format of formats) {
		providers[format] = await startFakeProvider(format);
		await gateway.addProvider(providers[format], {name: format, models: `${model(format)}=${upstreamModel[format]}`});
	}
	secret = (await gateway.createKey({name: 'matrix'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all(formats.map(format => providers[format].close()));
});
beforeEach(() => {
	for (const format of formats) providers[format].reset();
});

for (const client of formats) {
	for (const channel of formats) {
		describe(`${client} client → ${channel} channel${client === channel ? ' (passthrough)' : ''}`, () => {
			const sdk = () => driver(client, gateway.url, secret);
			const provider = () => providers[channel];
			const lastBody = () => provider().received.at(-1)!.body;

			test('text, with the system prompt and an image in the provider\'s own slots, usage and finish reason', async () => {
				const answer = await sdk().answer(model(channel), {prompt: 'Describe this.', system: 'Be brief.', image: {mediaType: 'image/png', data: png}}, false);
				assert.equal(answer.text, `Hello from fake-${channel}`);
				assert.equal(answer.finish, finishNames[client].stop);
				assert.deepEqual(answer.usage, {input: 11, output: 7, cached: 0});
				const saw = providerSaw(channel, lastBody());
				assert.equal(saw.model ?? provider().received.at(-1)!.path.split('/').at(-1)!.split(':')[0], upstreamModel[channel]);
				assert.equal(saw.system, 'Be brief.');
				assert.deepEqual(saw.images, [{mediaType: 'image/png', data: png}]);
				assert.deepEqual(saw.texts, ['Describe this.']);
			});

			test('streaming: text arrives in pieces as they are produced, usage with cached tokens converted', async () => {
				provider().enqueue({text: 'alpha beta gamma delta', chunks: 4, chunkDelayMs: 150, usage: {input: 100, output: 10, cached: 40}});
				const answer = await sdk().answer(model(channel), {prompt: 'Stream please.'}, true);
				assert.equal(answer.text, 'alpha beta gamma delta');
				assert.equal(answer.finish, finishNames[client].stop);
				assert.deepEqual(answer.usage, {input: 100, output: 10, cached: 40});
				assert.ok(answer.arrivals.length >= 3, `${answer.arrivals.length} text events`);
				assert.ok(answer.arrivals.at(-1)! - answer.arrivals[0]! >= 300, `not buffered: ${answer.arrivals.join(', ')}`);
				await eventually(() => gateway.finished.some(event => event.model === model(channel) && event.usage?.cachedTokens === 40));
			});

			test('a tool round trip: call → result → answer, ids and names consistent', async () => {
				provider().enqueue({toolCalls: [{...(channel === 'gemini' ? {} : {id: 'call_abc123'}), name: 'get_weather', args: {city: 'Paris'}}]});
				const first = await sdk().answer(model(channel), {prompt: 'Weather in Paris?', tools: true}, false);
				assert.equal(first.finish, finishNames[client].tool);
				assert.equal(first.toolCalls.length, 1);
				const call = first.toolCalls[0]!;
				assert.deepEqual([call.name, call.args], ['get_weather', {city: 'Paris'}]);
				// Gemini sends no ids; a Gemini client talking to Gemini sees none, every other pair does.
				if (client !== 'gemini' || channel !== 'gemini') assert.ok(call.id, 'the client gets a tool call id');
				provider().enqueue({text: 'It is sunny in Paris.'});
				const second = await sdk().answer(model(channel), {prompt: 'Weather in Paris?', tools: true, history: {call, result: 'sunny, 24°C'}}, false);
				assert.equal(second.text, 'It is sunny in Paris.');
				const saw = providerSaw(channel, lastBody());
				assert.deepEqual(saw.toolCalls.map(item => [item.name, item.args]), [['get_weather', {city: 'Paris'}]]);
				assert.equal(saw.toolResults.length, 1);
				assert.match(saw.toolResults[0]!.text, /sunny, 24°C/);
				if (channel !== 'gemini') assert.equal(saw.toolResults[0]!.id, saw.toolCalls[0]!.id, 'the result answers the call by id');
				else assert.equal(saw.toolResults[0]!.name, 'get_weather', 'Gemini needs the function name');
			});

			test('streamed parallel tool calls with arguments in many pieces', async () => {
				provider().enqueue({
					toolCalls: [
						{...(channel === 'gemini' ? {} : {id: 'call_1'}), name: 'get_weather', args: {city: 'Paris', units: 'metric', note: 'a long argument value to split'}},
						{...(channel === 'gemini' ? {} : {id: 'call_2'}), name: 'get_weather', args: {city: 'Rome'}},
					],
					chunks: 6,
				});
				const answer = await sdk().answer(model(channel), {prompt: 'Weather in Paris and Rome?', tools: true}, true);
				assert.equal(answer.finish, finishNames[client].tool);
				assert.deepEqual(
					answer.toolCalls.map(call => call.args),
					[{city: 'Paris', units: 'metric', note: 'a long argument value to split'}, {city: 'Rome'}],
				);
				if (client !== 'gemini' || channel !== 'gemini') assert.equal(new Set(answer.toolCalls.map(call => call.id)).size, 2, 'distinct ids');
			});

			test('a cut-off answer finishes with the length reason', async () => {
				provider().enqueue({text: 'cut', finishReason: 'length'});
				const answer = await sdk().answer(model(channel), {prompt: 'Long essay', maxTokens: 5}, false);
				assert.equal(answer.finish, finishNames[client].length);
			});

			test('upstream errors: refused provider key → 502, 429 kept, 500 → 502', async () => {
				provider().enqueue({error: {status: 401}}, {error: {status: 429, retryAfter: '7'}}, {error: {status: 500}});
				const refused = await sdk().fail(model(channel));
				assert.equal(refused.status, 502);
				assert.match(refused.message, /refused its provider API key/);
				assert.ok(!refused.message.includes(provider().apiKey));
				assert.equal((await sdk().fail(model(channel))).status, 429);
				// Passthrough copies a provider's 5xx as it is; translation reports it as a bad gateway.
				assert.equal((await sdk().fail(model(channel))).status, client === channel ? 500 : 502);
			});

			if (client !== 'openai') {
				test('count tokens answers for every channel format', async () => {
					const count = await sdk().count(model(channel), 'How many tokens is this sentence?');
					assert.ok(count > 0 && count < 100, String(count));
				});
			}
		});
	}
}
