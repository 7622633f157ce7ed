/**
 * Closing the terminal gateway-tui runs in — its window, a tab, an SSH connection that drops — must
 * stop it the way q or Ctrl+C does: the core closed first, every answered request stored, the port
 * free. In tmux, killing the server does what closing a window does: the pane's processes are hung
 * up on (SIGHUP) and their terminal is gone, so a write to it or a read from it fails (EIO).
 *
 * Before: the TUI's way out handed the terminal back first, that threw on the terminal that was gone,
 * and the rest of the way out never ran — the process ran on with its worker and its port, its
 * signal handlers still set, so SIGTERM did nothing either. `serve` had no SIGHUP handler at all:
 * closing its terminal killed it without saving the last second of usage. And a terminal hangs up
 * more than once: a second SIGHUP must not cut a way out already under way.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {fileURLToPath} from 'node:url';
import {appEnv, hasTmux, running, startTmux} from './tmux.js';
import {assertAllStored, crashHome, trafficUntil} from '../helpers/crash-traffic.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const skip = hasTmux() ? false : 'tmux is not installed (apt-get install tmux)';
const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

const cases = [
	{name: 'gateway-tui, its terminal closed under traffic', command: 'node dist/cli.js --port 0', ready: /● (http:\/\/127\.0\.0\.1:\d+)/, quitFirst: false},
	{name: 'gateway-tui, q pressed and its terminal closed at once', command: 'node dist/cli.js --port 0', ready: /● (http:\/\/127\.0\.0\.1:\d+)/, quitFirst: true},
	{name: 'gateway-tui serve, its terminal closed under traffic', command: 'node dist/cli.js serve --port 0', ready: /listening on (http:\/\/127\.0\.0\.1:\d+)/, quitFirst: false},
] as const;

for (const {name, command, ready, quitFirst} of cases) {
	test(`${name}: it stops, its core closed first, every answered request stored, its port free`, {skip, timeout: 30_000}, async () => {
		const setup = await crashHome();
		// The pane runs node itself, so the process hung up on is the app.
		const tmux = startTmux({dir: setup.home, cwd: root, columns: 120, rows: 40, env: appEnv({GATEWAY_TUI_HOME: setup.home}), command});
		try {
			const first = await tmux.waitFor(ready, 10_000);
			const url = ready.exec(first)![1]!;
			const pid = tmux.panePid();
			let closed = false;
			const traffic = trafficUntil(url, setup.secret, () => closed);
			await delay(1500);
			if (quitFirst) await tmux.keys('q');
			tmux.kill();
			// A closing terminal can hang up more than once (tmux, then the kernel as the terminal goes;
			// under load they arrive apart): a later SIGHUP found the default action — death, with the
			// store half closed — or, in serve, the "again: stopping now" of a second Ctrl+C.
			for (let hangUp = 0; hangUp < 10 && running(pid); hangUp++) {
				await delay(10);
				try {
					process.kill(pid, 'SIGHUP');
				} catch {
					// gone already
				}
			}
			const deadline = Date.now() + 10_000;
			while (running(pid)) {
				assert.ok(Date.now() < deadline, 'still running 10 s after its terminal closed');
				await delay(50);
			}
			closed = true;
			const served = await traffic;
			await assert.rejects(fetch(`${url}/v1/models`), 'nothing listens on its port');
			await assertAllStored(setup.home, served);
		} finally {
			await tmux.stop();
			await setup.close();
		}
	});
}
