/**
 * Keys reach Ink one at a time, each once React has rendered the one before and run its effects.
 *
 * Why: with React 19 (react-reconciler 0.33 has no synchronous legacy mode) a state change made in
 * a `useInput` handler is rendered later, in a scheduler task, and Ink attaches each `useInput`
 * handler, and applies its `isActive`, in an effect after that render. A key that arrives before
 * then meets the handlers of the previous render: a text field builds the new value from the
 * value it was rendered with (of "ab" only "b" is left), ink-select-input moves from its old index,
 * and after Enter moved the focus the old field still listens while the next one does not yet.
 * Keys come that close together whenever the terminal has several buffered (fast typing, a paste,
 * tmux send-keys, SSH, a busy or just-started process): Ink reads them in one chunk and emits them
 * in one loop, and a run of characters such as "abc\r" as one input.
 *
 * So the pacer cuts input into keys and delivers the next one only when <KeysSettled>, rendered
 * in the same tree, has committed the render that handled the previous one (its effect runs with
 * the other effects of that commit, Ink's re-subscriptions among them).
 */
import {useEffect, useState} from 'react';

// An escape sequence (CSI, SS3, Alt+key, a lone Escape) or one character, as Ink's parser cuts keys.
const keyPattern = /\u001B{1,2}\[\[?[\x30-\x3F]*[\x20-\x2F]*[\x40-\x7E]|\u001B{1,2}O[\s\S]|\u001B[\s\S]?|[\s\S]/gu;

/** The keys of one chunk of terminal input, in order. */
export function splitKeys(chunk: string): string[] {
	return chunk.match(keyPattern) ?? [];
}

export class KeyPacer {
	private readonly queue: string[] = [];
	private delivered = 0;
	private waiting = false;
	private fallback: NodeJS.Timeout | undefined;
	private readonly watchers = new Set<(sequence: number) => void>();
	private readonly idlers: Array<() => void> = [];

	/**
	 * `deliver` hands one key to Ink. Without a <KeysSettled> to wait for, keys go straight on;
	 * with one, the next key waits for its word, or `settleMs` at most (so that input can never
	 * get stuck; a render takes milliseconds, but seconds on a machine that is busy enough).
	 */
	constructor(
		private readonly deliver: (key: string) => void,
		private readonly settleMs = 3000,
	) {}

	/** Input as read from the terminal: one key or many. */
	push(chunk: string): void {
		this.queue.push(...splitKeys(chunk));
		this.next();
	}

	/** Drop what is queued (raw mode ended). */
	clear(): void {
		this.queue.length = 0;
		this.waiting = false;
		clearTimeout(this.fallback);
		this.next();
	}

	/** Resolves once every key pushed so far was delivered and its render committed. */
	async idle(): Promise<void> {
		if (!this.waiting && this.queue.length === 0) return;
		await new Promise<void>(resolve => this.idlers.push(resolve));
	}

	/** Called with the number of each key right after it was delivered. */
	watch(listener: (sequence: number) => void): () => void {
		this.watchers.add(listener);
		return () => {
			this.watchers.delete(listener);
			if (this.watchers.size === 0) this.settled(this.delivered);
		};
	}

	/** The render that handled key number `sequence` was committed: the next key may go. */
	settled(sequence: number): void {
		if (!this.waiting || sequence !== this.delivered) return;
		clearTimeout(this.fallback);
		// After the effects still running in this commit.
		setImmediate(() => {
			if (sequence !== this.delivered) return;
			this.waiting = false;
			this.next();
		});
	}

	private next(): void {
		if (this.waiting) return;
		const key = this.queue.shift();
		if (key === undefined) {
			for (const resolve of this.idlers.splice(0)) resolve();
			return;
		}
		const sequence = ++this.delivered;
		this.waiting = this.watchers.size > 0;
		this.deliver(key);
		for (const watcher of this.watchers) watcher(sequence);
		if (this.waiting) this.fallback = setTimeout(() => this.settled(sequence), this.settleMs);
		else this.next();
	}
}

/**
 * Render this next to the app: its state changes with each key, in the same render as the state
 * the key's handlers changed, and its effect tells the pacer that render was committed.
 */
export function KeysSettled({pacer}: {readonly pacer: KeyPacer}) {
	const [sequence, setSequence] = useState(0);
	useEffect(() => pacer.watch(setSequence), [pacer]);
	useEffect(() => pacer.settled(sequence), [pacer, sequence]);
	return null;
}
