/**
 * The command line: no subcommand starts the TUI with the proxy; `serve` the proxy alone; the rest
 * are scriptable commands (`--json` on each) over the same services the TUI uses.
 */
import {Command} from 'commander';
import {existsSync, readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {registerChannels} from './channels.js';
import {registerDefault, type TuiLoader} from './default.js';
import {registerEnv} from './env.js';
import {registerKeys} from './keys.js';
import {registerLogs} from './logs.js';
import {registerServe} from './serve.js';
import {registerStore} from './store.js';
import {registerUsage} from './usage.js';
import {registerTakeover} from './takeover.js';

/** Our package.json: one folder up from the bundle (dist/commands.cjs), two from the sources (source/cli/). */
function packageVersion(): string {
	for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
		const file = join(dir, 'package.json');
		if (!existsSync(file)) continue;
		const manifest = JSON.parse(readFileSync(file, 'utf8')) as {name?: string; version?: string};
		if (manifest.name === 'gateway-tui' && manifest.version) return manifest.version;
	}
	return 'unknown';
}

const version = packageVersion();

/** `loadTui`: how the default command loads the TUI, which the launcher (source/cli.tsx) knows (see default.ts). */
export function buildProgram(loadTui: TuiLoader): Command {
	const program = new Command('gateway-tui')
		.description('A local LLM gateway: one port for OpenAI, Anthropic and Gemini clients, with virtual keys.')
		.version(version, '-v, --version')
		.option('--home <dir>', 'data directory (default: $GATEWAY_TUI_HOME or the per-user data dir)')
		.option('--store <url>', 'where keys, channels and usage live: sqlite:///path, redis://…, rediss://… or postgres://… (default: $GATEWAY_TUI_STORE or <home>/gateway.sqlite)')
		.showHelpAfterError('(run `gateway-tui --help` for the commands)')
		.configureOutput({outputError: (text, write) => write(text.replace(/^error: /, 'gateway-tui: '))});
	registerServe(program);
	registerKeys(program);
	registerChannels(program);
	registerEnv(program);
	registerUsage(program);
	registerLogs(program);
	registerTakeover(program);
	registerStore(program);
	registerDefault(program, loadTui);
	return program;
}
