/**
 * The TUI's entry, loaded by the default command (cli/default.ts) once it knows it has a terminal:
 * the gateway core's worker first, from a small module (start-core.ts), so it boots beside this
 * thread's loading of the UI (run.tsx: Ink, React, the panes).
 *
 * Built, the UI is one CommonJS script, dist/run.cjs, compiled with V8's code cache
 * (base/code-cache.ts; the cache is written a second after it loaded, so it holds the functions of
 * the first frame too): Node 20 has no code cache for ES modules, and compiling the UI's chunks was
 * a fifth of the time to the first frame. Its layout engine's WebAssembly is ready once
 * `yogaReady` is (source/build/build.ts says why the bundle waits here and not at its top level).
 * Run from the sources (under tsx), run.tsx is imported as it is.
 */
import {loadBundle} from '../base/code-cache.js';
import {withoutFetch} from '../base/without-fetch.js';
import {startCore, type TuiOptions} from './start-core.js';
import {clipboardyWrite} from './system-clipboard.js';

type Ui = {readonly runTui: typeof import('./run.js').runTui};

async function loadUi(): Promise<Ui> {
	const ui = (await loadBundle(import.meta.url, 'run.cjs', './run.tsx')) as Ui & {readonly yogaReady?: Promise<void>};
	// Only the bundle has it (run from the sources, yoga-layout waits at its own top level).
	await ui.yogaReady;
	return ui;
}

export async function startTui(options: TuiOptions): Promise<void> {
	const core = startCore(options);
	const {runTui} = await withoutFetch(loadUi).catch(async (failure: unknown) => {
		await core.abandon();
		throw failure;
	});
	await runTui(options, core, clipboardyWrite);
}
