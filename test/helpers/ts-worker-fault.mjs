// ts-worker.mjs with a fault injected (fault-after.mjs): once the core's entry has started (it is
// listening), an error nothing catches is thrown on the worker's thread after
// GATEWAY_TUI_TEST_FAULT_AFTER_MS.
import {register} from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
await import('./fault-after.mjs');
