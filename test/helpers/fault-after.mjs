// A fault for crash tests: an error nothing catches, thrown as a bug in a timer or a callback would
// throw it, once the file GATEWAY_TUI_TEST_FAULT_FILE names exists — the test writes it when enough
// requests were answered (a fixed time after start left a slow, busy host with too few). Load it with
// `node --import` before `dist/cli.js serve`, or after the worker's entry (ts-worker-fault.mjs).
import {existsSync} from 'node:fs';

const trigger = process.env.GATEWAY_TUI_TEST_FAULT_FILE;
if (!trigger) throw new Error('fault-after.mjs needs GATEWAY_TUI_TEST_FAULT_FILE: the file whose creation sets the fault off');
const poll = setInterval(() => {
	if (!existsSync(trigger)) return;
	clearInterval(poll);
	throw new Error('a fault injected by the test');
}, 20);
