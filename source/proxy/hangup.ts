/**
 * What the request path needs of an AbortController — aborted or not, why, and who to tell — for
 * the client's hang-up and the first-byte deadline, one of each per request. Node's AbortController
 * builds an EventTarget (its prototype swapped at construction) and every listener goes through
 * EventTarget's dispatch: several microseconds a request at thousands a second, for a signal that
 * almost never fires. A real AbortSignal is made only when a Node API asks for one (`signal`).
 */
export class Hangup {
	aborted = false;
	reason: Error | undefined;
	private listeners: Array<(reason: Error) => void> | null = null;
	private controller: AbortController | null = null;

	/** Abort once: the listeners run in the order they were added; later calls do nothing. */
	abort(reason: Error): void {
		if (this.aborted) return;
		this.aborted = true;
		this.reason = reason;
		const listeners = this.listeners;
		this.listeners = null;
		this.controller?.abort(reason);
		if (listeners) for (const listener of listeners) listener(reason);
	}

	/** Call `listener` on abort (at once if already aborted); returns what removes it. */
	onAbort(listener: (reason: Error) => void): () => void {
		if (this.aborted) {
			listener(this.reason!);
			return noop;
		}
		(this.listeners ??= []).push(listener);
		return () => {
			const index = this.listeners?.indexOf(listener) ?? -1;
			if (index >= 0) this.listeners!.splice(index, 1);
		};
	}

	/** An AbortSignal that follows this hang-up, for Node APIs that take one (made on first use). */
	get signal(): AbortSignal {
		if (!this.controller) {
			this.controller = new AbortController();
			if (this.aborted) this.controller.abort(this.reason);
		}
		return this.controller.signal;
	}
}

const noop = () => {};
