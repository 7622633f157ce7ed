import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type AddressInfo} from 'node:net';
import {rmSync} from 'node:fs';
import {assertRefused, ok, runCli, startServe, stopChild} from '../helpers/cli.js';
import {tempHome} from '../helpers/gateway.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {openaiClient, eventually} from '../helpers/sdks.js';

let home: string;
let env: Record<string, string>;
let provider: FakeProvider;

before(async () => {
	home = tempHome();
	env = {GATEWAY_TUI_HOME: home};
	provider = await startFakeProvider('openai');
});
after(async () => {
	await provider.close();
	rmSync(home, {recursive: true, force: true});
});

test('keys create --json prints the key; list (ls)/show/revoke/rotate/delete (rm) work by name; bad input exits 1 with one line', async () => {
	const created = await runCli(['keys', 'create', '--name', 'alpha', '--models', 'm1,m2', '--expires-in', '30d', '--description', 'test key', '--json'], env);
	assert.equal(created.code, 0, created.stderr);
	const json = JSON.parse(created.stdout) as Record<string, unknown>;
	for (const field of ['id', 'name', 'key', 'models', 'channels', 'expiresAt']) assert.ok(field in json, field);
	assert.equal(json.name, 'alpha');
	assert.deepEqual(json.models, ['m1', 'm2']);
	assert.match(String(json.key), /^sk-gtui-[A-Za-z0-9_-]{43}$/);

	const list = await runCli(['keys', 'list'], env);
	assert.match(list.stdout, /alpha\s+sk-gtui-\S+…\s+m1,m2\s+all\s+expires in 29d/);
	assert.ok(!list.stdout.includes(String(json.key)), 'list shows only the prefix');
	assert.equal((await runCli(['keys', 'ls'], env)).stdout, list.stdout, 'ls is list');
	const shown = JSON.parse((await runCli(['keys', 'show', 'alpha', '--json'], env)).stdout) as {key: string};
	assert.equal(shown.key, json.key);

	const rotated = JSON.parse((await runCli(['keys', 'rotate', 'alpha', '--json'], env)).stdout) as {key: string};
	assert.notEqual(rotated.key, json.key);
	assert.match((await runCli(['keys', 'revoke', 'alpha'], env)).stdout, /Revoked key "alpha"/);
	assert.match((await runCli(['keys', 'list', '--json'], env)).stdout, /"state": "revoked"/);

	assertRefused(await runCli(['keys', 'create', '--name', 'alpha'], env), /exists already/);
	assertRefused(await runCli(['keys', 'create', '--name', 'b', '--expires-in', '3 days'], env), /Invalid expiry "3 days"/);
	assertRefused(await runCli(['keys', 'create', '--name', 'b', '--expires-at', '2001-01-01'], env), /in the past/);
	assertRefused(await runCli(['keys', 'show', 'nobody'], env), /No key named "nobody"/);
	assert.match((await runCli(['keys', 'rm', 'alpha'], env)).stdout, /Deleted key "alpha"/, 'rm is delete');
});

