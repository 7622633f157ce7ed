/** `gateway-tui takeover status | apply <tool> | undo <tool>`: the options here, the work in takeover-actions.ts (loaded when it runs). */
import type {Command} from 'commander';
import {defaultHost, defaultPort} from '../base/paths.js';

export type Flags = {host: string; port: string; json?: boolean};
export type ApplyFlags = Flags & {key?: string; model?: string; fastModel?: string; allFolders?: boolean; force?: boolean};

const actions = () => import('./takeover-actions.js');

export function registerTakeover(program: Command): void {
	const takeover = program.command('takeover').description('point Claude Code, Codex or Gemini CLI at the gateway by editing their config, and put it back');
	const common = (command: Command) =>
		command
			.option('--host <host>', 'the host the gateway listens on', defaultHost)
			.option('--port <port>', 'the port the gateway listens on', String(defaultPort))
			.option('--json', 'print JSON');

	common(takeover.command('status').description('show, for each tool, whether it points at the gateway')).action(async (flags: Flags, command: Command) => (await actions()).status(flags, command));

	common(
		takeover
			.command('apply <tool>')
			.description('point claude, codex or gemini at the gateway (backs up each file it changes)')
			.option('--key <name>', 'use this virtual key (default: takeover-<tool>, created when missing)')
			.option('--model <name>', 'the model the tool should ask for (must be served by a channel)')
			.option('--fast-model <name>', "Claude Code's model for background tasks (default: --model)")
			.option('--all-folders', 'Gemini CLI: work in every folder, not only trusted ones (turns off its folder trust)')
			.option('--force', 'overwrite a tool connected elsewhere, and clear settings that would win over the gateway key'),
	).action(async (name: string, flags: ApplyFlags, command: Command) => (await actions()).apply(name, flags, command));

	common(takeover.command('undo <tool>').description('put back what apply changed (values changed since are kept)')).action(async (name: string, flags: Flags, command: Command) => (await actions()).undo(name, flags, command));
}
