// The gateway worker's entry as TypeScript: Node 20 does not apply `--import tsx` to worker
// threads, so this loader registers tsx in the worker, then imports the entry (its last argv).
// Pass it as `loader` to startCoreWorker.
import {register} from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
