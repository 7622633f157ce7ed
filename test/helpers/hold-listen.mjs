// A gateway core slow to start, for the TUI's test that its first frame does not wait for the core:
// preloaded with `node --import` (workers inherit it), it holds every server's listen in the core's
// worker thread until the file GATEWAY_TUI_TEST_HOLD_FILE names exists. The main thread is left alone.
import {existsSync} from 'node:fs';
import {Server} from 'node:net';
import {isMainThread} from 'node:worker_threads';

const release = process.env.GATEWAY_TUI_TEST_HOLD_FILE;
if (!release) throw new Error('hold-listen.mjs needs GATEWAY_TUI_TEST_HOLD_FILE: the file whose creation lets the core listen');
if (!isMainThread) {
	const listen = Server.prototype.listen;
	Server.prototype.listen = function held(...args) {
		const attempt = () => (existsSync(release) ? listen.apply(this, args) : setTimeout(attempt, 20));
		attempt();
		return this;
	};
}
