/**
 * Key limits over HTTP: each limit in each inbound format answers 429 in that format's error shape
 * with retry-after, the window resets, other keys are unaffected, budgets accumulate from priced
 * usage and survive a restart, and concurrent requests never overshoot a request limit.
 */
import {systemClock} from '../../source/base/clock.js';
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, tempHome, type TestGateway} from '../helpers/gateway.js';
import {generateRequest, send, type Sent} from '../helpers/wire.js';
import {eventually} from '../helpers/sdks.js';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import {editChannel} from '../../source/services/channels.js';
import {editKey} from '../../source/services/keys.js';
import {persistedUse} from '../../source/store/limit-use.js';
import type {CreateKeyInput} from '../../source/services/keys.js';
import {type BudgetWarning} from '../../source/base/events.js';

let provider: FakeProvider;
let gateway: TestGateway;
/** Noon today: the minutes the tests move on never cross midnight, whenever the suite runs (a new day resets rpd and daily budgets). */
function middayToday(): number {
	const day = new Date();
	day.setHours(12, 0, 0, 0);
	return day.getTime();
}
let now = middayToday();
const clock = {now: () => now, every: systemClock.every};
const home = tempHome();

before(async () => {
	provider = await startFakeProvider('openai');
	gateway = await startTestGateway({home, clock});
	const channel = await gateway.addProvider(provider, {name: 'oa', models: 'gpt-4o-mini'});
	// 11 input + 7 output tokens per answer at $1000 per million each way: $0.018 a request.
	await editChannel(gateway.store, channel.id, {prices: ['gpt-4o-mini=1000/1000']});
	await gateway.registry.refresh();
});
after(async () => {
	await gateway.close();
	await provider.close();
	rmSync(home, {recursive: true, force: true});
});

async function keyWith(input: Partial<CreateKeyInput>): Promise<string> {
	return (await gateway.createKey(input)).secret;
}

const ask = (format: 'openai' | 'anthropic' | 'gemini', secret: string) => send(...generateRequest(format, gateway.url, 'gpt-4o-mini', secret));
const askResponses = (secret: string) =>
	send(`${gateway.url}/v1/responses`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: JSON.stringify({model: 'gpt-4o-mini', input: 'hi'})});

function assertRefused(format: 'openai' | 'anthropic' | 'gemini' | 'responses', response: Sent, message: RegExp, quota = false): void {
	assert.equal(response.status, 429, response.text);
	assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
	// A wait past a minute (a day's limit, a budget): the SDKs are told not to sleep it out inside the call.
	assert.equal(response.headers.get('x-should-retry'), Number(response.headers.get('retry-after')) > 60 ? 'false' : null);
	const body = response.body as {type?: string; error: {type?: string; code?: unknown; status?: string; message: string}};
	if (format === 'openai' || format === 'responses') assert.equal(body.error.code, quota ? 'insufficient_quota' : 'rate_limit_exceeded');
	if (format === 'anthropic') assert.deepEqual([body.type, body.error.type], ['error', 'rate_limit_error']);
	if (format === 'gemini') assert.deepEqual([body.error.code, body.error.status], [429, 'RESOURCE_EXHAUSTED']);
	assert.match(body.error.message, message);
}

for (const format of ['openai', 'anthropic', 'gemini'] as const) {
	test(`${format}: rpm and rpd refuse in the ${format} shape with retry-after; the window resets; other keys are unaffected`, async () => {
		const limited = await keyWith({rpm: '2', rpd: '3'});
		const free = await keyWith({});
		assert.equal((await ask(format, limited)).status, 200);
		assert.equal((await ask(format, limited)).status, 200);
		const refused = await ask(format, limited);
		assertRefused(format, refused, /over its limit of 2 requests per minute \(used 2\)\. It resets in \d+ s/);
		assert.ok(Number(refused.headers.get('retry-after')) <= 60);
		assert.equal((await ask(format, free)).status, 200, 'another key is unaffected');
		now += 60_000;
		assert.equal((await ask(format, limited)).status, 200, 'a new minute');
		now += 60_000;
		assertRefused(format, await ask(format, limited), /3 requests per day/);
	});

	test(`${format}: tpm and tpd count the tokens of finished requests`, async () => {
		const tokens = await keyWith({tpm: '30', tpd: '50'});
		assert.equal((await ask(format, tokens)).status, 200);
		assert.equal((await ask(format, tokens)).status, 200, '18 tokens used: under 30');
		await eventually(() => gateway.limiter.use([...gateway.registry.snapshot.keysById.values()].find(key => key.secret === tokens)!).tpm === 36);
		assertRefused(format, await ask(format, tokens), /30 tokens per minute \(used 36\)/);
		now += 60_000;
		assert.equal((await ask(format, tokens)).status, 200);
		await eventually(() => gateway.limiter.use([...gateway.registry.snapshot.keysById.values()].find(key => key.secret === tokens)!).tpd === 54);
		now += 60_000;
		assertRefused(format, await ask(format, tokens), /50 tokens per day \(used 54\)/);
	});
}

test('responses: a limited key gets the OpenAI error shape', async () => {
	const limited = await keyWith({rpm: '1'});
	assert.equal((await askResponses(limited)).status, 200);
	assertRefused('responses', await askResponses(limited), /1 requests per minute/);
});

test('50 simultaneous requests against an RPM of 10 let exactly 10 through', async () => {
	const limited = await keyWith({rpm: '10'});
	const statuses = await Promise.all(Array.from({length: 50}, () => ask('openai', limited).then(response => response.status)));
	assert.equal(statuses.filter(status => status === 200).length, 10);
	assert.equal(statuses.filter(status => status === 429).length, 40);
});

