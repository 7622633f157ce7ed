// ts-worker.mjs with a fault injected (fault-after.mjs): once the core's entry has started (it is
// listening), an error nothing catches is thrown on the worker's thread once GATEWAY_TUI_TEST_FAULT_FILE exists.
import {register} from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
await import('./fault-after.mjs');
