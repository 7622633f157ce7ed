/**
 * `usage`, `logs`, `keys list` totals and `channels … --price`, run as a user's shell runs them,
 * over a store filled by the recorder.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {rmSync} from 'node:fs';
import {assertRefused, cliArgs, ok, runCli, type Ran} from '../helpers/cli.js';
import {tempHome} from '../helpers/gateway.js';
import {eventually} from '../helpers/sdks.js';
import {Store} from '../../source/store/index.js';
import {findChannel} from '../../source/services/channels.js';
import {localDay} from '../../source/store/usage-buckets.js';
import {UsageRecorder} from '../../source/proxy/usage-recorder.js';
import type {RequestFinished} from '../../source/base/events.js';
import {ago, finished} from '../usage/events.js';

let home: string;
let env: Record<string, string>;
const ids: Record<string, string> = {};
/** 3 × (600 uncached × 0.15 + 400 cached × 0.075 + 100 out × 0.6) per 1M */
const alphaCost = 0.00054;
const day = 86_400_000;

async function record(events: ReadonlyArray<Partial<RequestFinished>>): Promise<void> {
	const store = await Store.open(home);
	const channel = await findChannel(store, 'oa');
	const recorder = new UsageRecorder(store, {adopt: false});
	for (const event of events) recorder.record(finished({channelId: channel.id, channelName: 'oa', ...event}, channel));
	await recorder.close();
	await store.close();
}

