/** `gateway-tui env KEY` — export lines for each tool, with the key's secret filled in. */
import type {Command} from 'commander';
import {UserError} from '../base/errors.js';
import {envVars, exportLines, parseTool, toolTitles, tools} from '../services/endpoints.js';
import {findKey} from '../services/keys.js';
import {defaultHost, defaultPort} from '../base/paths.js';
import {withStore} from './context.js';
import {print, printJson} from './output.js';
import {parsePort} from './serve.js';
import {keyState} from '../store/keys.js';
import {gatewayUrl} from '../base/paths.js';

export function registerEnv(program: Command): void {
	program
		.command('env <key>')
		.description('print the environment variables that point a tool at the gateway with this key')
		.option('--tool <tool>', 'openai, anthropic, gemini or all', 'all')
		.option('--host <host>', 'the host the gateway listens on', defaultHost)
		.option('--port <port>', 'the port the gateway listens on', String(defaultPort))
		.option('--json', 'print JSON')
		.action(async (ref: string, options: {tool: string; host: string; port: string; json?: boolean}, command: Command) => {
			let tool: ReturnType<typeof parseTool>;
			try {
				tool = parseTool(options.tool);
			} catch (error) {
				throw new UserError((error as Error).message);
			}
			const base = gatewayUrl(options.host, parsePort(options.port));
			await withStore(command, async store => {
				const key = await findKey(store, ref);
				const state = keyState(key);
				if (state !== 'active') process.stderr.write(`warning: the key "${key.name}" is ${state}; the gateway will refuse it.\n`);
				const chosen = tool === 'all' ? tools : [tool];
				if (options.json) return printJson(Object.fromEntries(chosen.map(item => [item, Object.fromEntries(envVars(item, key.secret, base).map(({name, value}) => [name, value]))])));
				print(chosen.map(item => `# ${toolTitles[item]}\n${exportLines(item, key.secret, base)}`).join('\n\n'));
			});
		});
}
