/**
 * Where the core's worker thread starts (worker-host.ts). Built, the worker's code (worker.ts: the
 * gateway, the store, the HTTP stack's loader) is one CommonJS script, dist/worker.cjs, compiled with
 * V8's code cache like the commands and the TUI's UI (base/code-cache.ts): as ES module chunks, their
 * compile was about a seventh of the worker's start, which Node 20 cannot cache. Run from the sources
 * (the tests' ts-worker.mjs loader), worker.ts is imported as it is.
 */
import {loadBundle} from '../base/code-cache.js';

await loadBundle(import.meta.url, 'worker.cjs', './worker.ts');