test('channels: add, list (ls; key masked), show, edit, disable/enable, test, remove (rm); bad input refused', async () => {
	const added = await runCli(['channels', 'add', '--name', 'fake', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'gpt-4o-mini,fast=gpt-4o', '--json'], env);
	assert.equal(added.code, 0, added.stderr);
	assert.ok(!added.stdout.includes(provider.apiKey));
	const list = await runCli(['channels', 'list'], env);
	assert.match(list.stdout, /fake\s+openai\s+http:\/\/127\.0\.0\.1:\d+\/v1\s+sk-…\S{4}\s+gpt-4o-mini,fast=gpt-4o\s+yes\s+0/);
	assert.equal((await runCli(['channels', 'ls'], env)).stdout, list.stdout, 'ls is list');
	for (const command of [['channels', 'list', '--json'], ['channels', 'show', 'fake'], ['channels', 'show', 'fake', '--json']]) {
		assert.ok(!(await runCli(command, env)).stdout.includes(provider.apiKey), command.join(' '));
	}
	const edited = await runCli(['channels', 'edit', 'fake', '--priority', '3', '--json'], env);
	assert.equal((JSON.parse(edited.stdout) as {priority: number}).priority, 3);
	assert.match((await runCli(['channels', 'disable', 'fake'], env)).stdout, /Disabled/);
	assert.match((await runCli(['channels', 'enable', 'fake'], env)).stdout, /Enabled/);
	const tested = await runCli(['channels', 'test', 'fake'], env);
	assert.match(tested.stdout, /Channel "fake" answered in \d+ ms \(4 models listed\)\.\n$/);
	// Kept as the channel's last test: channels show says when and what it found.
	assert.match((await runCli(['channels', 'show', 'fake'], env)).stdout, /^last test \d{4}-\d\d-\d\dT[\d:.]+Z: Channel "fake" answered in \d+ ms \(4 models listed\)\.$/m);
	const shownJson = JSON.parse((await runCli(['channels', 'show', 'fake', '--json'], env)).stdout) as {lastTest: {by: string; ok: boolean; current: boolean; models: number}};
	assert.deepEqual([shownJson.lastTest.by, shownJson.lastTest.ok, shownJson.lastTest.current, shownJson.lastTest.models], ['test', true, true, 4]);
	assert.deepEqual((JSON.parse((await runCli(['channels', 'list', '--json'], env)).stdout) as Array<{name: string; lastTest: {ok: boolean} | null}>).map(item => [item.name, item.lastTest?.ok]), [['fake', true]], 'channels list --json has it too');
	// A model the provider's list does not name (retired, misspelt): said, with where to change it; the channel still answers.
	await runCli(['channels', 'add', '--name', 'stale', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'gpt-4o-mini,gpt-3.5-gone'], env);
	const stale = await runCli(['channels', 'test', 'stale'], env);
	assert.equal(stale.code, 0, stale.stderr);
	assert.match(stale.stdout, /\(4 models listed\)\. Its list does not name gpt-3\.5-gone: a request for it fails if the provider retired it or the key may not use it — check the name and change the channel's models with `gateway-tui channels edit stale`\.\n$/);
	assert.deepEqual((JSON.parse((await runCli(['channels', 'test', 'stale', '--json'], env)).stdout) as {unlisted: string[]}).unlisted, ['gpt-3.5-gone']);
	// A test of settings changed since says so.
	ok(await runCli(['channels', 'edit', 'stale', '--priority', '1'], env));
	assert.match((await runCli(['channels', 'show', 'stale'], env)).stdout, /^last test \S+ \(before the channel was last changed: test it again\): Channel "stale" answered in \d+ ms \(4 models listed\)\. Its list does not name gpt-3\.5-gone/m);
	// Where the list has a model of the same family, the test names it and gives the edit that moves to it, aliases kept.
	await runCli(['channels', 'add', '--name', 'older', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'gpt-3.5-mini,mini=gpt-3.5-mini'], env);
	const older = await runCli(['channels', 'test', 'older'], env);
	assert.match(older.stdout, /Its list does not name gpt-3\.5-mini \(it lists gpt-4o-mini\): a request for it fails if the provider retired it or the key may not use it — check the name and change the channel's models with `gateway-tui channels edit older --remove-models gpt-3\.5-mini --add-models gpt-4o-mini,mini=gpt-4o-mini`\.\n$/);
	ok(await runCli(['channels', 'edit', 'older', '--remove-models', 'gpt-3.5-mini', '--add-models', 'gpt-4o-mini,mini=gpt-4o-mini'], env));
	assert.match((await runCli(['channels', 'test', 'older'], env)).stdout, /^Channel "older" answered in \d+ ms \(4 models listed\)\.\n$/, 'the edit it gave leaves nothing to say');
	assert.match((await runCli(['channels', 'rm', 'older'], env)).stdout, /Removed/);
	// Without a name: every enabled channel, a line each (an array with --json).
	const every = await runCli(['channels', 'test'], env);
	assert.equal(every.code, 0, every.stderr);
	assert.deepEqual(every.stdout.trimEnd().split('\n').map(line => /^Channel "([^"]+)" answered/.exec(line)?.[1]), ['fake', 'stale']);
	assert.deepEqual((JSON.parse((await runCli(['channels', 'test', '--json'], env)).stdout) as Array<{channel: string; ok: boolean}>).map(item => [item.channel, item.ok]), [['fake', true], ['stale', true]]);
	assert.match((await runCli(['channels', 'rm', 'stale'], env)).stdout, /Removed/);

	assertRefused(await runCli(['channels', 'add', '--name', 'x', '--format', 'cohere', '--base-url', 'https://x.test', '--models', 'a'], env), /Unknown format "cohere"/);
	assertRefused(await runCli(['channels', 'add', '--name', 'fake', '--format', 'openai', '--base-url', 'https://x.test', '--models', 'a'], env), /exists already/);
	assertRefused(await runCli(['channels', 'add', '--name', 'x', '--format', 'openai', '--base-url', 'ftp://x.test', '--models', 'a'], env), /only http/);
	assertRefused(await runCli(['channels', 'add', '--name', 'x', '--format', 'openai', '--base-url', 'https://x.test', '--models', ','], env), /model list is empty/);

	await runCli(['channels', 'add', '--name', 'bad-key', '--format', 'openai', '--base-url', provider.url, '--api-key', 'sk-wrong-0000000000', '--models', 'z'], env);
	const failed = await runCli(['channels', 'test', 'bad-key'], env);
	assert.equal(failed.code, 1);
	assert.match(failed.stdout, /failed after \d+ ms: HTTP 401: Incorrect API key/);
	const failedShown = (await runCli(['channels', 'show', 'bad-key'], env)).stdout;
	assert.match(failedShown, /^last test \S+: Channel "bad-key" failed after \d+ ms: HTTP 401: Incorrect API key/m);
	assert.ok(!failedShown.includes('sk-wrong-0000000000'), 'the kept result has the key masked, as it was shown');
	const oneFailed = await runCli(['channels', 'test'], env);
	assert.equal(oneFailed.code, 1, 'one channel of two failing fails the whole test');
	assert.equal(oneFailed.stdout.trimEnd().split('\n').length, 2);
	assert.match((await runCli(['channels', 'remove', 'bad-key'], env)).stdout, /Removed/);

	// Nothing listens there: the channel is named once, and the advice is where to change it, not the test that just ran.
	const closed = await closedPort();
	await runCli(['channels', 'add', '--name', 'nowhere', '--format', 'openai', '--base-url', `http://127.0.0.1:${closed}/v1`, '--models', 'z'], env);
	const unreachable = await runCli(['channels', 'test', 'nowhere'], env);
	assert.equal(unreachable.code, 1);
	assert.match(unreachable.stdout, new RegExp(`^Channel "nowhere" failed after \\d+ ms: could not be reached \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${closed}\\)\\. Check its base URL and key with \`gateway-tui channels edit nowhere\`\\.\n$`));
	assert.match((await runCli(['channels', 'rm', 'nowhere'], env)).stdout, /Removed/, 'rm is remove');
});

/** A port nothing listens on: one the system gave a server that is closed again. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	await new Promise(resolve => server.close(resolve));
	return port;
}

test('env prints export lines with the tools\' own variable names', async () => {
	const key = JSON.parse((await runCli(['keys', 'create', '--name', 'envkey', '--json'], env)).stdout) as {key: string};
	const all = await runCli(['env', 'envkey'], env);
	assert.equal(all.code, 0, all.stderr);
	for (const line of [
		"export OPENAI_BASE_URL='http://127.0.0.1:11580/v1'",
		`export OPENAI_API_KEY='${key.key}'`,
		"export ANTHROPIC_BASE_URL='http://127.0.0.1:11580'",
		`export ANTHROPIC_AUTH_TOKEN='${key.key}'`,
		"export GOOGLE_GEMINI_BASE_URL='http://127.0.0.1:11580'",
		`export GEMINI_API_KEY='${key.key}'`,
	]) {
		assert.ok(all.stdout.includes(line), line);
	}
	const one = await runCli(['env', 'envkey', '--tool', 'anthropic', '--port', '9999', '--json'], env);
	assert.deepEqual(JSON.parse(one.stdout), {anthropic: {ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999', ANTHROPIC_AUTH_TOKEN: key.key}});
	assertRefused(await runCli(['env', 'envkey', '--tool', 'cursor'], env), /Unknown tool "cursor"/);
});

test('--help and --version; an unknown command is refused', async () => {
	const help = await runCli(['--help']);
	assert.equal(help.code, 0);
	for (const command of ['serve', 'keys', 'channels', 'env']) assert.match(help.stdout, new RegExp(`\\b${command}\\b`));
	assert.match((await runCli(['--version'])).stdout, /^\d+\.\d+\.\d+/);
	const unknown = await runCli(['frobnicate'], env);
	assert.equal(unknown.code, 1);
	assert.match(unknown.stderr, /unknown command 'frobnicate'/);
});

test('serve: logs one line per request without keys; a CLI change takes effect within a second', async () => {
	const serveHome = tempHome();
	const serveEnv = {GATEWAY_TUI_HOME: serveHome};
	await runCli(['channels', 'add', '--name', 'fake', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'gpt-4o-mini'], serveEnv);
	const serve = await startServe(['--port', '0'], serveEnv);
	try {
		const created = JSON.parse((await runCli(['keys', 'create', '--name', 'live', '--json'], serveEnv)).stdout) as {key: string};
		const client = openaiClient(serve.url, created.key);
		await eventually(async () => {
			try {
				await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hi'}]});
				return true;
			} catch {
				return false;
			}
		}, 1500, 'the new key to work');
		await eventually(() => /200 {2}POST \/v1\/chat\/completions {2}openai {2}key=live {2}model=gpt-4o-mini {2}channel=fake {2}\d+ms in=11 out=7/.test(serve.stdout()), 2000, 'log line');
		assert.ok(!serve.stdout().includes(created.key) && !serve.stdout().includes(provider.apiKey));

		await runCli(['keys', 'revoke', 'live'], serveEnv);
		const revokedAt = Date.now();
		await eventually(async () => {
			try {
				await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hi'}]});
				return false;
			} catch (error) {
				return (error as {status?: number}).status === 401;
			}
		}, 1000, 'revocation to take effect');
		assert.ok(Date.now() - revokedAt <= 1000);
	} finally {
		assert.equal(await stopChild(serve.child), 0);
		rmSync(serveHome, {recursive: true, force: true});
	}
});

test('serve: a port in use is a one-line error naming the port and --port; a public host warns', async () => {
	const blocker = createServer();
	await new Promise<void>(resolve => blocker.listen(0, '127.0.0.1', resolve));
	const port = (blocker.address() as {port: number}).port;
	try {
		assertRefused(await runCli(['serve', '--port', String(port)], env), new RegExp(`Port ${port} is already in use.*--port`));
	} finally {
		blocker.close();
	}
	const open = await startServe(['--host', '0.0.0.0', '--port', '0'], env);
	assert.match(open.stderr(), /warning: listening on 0\.0\.0\.0: other machines can now reach the gateway/);
	await stopChild(open.child);
	assertRefused(await runCli(['serve', '--port', 'abc'], env), /Invalid port "abc"/);
});

test('channels list shows the health a running gateway publishes; serve logs health changes', async () => {
	const serveHome = tempHome();
	const serveEnv = {GATEWAY_TUI_HOME: serveHome};
	await runCli(['channels', 'add', '--name', 'flaky', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'gpt-4o-mini'], serveEnv);
	const before = await runCli(['channels', 'list', '--json'], serveEnv);
	assert.equal((JSON.parse(before.stdout) as Array<{health: unknown}>)[0]!.health, null, 'no gateway, no health');
	const serve = await startServe(['--port', '0'], serveEnv);
	try {
		const key = JSON.parse((await runCli(['keys', 'create', '--name', 'h', '--json'], serveEnv)).stdout) as {key: string};
		await eventually(async () => JSON.parse((await runCli(['channels', 'list', '--json'], serveEnv)).stdout)[0].health?.state === 'healthy', 3000, 'published health');
		provider.enqueue({error: {status: 500}}, {error: {status: 500}}, {error: {status: 500}});
		const client = openaiClient(serve.url, key.key);
		await eventually(async () => {
			try {
				await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hi'}]});
			} catch {
				// each 500 counts towards the circuit
			}
			return /channel=flaky {2}health=unavailable/.test(serve.stdout());
		}, 5000, 'the circuit to open');
		await eventually(async () => /unavailable since .*HTTP 500 \(3 failures in a row\); retry at/.test((await runCli(['channels', 'list'], serveEnv)).stdout), 3000, 'channels list to show it');
	} finally {
		await stopChild(serve.child);
		rmSync(serveHome, {recursive: true, force: true});
	}
});

test('several gateways on one store each publish their own channel health: one that stops or cannot listen never withdraws another\'s', async () => {
	const home = tempHome();
	const homeEnv = {GATEWAY_TUI_HOME: home};
	await runCli(['channels', 'add', '--name', 'shared', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'gpt-4o-mini'], homeEnv);
	const health = async () => (JSON.parse((await runCli(['channels', 'list', '--json'], homeEnv)).stdout) as Array<{health: {state: string; gateways: number; affected: number} | null}>)[0]!.health;
	const first = await startServe(['--port', '0'], homeEnv);
	const second = await startServe(['--port', '0'], homeEnv);
	try {
		await eventually(async () => (await health())?.gateways === 2, 3000, 'both gateways\' health');
		assert.match((await runCli(['channels', 'list'], homeEnv)).stdout, /healthy \(2 gateways\)/);
		// A third on the first one's port cannot listen: it says so and leaves the others' health alone
		// (it withdrew the one record every gateway shared, and `channels list` said none ran).
		const port = new URL(first.url).port;
		const taken = await runCli(['serve', '--port', port], homeEnv);
		assert.match(taken.stderr, /Port \d+ is already in use/);
		assert.equal((await health())?.gateways, 2, 'a gateway that could not listen withdrew nothing');
		// The circuit opens on the first gateway only (its traffic): the list says on how many.
		const key = JSON.parse((await runCli(['keys', 'create', '--name', 'h', '--json'], homeEnv)).stdout) as {key: string};
		provider.enqueue({error: {status: 500}}, {error: {status: 500}}, {error: {status: 500}});
		const client = openaiClient(first.url, key.key);
		await eventually(async () => {
			await client.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'hi'}]}).catch(() => {});
			return /channel=shared {2}health=unavailable/.test(first.stdout());
		}, 5000, 'the circuit to open on the first gateway');
		await eventually(async () => /unavailable \(on 1 of 2 gateways\) since .*HTTP 500/.test((await runCli(['channels', 'list'], homeEnv)).stdout), 3000, 'channels list to show it');
		assert.deepEqual(await health().then(view => view && {state: view.state, gateways: view.gateways, affected: view.affected}), {state: 'unavailable', gateways: 2, affected: 1});
		// The first stops: its record goes, the second's stays.
		await stopChild(first.child);
		assert.deepEqual(await health().then(view => view && {state: view.state, gateways: view.gateways}), {state: 'healthy', gateways: 1});
		await stopChild(second.child);
		assert.equal(await health(), null, 'no gateway runs');
	} finally {
		await stopChild(first.child);
		await stopChild(second.child);
		rmSync(home, {recursive: true, force: true});
	}
});

test('a model a channel lately lacked shows in channels list, show and --json from the gateway serving on the store, until its time', async () => {
	const home = tempHome();
	const homeEnv = {GATEWAY_TUI_HOME: home};
	// Two channels serve "moving"; the first (tried first) names a model its provider does not have.
	await runCli(['channels', 'add', '--name', 'first', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'moving=retired-model-1', '--priority', '10'], homeEnv);
	await runCli(['channels', 'add', '--name', 'second', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'moving=gpt-4o-mini'], homeEnv);
	const serve = await startServe(['--port', '0'], homeEnv);
	try {
		const key = JSON.parse((await runCli(['keys', 'create', '--name', 'l', '--json'], homeEnv)).stdout) as {key: string};
		const sent = Date.now();
		const answer = await openaiClient(serve.url, key.key).chat.completions.create({model: 'moving', messages: [{role: 'user', content: 'hi'}]});
		assert.ok(answer.choices[0]?.message.content, 'the second channel answered');
		await eventually(async () => /^first .*healthy; lacks retired-model-1$/m.test((await runCli(['channels', 'list'], homeEnv)).stdout), 3000, 'channels list to say what the first channel lacks');
		assert.match((await runCli(['channels', 'list'], homeEnv)).stdout, /^second .*healthy$/m, 'the other channel lacks nothing');
		const shown = (await runCli(['channels', 'show', 'first'], homeEnv)).stdout;
		assert.match(shown, /^health {4}healthy$/m);
		assert.match(serve.stdout(), /channel=first  health=healthy  lacks=retired-model-1\n/, "serve's line says what the channel lacks");
		assert.match(shown, /^lacks {5}retired-model-1 until \S+Z: its provider answered 404 \(retired or renamed\?\), so requests for it try the other channels serving it first till then\. `gateway-tui channels test first` names the models it lists\.$/m);
		const [view] = (JSON.parse((await runCli(['channels', 'list', '--json'], homeEnv)).stdout) as Array<{name: string; health: {lacking: Array<{model: string; until: string}>}}>).filter(item => item.name === 'first');
		assert.equal(view!.health.lacking.length, 1);
		assert.equal(view!.health.lacking[0]!.model, 'retired-model-1');
		const remembered = Date.parse(view!.health.lacking[0]!.until) - sent;
		assert.ok(remembered > 9 * 60_000 && remembered <= 10 * 60_000 + 5000, `remembered for 10 minutes from the request (${remembered} ms)`);
	} finally {
		await stopChild(serve.child);
		rmSync(home, {recursive: true, force: true});
	}
});

test('keys create/edit with limits; keys list and show display them; bad limits are refused', async () => {
	const created = JSON.parse((await runCli(['keys', 'create', '--name', 'limited', '--rpm', '60', '--budget', '20/month', '--budget-warn', '80%', '--json'], env)).stdout) as {limits: unknown};
	assert.deepEqual(created.limits, {rpm: 60, budget: {usd: 20, period: 'monthly'}, budgetWarnPercent: 80});
	assert.match((await runCli(['keys', 'list'], env)).stdout, /limited .*rpm 0\/60 · \$0\.00 of \$20\.00 this month/);
	const edited = JSON.parse((await runCli(['keys', 'edit', 'limited', '--rpm', 'none', '--tpd', '5000', '--description', 'for the agent', '--json'], env)).stdout) as {limits: unknown; description: string};
	assert.deepEqual(edited.limits, {tpd: 5000, budget: {usd: 20, period: 'monthly'}, budgetWarnPercent: 80});
	assert.equal(edited.description, 'for the agent');
	assert.match((await runCli(['keys', 'show', 'limited'], env)).stdout, /^limits\s+tpd 0\/5,000 · \$0\.00 of \$20\.00 this month$/m);
	const again = await runCli(['keys', 'edit', 'limited', '--budget', '30/week'], env);
	assert.match(again.stdout, /^Updated key "limited"\./);
	assert.match(again.stdout, /^limits\s+tpd 0\/5,000 · \$0\.00 of \$30\.00 this week$/m, 'with what the key used of them, as keys show');
	assertRefused(await runCli(['keys', 'edit', 'limited', '--budget', '20 dollars'], env), /Invalid --budget "20 dollars": use USD\/PERIOD/);
	assertRefused(await runCli(['keys', 'edit', 'limited', '--rpm', '-5'], env), /Invalid --rpm "-5"/);
	assertRefused(await runCli(['keys', 'create', '--name', 'w', '--budget-warn', '50%'], env), /--budget-warn needs a budget/);
	assertRefused(await runCli(['keys', 'edit', 'limited', '--never-expires', '--expires-in', '1d'], env), /not both/);
});

test('a budget over models with no price warns on create and edit (their requests count $0), naming them and how to price them; once priced, nothing', async () => {
	const own = tempHome();
	const ownEnv = {GATEWAY_TUI_HOME: own};
	try {
		await runCli(['channels', 'add', '--name', 'priced', '--format', 'openai', '--base-url', provider.url, '--models', 'gpt-4o-mini', '--price', 'gpt-4o-mini=0.15/0.6'], ownEnv);
		await runCli(['channels', 'add', '--name', 'bare', '--format', 'openai', '--base-url', provider.url, '--models', 'gpt-4o,fast=gpt-4.1'], ownEnv);
		const created = await runCli(['keys', 'create', '--name', 'capped', '--budget', '5/month'], ownEnv);
		assert.equal(created.code, 0, created.stderr);
		assert.equal(created.stderr, 'warning: The budget of "capped" counts only priced requests: these models have no price on its channel — "bare" (gpt-4o, fast) — so their requests count as $0. Set prices with `gateway-tui channels edit bare --price gpt-4o=IN/OUT` (USD per 1M tokens; 0/0 for a free one).\n');
		// Limited to the priced channel (or no budget at all), the key's budget sees every request.
		assert.equal((await runCli(['keys', 'edit', 'capped', '--channels', 'priced'], ownEnv)).stderr, '');
		assert.equal((await runCli(['keys', 'create', '--name', 'free'], ownEnv)).stderr, '');
		assert.match((await runCli(['keys', 'edit', 'capped', '--channels', '', '--models', 'fast'], ownEnv)).stderr, /^warning: The budget of "capped" counts only priced requests: this model has no price on its channel — "bare" \(fast\) — so its requests count as \$0\./);
		await runCli(['channels', 'edit', 'bare', '--price', 'gpt-4o=2.5/10', '--price', 'fast=2/8'], ownEnv);
		assert.equal((await runCli(['keys', 'edit', 'capped', '--budget', '6/month'], ownEnv)).stderr, '');
	} finally {
		rmSync(own, {recursive: true, force: true});
	}
});

test('--probe-every takes a duration, for serve and for the TUI alike; anything else is a one-line error', async () => {
	for (const command of [['serve', '--port', '0', '--probe-every', 'soon'], ['--port', '0', '--probe-every', 'soon']]) {
		assertRefused(await runCli(command, env), /^gateway-tui: Invalid --probe-every interval "soon": use a number and a unit, like 30d, 12h, 45m or 10s\.$/);
	}
});

test("serve --probe-every keeps each round's checks as the channels' last tests: channels show says the gateway ran it and what it found", async () => {
	const own = tempHome();
	const ownEnv = {GATEWAY_TUI_HOME: own};
	ok(await runCli(['channels', 'add', '--name', 'fake', '--format', 'openai', '--base-url', provider.url, '--api-key', provider.apiKey, '--models', 'gpt-4o-mini,gpt-3.5-gone'], ownEnv));
	ok(await runCli(['channels', 'add', '--name', 'refused', '--format', 'openai', '--base-url', provider.url, '--api-key', 'sk-wrong-0123456789abcdef', '--models', 'gpt-4o-mini'], ownEnv));
	const serve = await startServe(['--port', '0', '--probe-every', '1s'], ownEnv);
	try {
		const shown = (name: string) => runCli(['channels', 'show', name], ownEnv).then(result => result.stdout);
		await eventually(async () => /^last test .*--probe-every/m.test(await shown('refused')), 8000, "the gateway's check kept");
		assert.match(await shown('fake'), /^last test \S+Z \(the gateway's --probe-every check\): Channel "fake" answered in \d+ ms \(\d+ models listed\)\. Its list does not name gpt-3\.5-gone/m);
		const refused = await shown('refused');
		assert.match(refused, /^last test \S+Z \(the gateway's --probe-every check\): Channel "refused" failed after \d+ ms: HTTP 401/m);
		assert.ok(!refused.includes('sk-wrong-0123456789abcdef'), 'the refused key is not in the kept text');
		const json = JSON.parse(ok(await runCli(['channels', 'show', 'fake', '--json'], ownEnv))) as {lastTest: {by: string; current: boolean; ok: boolean; unlisted: string[]}};
		assert.deepEqual([json.lastTest.by, json.lastTest.current, json.lastTest.ok, json.lastTest.unlisted], ['probe', true, true, ['gpt-3.5-gone']]);
	} finally {
		await stopChild(serve.child);
		rmSync(own, {recursive: true, force: true});
	}
});

test('channels edit --remove-models and --add-models swap a retired model without retyping the list; a name it lacks, a name it has, or an empty list is refused', async () => {
	const own = tempHome();
	const ownEnv = {GATEWAY_TUI_HOME: own};
	const models = async () => (JSON.parse(ok(await runCli(['channels', 'show', 'claude', '--json'], ownEnv))) as {models: Array<{name: string; upstream: string}>}).models.map(model => (model.name === model.upstream ? model.name : `${model.name}=${model.upstream}`));
	try {
		await runCli(['channels', 'add', '--name', 'claude', '--format', 'anthropic', '--base-url', 'http://127.0.0.1:9', '--models', 'claude-sonnet-4-5,sonnet=claude-sonnet-4-5,claude-haiku-5-5', '--price', 'claude-haiku-5-5=1/5'], ownEnv);
		// By upstream name: the alias goes too; the new ones go at the end, an alias among them.
		const swapped = await runCli(['channels', 'edit', 'claude', '--remove-models', 'claude-sonnet-4-5', '--add-models', 'claude-sonnet-5-5,sonnet=claude-sonnet-5-5'], ownEnv);
		assert.equal(swapped.code, 0, swapped.stderr);
		assert.deepEqual(await models(), ['claude-haiku-5-5', 'claude-sonnet-5-5', 'sonnet=claude-sonnet-5-5']);
		// By client-facing name; the price of a model kept stays.
		ok(await runCli(['channels', 'edit', 'claude', '--remove-models', 'sonnet'], ownEnv));
		assert.deepEqual(await models(), ['claude-haiku-5-5', 'claude-sonnet-5-5']);
		assert.match(ok(await runCli(['channels', 'show', 'claude'], ownEnv)), /^prices\s+claude-haiku-5-5=1\/5$/m);
		assertRefused(await runCli(['channels', 'edit', 'claude', '--remove-models', 'claude-opus-9,claude-haiku-5-5'], ownEnv), /^gateway-tui: Channel "claude" has no model "claude-opus-9" to remove \(its models: claude-haiku-5-5,claude-sonnet-5-5\)\.$/);
		assertRefused(await runCli(['channels', 'edit', 'claude', '--add-models', 'claude-haiku-5-5=claude-haiku-6'], ownEnv), /serves "claude-haiku-5-5" already: take it out first in the same edit \(--remove-models claude-haiku-5-5 --add-models claude-haiku-5-5=claude-haiku-6\), or leave it out\./);
		assertRefused(await runCli(['channels', 'edit', 'claude', '--remove-models', 'claude-haiku-5-5,claude-sonnet-5-5'], ownEnv), /would leave channel "claude" with no model: add one with --add-models, or remove the channel with `gateway-tui channels remove claude`\./);
		assert.deepEqual(await models(), ['claude-haiku-5-5', 'claude-sonnet-5-5'], 'a refused edit changes nothing');
		// Both in one edit, as the refusal says: the model is replaced.
		ok(await runCli(['channels', 'edit', 'claude', '--remove-models', 'claude-haiku-5-5', '--add-models', 'claude-haiku-5-5=claude-haiku-6'], ownEnv));
		assert.deepEqual(await models(), ['claude-sonnet-5-5', 'claude-haiku-5-5=claude-haiku-6']);
	} finally {
		rmSync(own, {recursive: true, force: true});
	}
});
