// A fault for crash tests: an error nothing catches, thrown GATEWAY_TUI_TEST_FAULT_AFTER_MS after this
// module runs, as a bug in a timer or a callback would throw it. Load it with `node --import` before
// `dist/cli.js serve`, or after the worker's entry (ts-worker-fault.mjs).
setTimeout(() => {
	throw new Error('a fault injected by the test');
}, Number(process.env.GATEWAY_TUI_TEST_FAULT_AFTER_MS ?? 500));
