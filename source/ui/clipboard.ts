/**
 * One-keypress copy. The port hides where text goes, so tests inject a fake:
 *
 * 1. the system clipboard through clipboardy, where there is one (macOS, Windows, WSL, a Linux
 *    desktop with X11 or Wayland), unless we run over SSH without a forwarded display (the remote
 *    machine's clipboard would be the wrong one);
 * 2. else, or when clipboardy fails, the OSC 52 escape sequence, written to the terminal: the
 *    terminal on the user's side puts the text into *its* clipboard (iTerm2, kitty, WezTerm,
 *    Windows Terminal, Alacritty, foot; tmux with `set -g set-clipboard on`);
 * 3. where output is not a terminal at all, nothing can be copied: the message says how to select
 *    the text by hand.
 *
 * `GATEWAY_TUI_CLIPBOARD=system|osc52|none` forces one way (default `auto`).
 * @see https://invisible-island.net/xterm/ctlseqs/ctlseqs.html#h3-Operating-System-Commands (OSC 52)
 */
import type {StatusMessage} from './theme.js';
import {errorText} from './text.js';

export type CopyMethod = 'system' | 'osc52' | 'manual';

export type CopyOutcome = {
	readonly method: CopyMethod;
	/** Why the system clipboard was not used. */
	readonly reason?: string;
};

export type ClipboardPort = {
	readonly copy: (text: string) => Promise<CopyOutcome>;
};

/** Where OSC 52 goes: the TUI's own output stream. */
export type Terminal = {
	readonly isTTY?: boolean;
	write(data: string): unknown;
};

export type ClipboardOptions = {
	readonly terminal: Terminal;
	readonly env?: NodeJS.ProcessEnv;
	readonly platform?: NodeJS.Platform;
	/** Writes the system clipboard (system-clipboard.ts in the TUI; a fake in tests). */
	readonly writeSystem: (text: string) => Promise<void>;
	readonly timeoutMs?: number;
};

/** The reason there is no usable system clipboard, or null when there is one. */
export function systemClipboardMissing(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
	const display = Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
	const ssh = Boolean(env.SSH_CONNECTION || env.SSH_TTY || env.SSH_CLIENT);
	if (ssh && !display) return 'over SSH';
	if (platform === 'darwin' || platform === 'win32') return null;
	if (platform === 'android') return env.TERMUX_VERSION ? null : 'no Termux clipboard';
	if (env.WSL_DISTRO_NAME || display) return null;
	return 'no display';
}

/** The escape sequence that asks the terminal to put `text` into its clipboard. */
export function osc52(text: string, env: NodeJS.ProcessEnv = {}): string {
	const sequence = `\u001B]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
	// GNU screen passes a sequence on to the outer terminal only inside its DCS wrapper.
	return env.STY ? `\u001BP${sequence}\u001B\\` : sequence;
}

export function createClipboard(options: ClipboardOptions): ClipboardPort {
	const env = options.env ?? process.env;
	const platform = options.platform ?? process.platform;
	const mode = env.GATEWAY_TUI_CLIPBOARD ?? 'auto';

	const viaTerminal = (reason: string): CopyOutcome => {
		if (mode === 'none' || !options.terminal.isTTY) return {method: 'manual', reason: mode === 'none' ? 'GATEWAY_TUI_CLIPBOARD=none' : 'output is not a terminal'};
		return {method: 'osc52', reason};
	};

	return {
		async copy(text) {
			const missing = mode === 'osc52' || mode === 'none' ? `GATEWAY_TUI_CLIPBOARD=${mode}` : mode === 'system' ? null : systemClipboardMissing(env, platform);
			let outcome: CopyOutcome | undefined;
			if (missing === null) {
				try {
					await withTimeout(options.writeSystem(text), options.timeoutMs ?? 3000);
					return {method: 'system'};
				} catch (error) {
					outcome = viaTerminal(`system clipboard failed: ${errorText(error)}`);
				}
			}
			outcome ??= viaTerminal(missing ?? 'no system clipboard');
			if (outcome.method === 'osc52') options.terminal.write(osc52(text, env));
			return outcome;
		},
	};
}

/** What the status bar says after copying `what` (e.g. "OPENAI_BASE_URL snippet"). */
export function copyMessage(what: string, outcome: CopyOutcome, env: NodeJS.ProcessEnv = process.env): StatusMessage {
	switch (outcome.method) {
		case 'system':
			return {kind: 'ok', text: `copied ${what}`};
		case 'osc52': {
			const tmux = env.TMUX ? ' (in tmux: set -g set-clipboard on)' : '';
			return {kind: 'ok', text: `copied ${what} via the terminal (OSC 52; ${outcome.reason}). Nothing to paste? Select it with the mouse${tmux}.`};
		}
		case 'manual':
			return {kind: 'warn', text: `cannot copy ${what} (${outcome.reason}): select the text on screen with the mouse (Shift+drag in most terminals) and copy it.`};
	}
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
	});
	try {
		return await Promise.race([promise, timeout]);
	} finally {
		clearTimeout(timer);
	}
}
