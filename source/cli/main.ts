/**
 * The commands' entry, built as one CommonJS bundle (dist/commands.cjs) that the launcher
 * (source/cli.tsx) compiles with V8's code cache: parse the command line, run the command, turn
 * expected failures (bad input, unreadable store, port in use) into one line on stderr and exit code 1.
 */
import {isUserError} from '../base/errors.js';
import {buildProgram} from './program.js';
import type {TuiLoader} from './default.js';

export async function main(argv: readonly string[], loadTui: TuiLoader): Promise<void> {
	// React's development build costs the UI half its time (user-timing marks, extra checks), and its
	// warnings would be written over the TUI's screen. The build fixes NODE_ENV as "production" in the
	// bundles (esbuild's --define), so a NODE_ENV=development exported for the user's own projects does
	// not reach them; run from the sources (under tsx), React reads it when first loaded, which is
	// after this line. (Written through `env`: the define would replace `process.env.NODE_ENV` here too.)
	const env = process.env;
	env.NODE_ENV ??= 'production';
	try {
		await buildProgram(loadTui).parseAsync([...argv]);
	} catch (error) {
		// isUserError, not instanceof: an error from the TUI comes from its own build's copy of the class.
		if (!isUserError(error)) throw error;
		process.stderr.write(`gateway-tui: ${error.message}\n`);
		process.exitCode = 1;
	}
}

export type Main = typeof main;
