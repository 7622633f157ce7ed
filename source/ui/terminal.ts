/**
 * Owning the terminal while the TUI runs: the alternate screen (the user's scrollback is left as it
 * was), and a guarantee that it is handed back — normal screen, visible cursor, cooked input — on
 * quit, on SIGTERM/SIGHUP/SIGINT and on a crash, whichever comes first.
 */
import {writeSync} from 'node:fs';

// With the alternate screen, bracketed paste: a paste comes marked, as one `paste` key (keys.ts),
// so pasted text goes into a field whole and never runs the panes' one-letter commands.
export const enterAlternateScreen = '\u001B[?1049h\u001B[H\u001B[2J\u001B[?2004h';
export const leaveAlternateScreen = '\u001B[?2004l\u001B[?1049l\u001B[?25h';

type Output = NodeJS.WriteStream;
type Input = NodeJS.ReadStream;

export type TerminalSession = {
	/** Hand the terminal back; safe to call more than once, and when the terminal is gone. */
	restore(): void;
	/**
	 * Call `gone` (once) when the terminal stops working — its window closed, an SSH connection
	 * dropped: a write to it or a read from it fails (EIO). Without this the failure would be an
	 * uncaught error, a crash; it is a hang-up, and the app takes the same way out as on SIGHUP.
	 */
	whenGone(gone: () => void): void;
};

export function takeTerminal(stdout: Output, stdin: Input): TerminalSession {
	stdout.write(enterAlternateScreen);
	let restored = false;
	const restore = () => {
		if (restored) return;
		restored = true;
		// The terminal may be gone — its window closed, an SSH connection dropped (SIGHUP) — and then
		// both of these fail (EIO): there is nothing left to hand back, and the way out must go on.
		try {
			if (stdin.isTTY) stdin.setRawMode(false);
		} catch {
			// the terminal is gone
		}
		// Synchronous: this also runs from 'exit' and crash handlers, where async writes are lost.
		const fd = (stdout as Output & {fd?: number}).fd;
		try {
			if (typeof fd === 'number') writeSync(fd, leaveAlternateScreen);
			else stdout.write(leaveAlternateScreen);
		} catch {
			// the terminal is gone
		}
	};
	process.once('exit', restore);
	let lost: (() => void) | null = null;
	let isGone = false;
	// Kept for the process's life: Ink's last frame, written after restore, may be what fails.
	const failed = () => {
		if (isGone) return;
		isGone = true;
		lost?.();
	};
	stdout.on('error', failed);
	stdin.on('error', failed);
	return {
		restore,
		whenGone(gone) {
			lost = gone;
			if (isGone) gone();
		},
	};
}

/**
 * Call `stop` on termination signals (once), and `crash` on an uncaught exception or unhandled
 * rejection. Returns the function that removes the handlers.
 */
export function guardProcess(stop: () => void, crash: (error: unknown) => void): () => void {
	const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];
	for (const signal of signals) process.on(signal, stop);
	process.on('uncaughtException', crash);
	process.on('unhandledRejection', crash);
	return () => {
		for (const signal of signals) process.off(signal, stop);
		process.off('uncaughtException', crash);
		process.off('unhandledRejection', crash);
	};
}
