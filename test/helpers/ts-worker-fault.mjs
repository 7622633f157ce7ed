// ts-worker.mjs with a fault injected: once the core's entry has started (it is listening), an error
// nothing catches is thrown on the worker's thread after GATEWAY_TUI_TEST_FAULT_AFTER_MS, as a bug in
// a timer or a callback would throw it.
import {register} from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
setTimeout(() => {
	throw new Error('a fault injected into the core by the test');
}, Number(process.env.GATEWAY_TUI_TEST_FAULT_AFTER_MS ?? 500));
