/**
 * `gateway-tui` with no subcommand. Until the full-screen TUI lands it runs the headless proxy,
 * exactly like `gateway-tui serve` with default options.
 */
import type {Command} from 'commander';
import {defaultHost, defaultPort} from '../paths.js';
import {homeOf} from './context.js';
import {serve} from './serve.js';

export async function startDefault(command: Command): Promise<void> {
	await serve(homeOf(command), defaultHost, defaultPort, false);
}
