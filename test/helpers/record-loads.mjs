// Loaded with `node --import` by test/cli/start-cost.test.ts: records the URL of every ES module the
// process loads (one per line) in the file named by RECORD_LOADS_FILE, through a module load hook.
import {register} from 'node:module';

register(new URL('./record-loads-hooks.mjs', import.meta.url), {data: {file: process.env.RECORD_LOADS_FILE}});
