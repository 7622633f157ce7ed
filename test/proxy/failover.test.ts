/**
 * Failover and channel health: a channel that refuses connections, answers 5xx or 429 before any
 * byte reached the client hands the request to the next channel (even of another format); a
 * mid-stream failure is never retried; repeated failures open the circuit, and a trial request
 * after the cooldown closes it again.
 */
import {test, before, after, beforeEach} from 'node:test';
import assert from 'node:assert/strict';
import {createServer} from 'node:net';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {eventually, openaiClient} from '../helpers/sdks.js';
import {editChannel, setChannelEnabled, removeChannel} from '../../source/services/channels.js';
import {type ChannelHealthView} from '../../source/base/events.js';
import {FakeClock} from '../helpers/fake-clock.js';

let gateway: TestGateway;
let primary: FakeProvider;
let backup: FakeProvider;
let secret: string;
const healthEvents: ChannelHealthView[] = [];
// Health reads this clock: the cooldown passes when the test says, not after a wall-clock wait.
const clock = new FakeClock();

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as {port: number}).port;
	await new Promise(resolve => server.close(resolve));
	return port;
}

before(async () => {
	[primary, backup] = await Promise.all([startFakeProvider('openai'), startFakeProvider('gemini')]);
	gateway = await startTestGateway({health: {threshold: 3, cooldownMs: 30_000, clock}});
	gateway.events.on('channel:health', view => healthEvents.push(view));
	await gateway.addProvider(primary, {name: 'primary', models: 'shared=gpt-4o-mini', priority: 10});
	await gateway.addProvider(backup, {name: 'backup', models: 'shared=gemini-2.5-flash', priority: 0});
	secret = (await gateway.createKey({name: 'failover'})).secret;
});
after(async () => {
	await gateway.close();
	await Promise.all([primary.close(), backup.close()]);
});
beforeEach(() => {
	primary.reset();
	backup.reset();
	gateway.finished.length = 0;
});

// Each request is a conversation of its own: turns of one conversation stay on the channel that
// served the last one (test/proxy/conversations.test.ts), which is not what these tests are about.
let asked = 0;
const ask = () => openaiClient(gateway.url, secret).chat.completions.create({model: 'shared', messages: [{role: 'user', content: `hi ${++asked}`}]});

test('a 500 and a 429 from the first channel are answered by the next one, of another format, recorded as failover', async () => {
	for (const error of [{status: 500}, {status: 429, retryAfter: '3'}]) {
		primary.enqueue({error});
		const answer = await ask();
		assert.equal(answer.choices[0]!.message.content, 'Hello from fake-gemini', `after ${error.status}`);
	}
	await eventually(() => gateway.finished.length === 2);
	for (const event of gateway.finished) {
		assert.equal(event.eventType, 'failover');
		assert.deepEqual(event.attempts, ['primary', 'backup']);
		assert.equal(event.channelName, 'backup');
		assert.equal(event.outboundFormat, 'gemini');
	}
	assert.equal(gateway.health.stateOf(gateway.registry.snapshot.channels.find(channel => channel.name === 'primary')!), 'degraded', 'a 429 marks the channel degraded');
	primary.enqueue({text: 'back to normal'});
	assert.equal((await ask()).choices[0]!.message.content, 'back to normal');
	assert.equal(gateway.health.stateOf(gateway.registry.snapshot.channels.find(channel => channel.name === 'primary')!), 'healthy');
});

test('a mid-stream failure is not retried on another channel', async () => {
	primary.enqueue({text: 'one two three four five', chunks: 5, midStreamError: {afterChunks: 3, message: 'boom'}});
	const stream = await openaiClient(gateway.url, secret).chat.completions.create({model: 'shared', messages: [{role: 'user', content: 'hi'}], stream: true});
	await assert.rejects(async () => {
		for await (const _chunk of stream);
	}, /boom/);
	assert.equal(backup.received.length, 0);
	await eventually(() => gateway.finished.length === 1);
	assert.equal(gateway.finished[0]!.eventType, 'failed');
	// A mid-stream failure counts against the channel's health; one good answer clears it for the next test.
	primary.enqueue({text: 'recovered'});
	await ask();
});

test('repeated failures open the circuit; the channel is skipped until a trial after the cooldown succeeds', async () => {
	primary.enqueue({error: {status: 503}}, {error: {status: 500}}, {error: {status: 502}});
	for (let i = 0; i < 3; i++) await ask();
	const opened = healthEvents.find(view => view.channelName === 'primary' && view.state === 'unavailable');
	assert.ok(opened, 'unavailable after 3 failures in a row');
	assert.match(opened.reason ?? '', /HTTP 502 \(3 failures in a row\)/);
	assert.equal(opened.retryAt, new Date(clock.now() + 30_000).toISOString(), 'the trial may go through once the cooldown has passed');

	const before = primary.received.length;
	await ask();
	assert.equal(primary.received.length, before, 'skipped while the circuit is open');
	await clock.advance(29_999);
	await ask();
	assert.equal(primary.received.length, before, 'still skipped a moment before the cooldown ends');
	await clock.advance(1);
	const trial = await ask();
	assert.equal(trial.choices[0]!.message.content, 'Hello from fake-openai', 'the trial request went to the recovered channel');
	assert.equal(healthEvents.at(-1)!.state, 'healthy');
});

