/**
 * Where the core's worker thread starts (worker-host.ts). Built, the worker's code (worker.ts: the
 * gateway, the store, the HTTP stack's loader) is one CommonJS script, dist/worker.cjs, compiled with
 * V8's code cache like the commands and the TUI's UI (base/code-cache.ts): as ES module chunks, their
 * compile was about a seventh of the worker's start, which Node 20 cannot cache. Run from the sources
 * (the tests' ts-worker.mjs loader), worker.ts is imported as it is.
 */
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {requireCached} from '../base/code-cache.js';

const here = fileURLToPath(import.meta.url);
// The path is built, so that the build does not bundle the worker into this file as well.
if (here.endsWith('.ts')) await import(new URL('./worker.ts', import.meta.url).href);
else requireCached(join(dirname(here), 'worker.cjs'));