test('refused requests do not count as use: keys list and a restarted gateway read only what the limiter let through', async () => {
	const limited = await gateway.createKey({name: 'counted', rpm: '2', rpd: '5'});
	// Request records are stamped with the real time: read them back from the minute they began in.
	const began = Date.now();
	for (let i = 0; i < 5; i++) await ask('openai', limited.secret);
	await send(`${gateway.url}/v1/messages/count_tokens`, {method: 'POST', headers: {'content-type': 'application/json', 'x-api-key': limited.secret}, body: JSON.stringify({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hi'}]})});
	await gateway.close(); // flushes the usage
	gateway = await startTestGateway({home, clock});
	const key = gateway.registry.snapshot.keysById.get(limited.id)!;
	const use = (await persistedUse(gateway.store, [key], began)).get(key.id)!;
	assert.deepEqual([use.rpm, use.rpd], [2, 2], 'two admitted, three refused with 429, one token count');
	assert.equal(gateway.limiter.use(key).rpd, 2, 'the restarted gateway restored the same');
});

test('limits set on a running gateway count what the key used in their windows before, as a restart would: a budget added, then moved to another period', async () => {
	const late = await gateway.createKey({name: 'late'});
	// $0.018 a request: three spend $0.054 today, before the key has any limit.
	for (let i = 0; i < 3; i++) assert.equal((await ask('openai', late.secret)).status, 200);
	const current = () => gateway.registry.snapshot.keysById.get(late.id)!;

	const warnings: BudgetWarning[] = [];
	const off = gateway.events.on('key:budget', warning => warnings.push(warning));
	await editKey(gateway.store, late.id, {budget: '0.05/month', tpd: '1000000'});
	await gateway.registry.refresh();
	off();
	assert.deepEqual(warnings.map(warning => [warning.keyName, warning.percent, warning.period]), [['late', 108, 'monthly']], 'a budget set past its warning threshold warns at once');
	assert.ok(current().limits?.budget, 'the gateway has the new limits');
	// Counted before the new limits applied (the registry's prepare): no request is admitted against zero.
	assert.ok(gateway.limiter.use(current()).spendUsd > 0.05, "the month's spend read back from the usage");
	assert.equal(gateway.limiter.use(current()).tpd, 3 * 18, "the day's tokens too");
	assertRefused('openai', await ask('openai', late.secret), /"late" has spent \$0\.05 of its \$0\.05 budget this month/, true);

	// Another period: counted from that period's use (the same three requests), not from zero.
	await editKey(gateway.store, late.id, {budget: '0.07/week'});
	await gateway.registry.refresh();
	assert.equal(current().limits?.budget?.period, 'weekly');
	assert.ok(gateway.limiter.use(current()).spendUsd > 0.05, "the week's spend");
	assert.equal((await ask('openai', late.secret)).status, 200, '$0.054 of $0.07: one more');
	await eventually(() => gateway.limiter.use(current()).spendUsd > 0.07, 3000);
	assertRefused('openai', await ask('openai', late.secret), /"late" has spent \$0\.07 of its \$0\.07 budget this week/, true);
});

test('a budget: cost accumulates from priced usage, a warning at the threshold, refused over budget in every format, kept across a restart', async () => {
	const warnings: BudgetWarning[] = [];
	gateway.events.on('key:budget', warning => warnings.push(warning));
	const agent = await keyWith({name: 'agent', budget: '0.05/day', budgetWarn: '50%'});
	for (let i = 0; i < 3; i++) assert.equal((await ask('openai', agent)).status, 200);
	await eventually(() => warnings.length === 1, 2000, 'the budget warning');
	assert.equal(warnings[0]!.keyName, 'agent');
	await eventually(() => gateway.limiter.use([...gateway.registry.snapshot.keysById.values()].find(key => key.name === 'agent')!).spendUsd > 0.05);
	assertRefused('openai', await ask('openai', agent), /"agent" has spent \$0\.05 of its \$0\.05 budget today\. It resets in/, true);
	assertRefused('anthropic', await ask('anthropic', agent), /budget today/, true);
	assertRefused('gemini', await ask('gemini', agent), /budget today/, true);

	// Restart on the same store: the day's spend comes back from the persisted usage.
	await gateway.close();
	gateway = await startTestGateway({home, clock});
	assertRefused('openai', await ask('openai', agent), /has spent \$0\.05 of its \$0\.05 budget today/, true);
	now += 86_400_000;
	assert.equal((await ask('openai', agent)).status, 200, 'the next day has a new budget');
});

test("the real SDKs, with their default retries, get a refusal that lasts past a minute at once instead of sleeping out its retry-after inside the call", async () => {
	const daily = await keyWith({rpd: '1'});
	assert.equal((await ask('openai', daily)).status, 200);
	const seen = gateway.finished.length;
	const openai = new OpenAI({baseURL: `${gateway.url}/v1`, apiKey: daily}); // maxRetries: the SDK's default (2)
	await assert.rejects(openai.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hi'}]}), (error: unknown) => error instanceof OpenAI.RateLimitError);
	const anthropic = new Anthropic({baseURL: gateway.url, apiKey: daily});
	await assert.rejects(anthropic.messages.create({model: 'gpt-4o-mini', max_tokens: 16, messages: [{role: 'user', content: 'hi'}]}), (error: unknown) => error instanceof Anthropic.RateLimitError);
	await eventually(() => gateway.finished.length >= seen + 2, 5000, 'both refusals recorded');
	assert.equal(gateway.finished.length, seen + 2, 'one request each: no retry');
});
