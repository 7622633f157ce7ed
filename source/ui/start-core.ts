/**
 * The first step of `gateway-tui`: the log file opened (set aside first if it grew too large), the
 * process's stray output sent to it, and the gateway core's worker started — before the TUI's own
 * code (Ink, React, the panes) is loaded. The worker boots its V8 isolate and loads the proxy while
 * this thread loads the UI and checks the store, side by side: the screen came up about 90 ms
 * later when the worker was started only once the store had been read (test/e2e/tui.test.ts has
 * the failures this must still report on the normal screen: a store sealed with another master key,
 * a port in use).
 */
import {crashText} from '../base/close-on-crash.js';
import {UserError} from '../base/errors.js';
import {EventBus} from '../base/events.js';
import {startCoreWorker, type CoreHandle} from '../proxy/worker-host.js';
import {openLogFile, type LogFile} from './log-file.js';

export type TuiOptions = {readonly home: string; readonly host: string; readonly port: number; readonly store?: string; readonly probeEveryMs?: number};

/** The worker's outcome: its handle once it listens, or why it could not (a port in use: the TUI runs without it). */
export type CoreStart = {readonly gateway: CoreHandle | null; readonly error: string | null};

export type StartingCore = {
	readonly events: EventBus;
	readonly logFile: LogFile;
	/** Give the terminal its stray output back (console, process warnings, stderr). */
	readonly release: () => void;
	readonly started: Promise<CoreStart>;
	/** Where a crash of the core goes once the screen is the TUI's (until then, to the log). */
	onCrash(handler: (error: unknown) => void): void;
	/** The worker waited for (a bounded time: a start that hangs is left) and closed; for the TUI's way out. */
	close(): Promise<void>;
	/** The TUI will not run after all (its store could not be read): the worker is waited for and closed, the output given back. */
	abandon(): Promise<void>;
};

export function startCore(options: TuiOptions): StartingCore {
	const events = new EventBus();
	// Capture first: starting the proxy may already print (a library's deprecation warning, say).
	const logFile = openLogFile(options.home);
	// The core's worker writes the request lines itself, one write per batch, off this thread.
	const release = logFile.capture(events);
	let onCoreCrash: (error: unknown) => void = failure => logFile.write('crash', crashText(failure));
	const started = startCoreWorker({home: options.home, storeUrl: options.store, host: options.host, port: options.port, probeEveryMs: options.probeEveryMs, logFile: logFile.path, events, output: text => logFile.write('core', text), onCrash: failure => onCoreCrash(failure)}).then(
		(gateway): CoreStart => ({gateway, error: null}),
		(error: unknown): CoreStart => {
			if (error instanceof UserError) return {gateway: null, error: error.message};
			throw error;
		},
	);
	// Not awaited until the store has been read: a failure meanwhile must not be an unhandled rejection.
	started.catch(() => {});
	return {
		events,
		logFile,
		release,
		started,
		onCrash(handler) {
			onCoreCrash = handler;
		},
		close,
		async abandon() {
			// The worker reads the same store, so it fails as fast as this thread did; a store that
			// hangs it is given a bound, and the error is reported all the same.
			await close();
			release();
		},
	};

	async function close(): Promise<void> {
		let timer: NodeJS.Timeout | undefined;
		const outcome = await Promise.race([started.catch(() => null), new Promise<undefined>(resolve => (timer = setTimeout(() => resolve(undefined), closeWaitMs)))]);
		clearTimeout(timer);
		if (outcome === undefined) logFile.write('warning', `the gateway worker had not finished starting after ${closeWaitMs / 1000} s; gateway-tui stops without it`);
		await outcome?.gateway?.close();
	}
}

/** How long a TUI that stops waits for a worker still starting before it stops without it. */
const closeWaitMs = 10_000;
