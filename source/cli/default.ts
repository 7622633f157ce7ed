/**
 * `gateway-tui` with no subcommand (also `gateway-tui tui`): the proxy and the full-screen TUI in
 * one process. Without a terminal (output piped, a service manager) it runs the proxy alone, as
 * `gateway-tui serve` would, and says so.
 */
import type {Command} from 'commander';
import {UserError} from '../base/errors.js';
import {defaultHost, defaultPort} from '../base/paths.js';
import {homeOf, storeUrlOf} from './context.js';
import type {TuiOptions} from '../ui/start-core.js';
import {allowHostHelp, bodyLimitHelp, captureBodiesFlag, captureBodiesHelp, collectHosts, parsePort, parseProbeEvery, probeEveryHelp, serve, surfaceFlags, type StoreChoice, type SurfaceFlags} from './serve.js';

/**
 * Loads the TUI's module (source/ui/tui.ts). The commands are one CommonJS bundle compiled with V8's
 * code cache (dist/commands.cjs), which can call no `import()` (Node 20 runs one in such a script only
 * with an experimental option); the TUI's first step is an ES module (dist/tui.js), which imports
 * clipboardy, an ES module only, and loads the UI's own bundle (dist/run.cjs). So the launcher
 * (source/cli.tsx), an ES module built with tui.js, hands the commands this function, whose
 * `import()` its build resolves to tui.js.
 */
export type TuiLoader = () => Promise<{startTui(options: TuiOptions): Promise<void>}>;

export function registerDefault(program: Command, loadTui: TuiLoader): void {
	program
		.command('tui', {isDefault: true})
		.description('start the gateway with the full-screen terminal UI (the default command)')
		.option('--port <port>', 'port to listen on (0 picks a free port)', String(defaultPort))
		.option('--host <host>', 'address to listen on (other machines can reach a non-loopback address)', defaultHost)
		.option('--allow-host <name>', allowHostHelp, collectHosts, [])
		.option('--body-limit <size>', bodyLimitHelp)
		.option('--capture-bodies', `${captureBodiesHelp}; b in a request's details switches it too`)
		.option('--probe-every <duration>', probeEveryHelp)
		.allowExcessArguments(true)
		.action(async (options: {port: string; host: string; captureBodies?: boolean; probeEvery?: string} & SurfaceFlags, command: Command) => {
			if (command.args.length > 0) throw new UserError(`unknown command '${command.args[0]}'. Run \`gateway-tui --help\` for the commands.`);
			captureBodiesFlag(options.captureBodies);
			await startDefault({home: homeOf(command), storeUrl: storeUrlOf(command)}, options.host, parsePort(options.port), surfaceFlags(options), loadTui, parseProbeEvery(options.probeEvery));
		});
}

export async function startDefault(where: StoreChoice, host: string, port: number, surface: ReturnType<typeof surfaceFlags>, loadTui: TuiLoader, probeEveryMs?: number): Promise<void> {
	if (!process.stdout.isTTY || !process.stdin.isTTY) {
		process.stderr.write('gateway-tui: not a terminal, so no TUI: running the proxy alone (same as `gateway-tui serve`).\n');
		return serve(where, host, port, false, probeEveryMs, surface);
	}
	// The gateway core runs in a worker thread, which reads these (its environment is a copy of ours).
	if (surface.allowHosts) process.env.GATEWAY_TUI_ALLOW_HOST = surface.allowHosts.join(',');
	if (surface.bodyLimitBytes) process.env.GATEWAY_TUI_BODY_LIMIT = String(surface.bodyLimitBytes);
	const {startTui} = await loadTui();
	await startTui({home: where.home, host, port, store: where.storeUrl, probeEveryMs});
}
