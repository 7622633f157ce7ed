/**
 * What a gateway does with a bug that throws where nothing catches it (an error in a callback, a
 * promise nothing handles): close the gateway first — the usage of what it answered saved, the store
 * closed — within a time box, then end. `serve` exits 1; the TUI's worker thread tells the TUI. A
 * worker thread that ended with a store call in flight would take the whole process down
 * (node-sqlite3's callback throws into the thread being torn down: SIGABRT).
 */
export type CloseOutcome = 'closed' | 'failed' | 'late';

export type CrashHandling = {
	/** Close what runs: called once, on the first crash. */
	readonly close: () => Promise<void>;
	/** Said at once, before closing. */
	readonly begin?: (error: unknown) => void;
	/** After the close (or the time box): report and end the process or thread. */
	readonly end: (error: unknown, outcome: CloseOutcome) => void;
	readonly timeoutMs?: number;
};

export const defaultCrashCloseMs = 5000;

/** An uncaught error as it is reported: its stack when it has one. */
export function crashText(error: unknown): string {
	return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** An uncaught error as another thread is told of it (the TUI of its core's crash): its message, and its text as crashText gives it. */
export function crashReport(error: unknown): {readonly error: string; readonly stack: string} {
	return {error: error instanceof Error ? error.message : String(error), stack: crashText(error)};
}

/**
 * The error a crash report stands for on the thread it was sent to: the other thread's message and
 * stack, so it is reported as that thread saw it — not wrapped again, with this thread's stack after.
 */
export function reportedCrash(report: {readonly error: string; readonly stack: string}): Error {
	const error = new Error(report.error);
	error.stack = report.stack;
	return error;
}

/** Handle uncaught errors and unhandled rejections of this thread so; returns the function that stops it. */
export function closeOnCrash(handling: CrashHandling): () => void {
	let crashing = false;
	const crash = (error: unknown) => {
		if (crashing) return;
		crashing = true;
		handling.begin?.(error);
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<CloseOutcome>(resolve => (timer = setTimeout(() => resolve('late'), handling.timeoutMs ?? defaultCrashCloseMs)));
		const closing = Promise.resolve()
			.then(handling.close)
			.then(
				(): CloseOutcome => 'closed',
				(): CloseOutcome => 'failed',
			);
		void Promise.race([closing, late]).then(outcome => {
			clearTimeout(timer);
			handling.end(error, outcome);
		});
	};
	process.on('uncaughtException', crash);
	process.on('unhandledRejection', crash);
	return () => {
		process.off('uncaughtException', crash);
		process.off('unhandledRejection', crash);
	};
}
