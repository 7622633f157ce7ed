/**
 * The command line: no subcommand starts the TUI with the proxy; `serve` the proxy alone; the rest
 * are scriptable commands (`--json` on each) over the same services the TUI uses.
 */
import {Command} from 'commander';
import {UserError} from '../errors.js';
import {createRequire} from 'node:module';
import {registerChannels} from './channels.js';
import {registerEnv} from './env.js';
import {registerKeys} from './keys.js';
import {registerServe} from './serve.js';

const {version} = createRequire(import.meta.url)('../../package.json') as {version: string};

export function buildProgram(defaultAction: (command: Command) => Promise<void>): Command {
	const program = new Command('gateway-tui')
		.description('A local LLM gateway: one port for OpenAI, Anthropic and Gemini clients, with virtual keys.')
		.version(version, '-v, --version')
		.option('--home <dir>', 'data directory (default: $GATEWAY_TUI_HOME or the per-user data dir)')
		.showHelpAfterError('(run `gateway-tui --help` for the commands)')
		.configureOutput({outputError: (text, write) => write(text.replace(/^error: /, 'gateway-tui: '))});
	registerServe(program);
	registerKeys(program);
	registerChannels(program);
	registerEnv(program);
	program.allowExcessArguments(true).action(async (_options, command: Command) => {
		if (command.args.length > 0) throw new UserError(`unknown command '${command.args[0]}'. Run \`gateway-tui --help\` for the commands.`);
		await defaultAction(command);
	});
	return program;
}
