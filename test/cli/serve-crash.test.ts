/**
 * `serve` and a bug that throws where nothing catches it: it says so on stderr (what to report, how
 * to start again), closes the gateway as Ctrl+C does — the usage of every request it answered saved,
 * the store closed — and exits 1, rather than dying with the last half second of usage lost.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import {cliArgs} from '../helpers/cli.js';
import {assertAllStored, crashHome, faultFile, trafficUntil} from '../helpers/crash-traffic.js';

const fault = fileURLToPath(new URL('../helpers/fault-after.mjs', import.meta.url));

test('serve crashing under traffic saves the usage of every request it answered, says so, and exits 1', async () => {
	const setup = await crashHome();
	const child = spawn(process.execPath, ['--import', fault, ...cliArgs, 'serve', '--port', '0'], {env: {...process.env, NODE_NO_WARNINGS: '1', GATEWAY_TUI_HOME: setup.home, GATEWAY_TUI_TEST_FAULT_FILE: faultFile(setup.home)}, stdio: ['ignore', 'ignore', 'pipe']});
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
		const served = await trafficUntil(url, setup.secret, () => done, faultFile(setup.home));
		assert.equal(await exited, 1, stderr);
		assert.match(stderr, /gateway-tui: crashed \(a bug in gateway-tui; please report it with these lines\): Error: a fault injected by the test/);
		assert.match(stderr, /gateway-tui: stopped after a crash \(usage saved unless a warning above says otherwise\)\. Start it again with `gateway-tui serve`\./);
		await assertAllStored(setup.home, served);
	} finally {
		child.kill('SIGKILL');
		await setup.close();
	}
});