/** `logs -f --json …` as a child: the ids it printed so far, and Ctrl+C, after which it must exit 0. */
function followLogs(...args: string[]) {
	const child = spawn(process.execPath, [...cliArgs, 'logs', '-f', '--json', ...args], {env: {...process.env, NODE_NO_WARNINGS: '1', ...env}, stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', chunk => (stdout += chunk));
	child.stderr.on('data', chunk => (stderr += chunk));
	const closed = new Promise<number | null>(resolve => child.on('close', code => resolve(code)));
	return {
		seen: () => stdout.split('\n').filter(Boolean).map(line => (JSON.parse(line) as {id: string}).id),
		interrupt: async () => {
			child.kill('SIGINT');
			assert.equal(await closed, 0, stderr);
		},
	};
}

before(async () => {
	home = tempHome();
	env = {GATEWAY_TUI_HOME: home};
	const added = JSON.parse(ok(await runCli(['channels', 'add', '--name', 'oa', '--format', 'openai', '--base-url', 'https://api.openai.com/v1', '--models', 'gpt-4o-mini,gpt-4o', '--price', 'gpt-4o-mini=0.15/0.6/0.075', '--json'], env))) as {prices: unknown};
	assert.deepEqual(added.prices, {'gpt-4o-mini': {input: 0.15, output: 0.6, cached: 0.075}});
	for (const name of ['alpha', 'beta']) ids[name] = (JSON.parse(ok(await runCli(['keys', 'create', '--name', name, '--json'], env))) as {id: string}).id;
	const alpha = {keyId: ids.alpha!, keyName: 'alpha'};
	const beta = {keyId: ids.beta!, keyName: 'beta', model: 'gpt-4o', upstreamModel: 'gpt-4o', usage: {inputTokens: 500, outputTokens: 50}};
	await record([
		...[1, 2, 3].map(i => ({...alpha, id: `req_alpha_${i}`, time: ago(60_000 - i), latencyMs: 200, usage: {inputTokens: 1000, outputTokens: 100, cachedTokens: 400}})),
		{...alpha, id: 'req_alpha_failed', time: ago(30_000), status: 502, outcome: 'error', usage: null, error: 'upstream said no', latencyMs: 50},
		{...beta, id: 'req_beta_old', time: ago(3 * day)},
		{...beta, id: 'req_beta_1', time: ago(20_000)},
		{...beta, id: 'req_beta_2', time: ago(10_000), stream: true, outcome: 'aborted', error: 'client disconnected before the answer was complete'},
	]);
});
after(() => {
	rmSync(home, {recursive: true, force: true});
});

test('usage --by key --json: one row per key, named by its dimension, with cost and the no-price mark', async () => {
	const rows = JSON.parse(ok(await runCli(['usage', '--by', 'key', '--json'], env))) as Array<Record<string, unknown>>;
	assert.equal(rows.length, 2);
	const [alpha, beta] = rows;
	assert.deepEqual(
		{key: alpha!.key, id: alpha!.id, requests: alpha!.requests, succeeded: alpha!.succeeded, failed: alpha!.failed, inputTokens: alpha!.inputTokens, outputTokens: alpha!.outputTokens, cachedTokens: alpha!.cachedTokens, unpriced: alpha!.unpriced},
		{key: 'alpha', id: ids.alpha, requests: 4, succeeded: 3, failed: 1, inputTokens: 3000, outputTokens: 300, cachedTokens: 1200, unpriced: false},
	);
	assert.ok(Math.abs((alpha!.costUsd as number) - alphaCost) < 1e-12);
	assert.deepEqual([beta!.key, beta!.requests, beta!.aborted, beta!.costUsd, beta!.unpriced], ['beta', 3, 1, 0, true]);
	assert.equal(typeof alpha!.latencyP50Ms, 'number');

	const recent = JSON.parse(ok(await runCli(['usage', '--by', 'key', '--since', '1d', '--json'], env))) as Array<{key: string; requests: number}>;
	assert.deepEqual(recent.map(row => [row.key, row.requests]), [['alpha', 4], ['beta', 2]]);
	const days = JSON.parse(ok(await runCli(['usage', '--by', 'day', '--json'], env))) as Array<{day: string; requests: number}>;
	assert.equal(days[0]!.day, localDay(new Date(Date.now() - 3 * day)));
	assert.deepEqual(days.map(row => row.day), [...days.map(row => row.day)].sort(), 'in time order');
	assert.equal(days.reduce((sum, row) => sum + row.requests, 0), 7);
});

test('usage --by model: a table for humans, with a total and the no-price note', async () => {
	const text = ok(await runCli(['usage', '--by', 'model'], env));
	const lines = text.trim().split('\n');
	assert.match(lines[0]!, /^MODEL\s+REQUESTS\s+OK\s+FAILED\s+ABORTED\s+INPUT\s+OUTPUT\s+CACHED\s+COST\s+P50\s+P95$/);
	assert.match(lines[1]!, /^gpt-4o-mini\s+4\s+3\s+1\s+0\s+3000\s+300\s+1200\s+\$0\.0005\s+\d+ms\s+\d+ms$/);
	assert.match(lines[2]!, /^gpt-4o\s+3\s+2\s+0\s+1\s+1500\s+150\s+0\s+no price\s+\d+ms\s+\d+ms$/);
	assert.match(lines[3]!, /^TOTAL\s+7\s+5\s+1\s+1\s+4500\s+450\s+1200\s+\$0\.0005 \*\s+-\s+-$/);
	assert.match(text, /no price \/ \*: .*count as \$0\. Set prices with `gateway-tui channels edit CHANNEL --price MODEL=IN\/OUT\[\/CACHED\]`/);
});

test('usage --by channel --csv: a header line and one line per row', async () => {
	const lines = ok(await runCli(['usage', '--by', 'channel', '--csv'], env)).trimEnd().split('\n');
	assert.equal(lines[0], 'channel,requests,succeeded,failed,aborted,inputTokens,outputTokens,cachedTokens,reasoningTokens,costUsd,unpriced,latencyP50Ms,latencyP95Ms');
	assert.equal(lines.length, 2);
	assert.match(lines[1]!, /^oa,7,5,1,1,4500,450,1200,0,0\.00054,true,\d+,\d+$/);
});

test('usage and logs refuse bad input with one line that says what to do', async () => {
	const [by, since, both, tail] = await Promise.all([
		runCli(['usage', '--by', 'colour'], env),
		runCli(['usage', '--since', 'yesterday'], env),
		runCli(['usage', '--json', '--csv'], env),
		runCli(['logs', '--tail', 'many'], env),
	]);
	assertRefused(by, /Unknown --by "colour": use key, model, channel, day or hour/);
	assertRefused(since, /Invalid --since "yesterday": use a duration such as 7d or 12h, or a date such as 2025-01-31/);
	assertRefused(both, /either --json or --csv/);
	assertRefused(tail, /Invalid --tail "many": give a number/);
});

test('logs: the newest requests as lines or JSON', async () => {
	const listing = ok(await runCli(['logs', '--tail', '3'], env));
	const lines = listing.trimEnd().split('\n');
	assert.equal(lines.length, 4);
	assert.equal(ok(await runCli(['logs', '-n', '3'], env)), listing, '-n is --tail, as in tail(1)');
	assert.match(lines[0]!, /^TIME\s+STATUS\s+TYPE\s+KEY\s+MODEL\s+CHANNEL\s+FORMAT\s+LATENCY\s+TTFB\s+IN\s+OUT\s+CACHED\s+COST$/);
	assert.match(lines[1]!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+502\s+failed\s+alpha\s+gpt-4o-mini\s+oa\s+openai\s+50ms\s+40ms\s+-\s+-\s+-\s+-\s+error="upstream said no"$/);
	assert.match(lines[2]!, /\s200\s+routed\s+beta\s+gpt-4o\s+oa\s+openai\s+100ms\s+40ms\s+500\s+50\s+0\s+no price$/);
	assert.match(lines[3]!, /\s200\s+routed\s+beta\s+gpt-4o\s+oa\s+openai stream\s+.*no price\s+ABORTED error="client disconnected/);

	const records = JSON.parse(ok(await runCli(['logs', '--tail', '5', '--json'], env))) as Array<Record<string, unknown>>;
	assert.deepEqual(records.map(record => record.id), ['req_alpha_2', 'req_alpha_3', 'req_alpha_failed', 'req_beta_1', 'req_beta_2']);
	const first = records[0]!;
	for (const field of ['time', 'keyName', 'model', 'upstreamModel', 'channelName', 'inboundFormat', 'outboundFormat', 'status', 'latencyMs', 'ttfbMs', 'usage', 'costUsd', 'error', 'eventType', 'attempts', 'outcome']) assert.ok(field in first, field);
	assert.ok(Math.abs((first.costUsd as number) - alphaCost / 3) < 1e-12);
});

test('logs -f (--follow) --json prints new requests as they land and ends cleanly on Ctrl+C', async () => {
	const logs = followLogs('--tail', '1');
	await eventually(() => logs.seen().length === 1, 10_000, 'the tail');
	assert.deepEqual(logs.seen(), ['req_beta_2']);
	await record([{id: 'req_live_1', keyName: 'alpha', keyId: ids.alpha!}, {id: 'req_live_2', keyName: 'alpha', keyId: ids.alpha!}]);
	await eventually(() => logs.seen().length === 3, 5000, 'the new records');
	assert.deepEqual(logs.seen(), ['req_beta_2', 'req_live_1', 'req_live_2']);
	await logs.interrupt();
});

test('keys list shows per-key totals and last use; --json carries them too', async () => {
	const keys = JSON.parse(ok(await runCli(['keys', 'list', '--json'], env))) as Array<{name: string; lastUsedAt: string | null; usage: {requests: number; inputTokens: number; outputTokens: number; costUsd: number; unpriced: boolean}}>;
	const alpha = keys.find(key => key.name === 'alpha')!;
	assert.ok('lastUsedAt' in alpha);
	assert.ok(alpha.usage.requests >= 4);
	assert.ok(alpha.usage.inputTokens >= 3000 && alpha.usage.outputTokens >= 300);
	assert.ok(alpha.usage.costUsd >= alphaCost - 1e-12);
	const beta = keys.find(key => key.name === 'beta')!;
	assert.deepEqual([beta.usage.requests, beta.usage.inputTokens, beta.usage.costUsd, beta.usage.unpriced], [3, 1500, 0, true]);

	const table = ok(await runCli(['keys', 'list'], env)).split('\n');
	assert.match(table[0]!, /LAST USED\s+REQUESTS\s+TOKENS IN\/OUT\s+COST\s+LIMITS$/);
	assert.match(table.find(line => line.startsWith('beta'))!, /\s3\s+1500\/150\s+no price\s+-$/);
});

test('channels edit --price sets, shows and clears prices; bad prices are refused', async () => {
	const edited = JSON.parse(ok(await runCli(['channels', 'edit', 'oa', '--price', 'gpt-4o=2.5/10', '--price', 'gpt-4o-mini=0.2/0.8/0.1', '--json'], env))) as {prices: unknown};
	assert.deepEqual(edited.prices, {'gpt-4o': {input: 2.5, output: 10}, 'gpt-4o-mini': {input: 0.2, output: 0.8, cached: 0.1}});
	assert.match(ok(await runCli(['channels', 'show', 'oa'], env)), /^prices\s+gpt-4o-mini=0\.2\/0\.8\/0\.1, gpt-4o=2\.5\/10$/m);
	const cleared = JSON.parse(ok(await runCli(['channels', 'edit', 'oa', '--price', 'gpt-4o=', '--json'], env))) as {prices: unknown};
	assert.deepEqual(cleared.prices, {'gpt-4o-mini': {input: 0.2, output: 0.8, cached: 0.1}});
	const [unknown, malformed] = await Promise.all([runCli(['channels', 'edit', 'oa', '--price', 'o4-mini=1/4'], env), runCli(['channels', 'edit', 'oa', '--price', 'gpt-4o=free'], env)]);
	assertRefused(unknown, /does not serve "o4-mini" \(its models: gpt-4o-mini, gpt-4o\): price one of those/);
	assertRefused(malformed, /Invalid price "gpt-4o=free": give two or three non-negative numbers/);
});

test("logs --filter keeps the newest requests matching every word, as the TUI's / filter does; with --follow, new ones too", async () => {
	const idsOf = async (...args: string[]) => (JSON.parse(ok(await runCli(['logs', '--json', ...args], env))) as Array<{id: string}>).map(item => item.id);
	assert.deepEqual(await idsOf('--filter', '502'), ['req_alpha_failed']);
	assert.deepEqual(await idsOf('--filter', 'BETA aborted'), ['req_beta_2'], 'every word, case aside');
	assert.deepEqual(await idsOf('--filter', 'beta', '--tail', '2'), ['req_beta_1', 'req_beta_2'], 'the newest matches, oldest first');
	assert.deepEqual(await idsOf('--filter', 'stream'), ['req_beta_2'], 'a streamed answer, as the FORMAT column says it (openai stream)');
	assert.deepEqual(await idsOf('--filter', 'openai stream beta'), ['req_beta_2']);
	const failed = ok(await runCli(['logs', '--filter', '5xx'], env)).trimEnd().split('\n');
	assert.equal(failed.length, 2);
	assert.match(failed[1]!, /\s502\s+failed\s+alpha\s.*error="upstream said no"$/);
	assert.equal(ok(await runCli(['logs', '--filter', 'nobody'], env)).trim(), 'No recorded request matches "nobody". Every word must match the key, model, channel, formats, status or outcome.');

	const logs = followLogs('--filter', 'beta', '--tail', '5');
	await eventually(() => logs.seen().length === 3, 10_000, 'the newest matches');
	assert.deepEqual(logs.seen(), ['req_beta_old', 'req_beta_1', 'req_beta_2']);
	await record([{id: 'req_live_alpha', keyName: 'alpha', keyId: ids.alpha!}, {id: 'req_live_beta', keyName: 'beta', keyId: ids.beta!}]);
	await eventually(() => logs.seen().length === 4, 5000, 'the new match');
	assert.deepEqual(logs.seen(), ['req_beta_old', 'req_beta_1', 'req_beta_2', 'req_live_beta']);
	await logs.interrupt();
});
