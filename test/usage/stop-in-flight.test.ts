/**
 * A gateway stopped (Ctrl+C on `serve`, `q` in the TUI) while answers stream: its connections close,
 * which cuts every answer in flight, and each of those requests is still recorded — in the request
 * log and the totals, as aborted, saying the stop cut it off — before the usage is saved. They were
 * dropped: the usage listener stopped before the connections closed, so a request the provider had
 * half answered was in neither. Real SDK clients, strict fake providers that stream slowly.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {startFakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, tempHome} from '../helpers/gateway.js';
import {anthropicClient, eventually, openaiClient} from '../helpers/sdks.js';
import {Store} from '../../source/store/index.js';
import {recentRequests, usageSummary} from '../../source/store/usage-summary.js';

test('stopping with streams in flight records each of them as aborted by the stop, and says how many it cut off', {timeout: 30_000}, async () => {
	const [openai, anthropic] = await Promise.all([startFakeProvider('openai'), startFakeProvider('anthropic')]);
	const home = tempHome();
	const gateway = await startTestGateway({home});
	try {
		await gateway.addProvider(openai, {name: 'oa'});
		await gateway.addProvider(anthropic, {name: 'an'});
		const key = await gateway.createKey({name: 'stop'});
		const warnings: string[] = [];
		gateway.events.on('warning', warning => warnings.push(warning.message));

		// One answered in full first: the stop changes nothing for it.
		openai.enqueue({text: 'done already'});
		const done = await openaiClient(gateway.url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'x'}]});
		assert.equal(done.choices[0]!.message.content, 'done already');

		// Three streams that would take 20 s each: passed through (each client's own format) and translated.
		const slow = {text: 'one two three four five six seven eight nine ten', chunks: 100, chunkDelayMs: 200, usage: {input: 40, output: 10}};
		openai.enqueue(slow);
		anthropic.enqueue(slow, slow);
		const texts = [0, 0, 0];
		const ended: Array<Promise<string>> = [];
		const oa = await openaiClient(gateway.url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'x'}], stream: true});
		ended.push((async () => {
			for await (const chunk of oa) if (chunk.choices[0]?.delta.content) texts[0]++;
			return 'ended';
		})().catch((error: Error) => error.name));
		const translated = await openaiClient(gateway.url, key.secret).chat.completions.create({model: 'claude-haiku-4-5', messages: [{role: 'user', content: 'x'}], stream: true});
		ended.push((async () => {
			for await (const chunk of translated) if (chunk.choices[0]?.delta.content) texts[1]++;
			return 'ended';
		})().catch((error: Error) => error.name));
		const an = anthropicClient(gateway.url, key.secret).messages.stream({model: 'claude-haiku-4-5', max_tokens: 100, messages: [{role: 'user', content: 'x'}]});
		an.on('text', () => texts[2]++);
		ended.push(an.done().then(() => 'ended', (error: Error) => error.name));
		await eventually(() => texts.every(count => count > 0), 10_000, 'a first delta on each stream');

		await gateway.close();
		// Each client saw its answer fail part-way (the OpenAI SDK: fetch's "terminated"; Anthropic's: a connection error).
		assert.deepEqual(await Promise.all(ended), ['TypeError', 'TypeError', 'AnthropicError']);
		// The providers saw the gateway hang up on them: nothing kept streaming for nobody.
		await eventually(() => [...openai.received, ...anthropic.received].filter(seen => seen.aborted).length === 3, 5000, 'three upstream calls aborted');
		assert.match(warnings.join('\n'), /stopped with 3 requests in flight: their answers were cut off \(in the request log as aborted\)/);
		assert.doesNotMatch(warnings.join('\n'), /could not record the requests in flight/);

		const store = await Store.open(gateway.home);
		try {
			const records = await recentRequests(store, 10);
			assert.equal(records.length, 4, records.map(record => `${record.model} ${record.outcome}`).join(', '));
			const cut = records.filter(record => record.outcome === 'aborted');
			assert.equal(cut.length, 3);
			for (const record of cut) {
				assert.equal(record.stream, true);
				assert.equal(record.status, 200);
				assert.equal(record.error, 'the gateway stopped before the answer was complete (its connections closed)');
			}
			assert.deepEqual(cut.map(record => `${record.inboundFormat}→${record.outboundFormat}`).sort(), ['anthropic→anthropic', 'openai→anthropic', 'openai→openai']);
			const byKey = await usageSummary(store, {by: 'key'});
			assert.deepEqual([byKey[0]!.requests, byKey[0]!.succeeded, byKey[0]!.aborted], [4, 1, 3]);
		} finally {
			await store.close();
		}
	} finally {
		await gateway.close();
		await Promise.all([openai.close(), anthropic.close()]);
		rmSync(home, {recursive: true, force: true});
	}
});
