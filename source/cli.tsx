#!/usr/bin/env node
/**
 * gateway-tui's entry point: parse the command line, run the command, turn expected failures
 * (bad input, unreadable store, port in use) into one line on stderr and exit code 1.
 */
import {UserError} from './base/errors.js';
import {StoreError} from './store/index.js';
import {buildProgram} from './cli/program.js';

// React's development build costs the UI half its time (user-timing marks, extra checks), and its
// warnings would be written over the TUI's screen. The build fixes NODE_ENV as "production" in the
// bundle (esbuild's --define), so a NODE_ENV=development exported for the user's own projects does not
// reach it; run from the sources (under tsx), React reads it when first loaded, which is
// after this line. (Written through `env`: the define would replace `process.env.NODE_ENV` here too.)
const env = process.env;
env.NODE_ENV ??= 'production';

const program = buildProgram();

try {
	await program.parseAsync(process.argv);
} catch (error) {
	if (error instanceof UserError || error instanceof StoreError) {
		process.stderr.write(`gateway-tui: ${error.message}\n`);
		process.exitCode = 1;
	} else {
		throw error;
	}
}
