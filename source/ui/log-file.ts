/**
 * While the TUI runs, nothing but Ink may write to the terminal. Everything else — a line per
 * finished request (as `serve` prints it; the gateway worker writes those, in batches), gateway
 * warnings, keys crossing their budget's warning threshold, Node's process warnings, console output
 * of any library, stray stderr writes — goes to `<home>/gateway-tui.log` (mode 0600).
 *
 * This thread's lines are rare, and each is appended by path, at once: one written just before the
 * process ends is never lost in a stream's buffer, and after the worker rotates the log (see
 * base/log-rotation.ts) the next line goes to the new file, not to `.1`.
 */
import {appendFileSync} from 'node:fs';
import {join} from 'node:path';
import {format} from 'node:util';
import type {EventBus} from '../base/events.js';
import {budgetWarningText} from './text.js';
import {logRotateBytes, logSize, rotateLog} from '../base/log-rotation.js';

export type LogFile = {
	readonly path: string;
	write(level: string, text: string): void;
	/** Route the event bus's warnings, console, process warnings and stderr here; returns the undo. */
	capture(events: EventBus): () => void;
};

/** The log of this run: appended to, unless it grew past `rotateBytes` over the runs before (then it starts over, the old one kept as `.1`). */
export function openLogFile(home: string, rotateBytes = logRotateBytes): LogFile {
	const path = join(home, 'gateway-tui.log');
	if (logSize(path) > rotateBytes) rotateLog(path);
	try {
		appendFileSync(path, '', {mode: 0o600}); // there from the start, for a `tail -f` (the welcome line names it)
	} catch {
		// written to as it can be (see write)
	}
	const write = (level: string, text: string) => {
		try {
			appendFileSync(path, `${new Date().toISOString()} ${level} ${text.trimEnd()}\n`, {mode: 0o600});
		} catch {
			// A log that cannot be written (a full disk) must not take the TUI down.
		}
	};
	return {
		path,
		write,
		capture(events) {
			const undo = [
				events.on('warning', ({message}) => write('warning', message)),
				events.on('key:budget', warning => write('budget', budgetWarningText(warning))),
				redirectConsole(write),
				redirectProcessWarnings(write),
				redirectStderr(write),
			];
			return () => {
				for (const step of undo.reverse()) step();
			};
		},
	};
}

function redirectConsole(write: LogFile['write']): () => void {
	const methods = ['log', 'info', 'debug', 'warn', 'error', 'trace'] as const;
	const saved = methods.map(method => console[method]);
	for (const method of methods) console[method] = (...args: unknown[]) => write(`console.${method}`, format(...args));
	return () => methods.forEach((method, index) => (console[method] = saved[index]!));
}

function redirectProcessWarnings(write: LogFile['write']): () => void {
	// Node prints process warnings to stderr through its own 'warning' listener; swap it for ours.
	const saved = process.listeners('warning');
	process.removeAllListeners('warning');
	const listener = (warning: Error) => write('process-warning', `${warning.name}: ${warning.message}`);
	process.on('warning', listener);
	return () => {
		process.off('warning', listener);
		for (const original of saved) process.on('warning', original);
	};
}

function redirectStderr(write: LogFile['write']): () => void {
	const original = process.stderr.write;
	process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
		write('stderr', typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
		const callback = rest.find(item => typeof item === 'function') as (() => void) | undefined;
		callback?.();
		return true;
	}) as typeof process.stderr.write;
	return () => {
		process.stderr.write = original;
	};
}