test('a channel that refuses connections fails over; when every channel is unavailable the answer is a 503 that says why', async () => {
	const port = await closedPort();
	const dead = await gateway.addProvider({...primary, url: `http://127.0.0.1:${port}/v1`}, {name: 'dead', models: 'solo=gpt-4o-mini,shared=gpt-4o-mini', priority: 20});
	try {
		assert.equal((await ask()).choices[0]!.message.content, 'Hello from fake-openai');
		await eventually(() => gateway.finished.length === 1);
		assert.deepEqual(gateway.finished[0]!.attempts, ['dead', 'primary']);

		const solo = () => openaiClient(gateway.url, secret).chat.completions.create({model: 'solo', messages: [{role: 'user', content: 'hi'}]});
		const refused = await solo().catch((error: {status: number; message: string}) => error);
		assert.equal((refused as {status: number}).status, 502);
		assert.match((refused as {message: string}).message, /Channel "dead" could not be reached \(connect ECONNREFUSED/);
		await solo().catch(() => {});
		const closed = await solo().catch((error: {status: number; message: string; headers: Headers}) => error);
		assert.equal((closed as {status: number}).status, 503);
		assert.match((closed as {message: string}).message, /Every channel serving "solo" \("dead"\) is unavailable after repeated failures\. The gateway tries it again in 30 s, or at once when its settings are changed; check it with `gateway-tui channels test dead`\./);
		assert.equal((closed as {headers: Headers}).headers.get('retry-after'), '30', 'when the trial may go');
		await clock.advance(12_000);
		const later = await solo().catch((error: {headers: Headers; message: string}) => error);
		assert.equal((later as {headers: Headers}).headers.get('retry-after'), '18');
		assert.match((later as {message: string}).message, /tries it again in 18 s/);
	} finally {
		await removeChannel(gateway.store, dead.id);
		await gateway.registry.refresh();
	}
});

/** A channel on a port nothing listens on, serving `model` alone, whose circuit three failed requests have opened. */
async function unreachableChannel(name: string, model: string) {
	const channel = await gateway.addProvider({...primary, url: `http://127.0.0.1:${await closedPort()}/v1`}, {name, models: `${model}=gpt-4o-mini`});
	const ask = () => openaiClient(gateway.url, secret).chat.completions.create({model, messages: [{role: 'user', content: 'hi'}]});
	for (let i = 0; i < 3; i++) await ask().catch(() => {});
	const current = () => gateway.registry.snapshot.channels.find(item => item.id === channel.id)!;
	assert.equal(gateway.health.stateOf(current()), 'unavailable');
	const remove = async () => {
		await removeChannel(gateway.store, channel.id);
		await gateway.registry.refresh();
	};
	return {channel, ask, current, remove};
}

test('a channel whose base URL is fixed is tried at once, not after the cooldown its old URL started; a change of price keeps its health', async () => {
	const typo = await unreachableChannel('typo', 'solo');
	try {
		await editChannel(gateway.store, typo.channel.id, {prices: ['solo=1/2']});
		await gateway.registry.refresh();
		assert.equal(gateway.health.stateOf(typo.current()), 'unavailable', 'a price says nothing about the connection');

		const events = healthEvents.length;
		await editChannel(gateway.store, typo.channel.id, {baseUrl: primary.url});
		await gateway.registry.refresh();
		assert.equal(gateway.health.stateOf(typo.current()), 'healthy');
		assert.deepEqual(healthEvents.slice(events).map(view => [view.channelName, view.state, view.reason]), [['typo', 'healthy', null]], 'told as healthy again');
		assert.equal((await typo.ask()).choices[0]!.message.content, 'Hello from fake-openai', 'answered at once, within what was the cooldown');
	} finally {
		await typo.remove();
	}
});

test('a channel disabled while unavailable and enabled again starts afresh', async () => {
	const flaky = await unreachableChannel('flaky', 'alone');
	try {
		await setChannelEnabled(gateway.store, flaky.channel.id, false);
		await gateway.registry.refresh();
		assert.equal(gateway.health.stateOf(flaky.current()), 'unavailable', 'disabling alone changes nothing');
		await setChannelEnabled(gateway.store, flaky.channel.id, true);
		await gateway.registry.refresh();
		assert.equal(gateway.health.stateOf(flaky.current()), 'healthy');
	} finally {
		await flaky.remove();
	}
});

test('equal channels take turns (round-robin)', async () => {
	const twin = await gateway.addProvider(primary, {name: 'twin', models: 'shared=gpt-4o', priority: 10});
	try {
		for (let i = 0; i < 4; i++) await ask();
		const models = primary.received.map(request => (request.body as {model: string}).model);
		assert.equal(models.filter(model => model === 'gpt-4o').length, 2);
		assert.equal(models.filter(model => model === 'gpt-4o-mini').length, 2);
	} finally {
		await setChannelEnabled(gateway.store, twin.id, false);
		await gateway.registry.refresh();
	}
});
