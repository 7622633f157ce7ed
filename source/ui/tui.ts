/**
 * The TUI's entry, loaded by the default command (cli/default.ts) once it knows it has a terminal:
 * the gateway core's worker first, from a small module (start-core.ts), so it boots beside this
 * thread's loading of the UI (run.tsx: Ink, React, the panes).
 */
import {withoutFetch} from '../base/without-fetch.js';
import {startCore, type TuiOptions} from './start-core.js';

export async function startTui(options: TuiOptions): Promise<void> {
	const core = startCore(options);
	const {runTui} = await withoutFetch(() => import('./run.js')).catch(async (failure: unknown) => {
		await core.abandon();
		throw failure;
	});
	await runTui(options, core);
}
