/**
 * `serve` and a bug that throws where nothing catches it: it says so on stderr (what to report, how
 * to start again), closes the gateway as Ctrl+C does — the usage of every request it answered saved,
 * the store closed — and exits 1, rather than dying with the last half second of usage lost.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {existsSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Store} from '../../source/store/index.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {recentRequests} from '../../source/store/usage-summary.js';
import {cliArgs} from '../helpers/cli.js';
import {tempHome} from '../helpers/gateway.js';
import {json, startFaulty} from '../helpers/faulty-providers.js';

const fault = fileURLToPath(new URL('../helpers/fault-after.mjs', import.meta.url));

test('serve crashing under traffic saves the usage of every request it answered, says so, and exits 1', async () => {
	const home = tempHome();
	const provider = await startFaulty(json(200, {id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{index: 0, message: {role: 'assistant', content: 'ok'}, finish_reason: 'stop'}], usage: {prompt_tokens: 3, completion_tokens: 1, total_tokens: 4}}));
	const store = await Store.open(home, {home});
	await addChannel(store, {name: 'up', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-real-key-serve-crash-0123456789', models: 'm'});
	const key = await createKey(store, {name: 'crash'});
	await store.close();
	const child = spawn(process.execPath, ['--import', fault, ...cliArgs, 'serve', '--port', '0'], {env: {...process.env, NODE_NO_WARNINGS: '1', GATEWAY_TUI_HOME: home, GATEWAY_TUI_TEST_FAULT_AFTER_MS: '1500'}, stdio: ['ignore', 'ignore', 'pipe']});
	let stderr = '';
	child.stderr!.on('data', chunk => (stderr += chunk));
	const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)));
	let done = false;
	void exited.then(() => (done = true));
	try {
		const url = await new Promise<string>((resolve, reject) => {
			child.stderr!.on('data', () => {
				const match = /listening on (http:\/\/\S+)/.exec(stderr);
				if (match) resolve(match[1]!);
			});
			void exited.then(code => reject(new Error(`serve exited (${code}) before listening: ${stderr}`)));
		});
		let served = 0;
		const client = async () => {
			while (!done) {
				try {
					const response = await fetch(`${url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${key.secret}`}, body: JSON.stringify({model: 'm', messages: [{role: 'user', content: 'hello'}]})});
					const text = await response.text();
					if (response.status === 200 && text.includes('chat.completion')) served += 1;
				} catch {
					// the gateway is going
				}
			}
		};
		await Promise.all([client(), client(), client(), client()]);
		assert.equal(await exited, 1, stderr);
		assert.match(stderr, /gateway-tui: crashed \(a bug in gateway-tui; please report it with these lines\): Error: a fault injected by the test/);
		assert.match(stderr, /gateway-tui: stopped after a crash \(usage saved\)\. Start it again with `gateway-tui serve`\./);
		assert.ok(served > 20, `only ${served} requests were answered before the fault`);
		assert.equal(existsSync(join(home, 'gateway.sqlite-wal')), false, 'the store was left open');
		const reopened = await Store.open(home, {home});
		const stored = (await recentRequests(reopened, 100_000)).filter(record => record.status === 200).length;
		await reopened.close();
		// One may have been answered in the instant between its last byte and its record.
		assert.ok(stored >= served - 1, `${served} requests were answered before the crash, ${stored} are in the store`);
	} finally {
		child.kill('SIGKILL');
		await provider.close();
		rmSync(home, {recursive: true, force: true});
	}
});
