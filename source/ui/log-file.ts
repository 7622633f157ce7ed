/**
 * While the TUI runs, nothing but Ink may write to the terminal. Everything else — a line per
 * finished request (as `serve` prints it), gateway warnings, keys crossing their budget's warning
 * threshold, Node's process warnings, console output of any library, stray stderr writes — goes
 * to `<home>/gateway-tui.log` (mode 0600).
 */
import {createWriteStream, renameSync, statSync, type WriteStream} from 'node:fs';
import {join} from 'node:path';
import {format} from 'node:util';
import type {EventBus} from '../base/events.js';
import {budgetWarningText} from './text.js';
import {formatRequestLine} from '../base/request-line.js';

export type LogFile = {
	readonly path: string;
	write(level: string, text: string): void;
	/** Route the event bus, console, process warnings and stderr here; returns the undo. `requests: false` when the core writes its request lines itself (the worker). */
	capture(events: EventBus, options?: {readonly requests?: boolean}): () => void;
	close(): Promise<void>;
};

/** Past this size when the TUI starts, the log is moved to `gateway-tui.log.1` (replacing the one before) and a new one begun. */
export const logRotateBytes = 20 * 1024 * 1024;

/** The log of this run: appended to, unless it grew past `rotateBytes` over the runs before (then it starts over, the old one kept as `.1`). */
export function openLogFile(home: string, rotateBytes = logRotateBytes): LogFile {
	const path = join(home, 'gateway-tui.log');
	rotateIfLarge(path, rotateBytes);
	const stream: WriteStream = createWriteStream(path, {flags: 'a', mode: 0o600});
	stream.on('error', () => {});
	const write = (level: string, text: string) => {
		stream.write(`${new Date().toISOString()} ${level} ${text.trimEnd()}\n`);
	};
	return {
		path,
		write,
		capture(events, {requests = true} = {}) {
			const undo = [
				...(requests ? [events.on('request:finished', event => write('request', formatRequestLine(event)))] : []),
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
		close: () => new Promise(resolve => stream.end(resolve)),
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

/** A log never read back grows by a line a request for as long as it is used: one old generation is kept, no more. */
function rotateIfLarge(path: string, rotateBytes: number): void {
	try {
		if (statSync(path).size > rotateBytes) renameSync(path, `${path}.1`);
	} catch {
		// no log yet (or it cannot be moved: keep appending to it)
	}
}
