/**
 * The app's one keyboard: it reads the terminal itself (raw mode), cuts the input into keys
 * (keys.ts) and hands each key, synchronously and in order, to the subscribers by layer — help
 * overlay, then a question, then the focused form field, the form, the pane, and the global keys
 * last. Within a layer the newest subscriber goes first; a handler that returns `true` used the
 * key, and no one below sees it. (gemini-cli's KeypressProvider works the same way.)
 *
 * Handlers keep what they read and change in refs (see useKeyState), so a key sees what the key
 * before it did although React has not rendered it yet: a pasted word, or keys typed ahead, land
 * whole. What refs cannot do is give the keyboard to something that is not on screen yet: a key
 * that opens a form or a question, moves to another field or pane, calls `hold()`, and the keys
 * after it wait for the render that shows the new owner (`settled()`, from its layout effect).
 * That is one render at such a step, never one per key; a `settleMs` fallback keeps input from
 * ever getting stuck.
 */
import {KeyParser, escapeThen, type Key, type ParserOptions} from './keys.js';
import {isWordKey} from './line-edit.js';

export type Layer = 'global' | 'pane' | 'form' | 'field' | 'confirm' | 'help' | 'critical';

const ranks: Readonly<Record<Layer, number>> = {global: 0, pane: 1, form: 2, field: 3, confirm: 4, help: 5, critical: 6};

/** Returns true when it used the key: the layers below do not see it. */
export type KeyHandler = (key: Key) => boolean | void;

export type Subscriber = {layer: Layer; handler: KeyHandler; active: boolean};

/** What is needed of the terminal's input (process.stdin). */
export type KeySource = {
	readonly isTTY?: boolean;
	setRawMode?(mode: boolean): unknown;
	setEncoding(encoding: BufferEncoding): unknown;
	on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
	off(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
	resume(): unknown;
	pause(): unknown;
};

export class Keyboard {
	private readonly subscribers = new Map<Subscriber, number>();
	private order = 0;
	private readonly queue: Key[] = [];
	private holding = false;
	private fallback: NodeJS.Timeout | undefined;
	private dispatching = false;
	private readonly idlers: Array<() => void> = [];
	private readonly parser: KeyParser;
	private readonly settleMs: number;

	constructor(options: ParserOptions & {readonly settleMs?: number} = {}) {
		this.parser = new KeyParser(key => this.receive(key), options);
		this.settleMs = options.settleMs ?? 1000;
	}

	/** Listen from now on; returns the function that stops. */
	subscribe(subscriber: Subscriber): () => void {
		this.subscribers.set(subscriber, ++this.order);
		return () => {
			this.subscribers.delete(subscriber);
		};
	}

	/** Terminal input, as read: any number of keys, or part of one. */
	feed(chunk: string): void {
		this.parser.push(chunk);
	}

	/** One key (tests, and the parser). */
	receive(key: Key): void {
		this.queue.push(key);
		this.drain();
	}

	/** The key being handled gives the keyboard to something not yet rendered: later keys wait for that render. */
	hold(): void {
		this.holding = true;
		clearTimeout(this.fallback);
		this.fallback = setTimeout(() => this.release(), this.settleMs);
		this.fallback.unref?.();
	}

	/** A render was committed (called from layout effects): keys held for it go on, after the commit's other effects. */
	settled(): void {
		if (this.holding) queueMicrotask(() => this.release());
	}

	/** Resolves once every key fed so far was handled (an ESC waiting to be Escape included). */
	async idle(): Promise<void> {
		while (this.parser.waiting) await new Promise(resolve => setTimeout(resolve, 5));
		if (!this.holding && this.queue.length === 0) return;
		await new Promise<void>(resolve => this.idlers.push(resolve));
	}

	/** Read `input` (process.stdin) in raw mode; returns the function that gives it back. */
	attach(input: KeySource): () => void {
		const onData = (chunk: string | Buffer) => this.feed(String(chunk));
		if (input.isTTY) input.setRawMode?.(true);
		input.setEncoding('utf8');
		input.on('data', onData);
		input.resume();
		return () => {
			input.off('data', onData);
			if (input.isTTY) input.setRawMode?.(false);
			input.pause();
			this.parser.dispose();
			clearTimeout(this.fallback);
		};
	}

	private release(): void {
		clearTimeout(this.fallback);
		this.holding = false;
		this.drain();
	}

	private drain(): void {
		if (this.dispatching) return; // a handler's own hold() or a nested receive(): the loop below goes on
		this.dispatching = true;
		try {
			while (!this.holding && this.queue.length > 0) this.dispatch(this.queue.shift()!);
		} finally {
			this.dispatching = false;
		}
		if (!this.holding && this.queue.length === 0) for (const resolve of this.idlers.splice(0)) resolve();
	}

	private dispatch(key: Key): void {
		// An Alt+key read from ESC and a key is most likely Esc and the key typed together, joined by
		// tmux (see escapeThen): the app has no Alt keys but a text field's word keys, so any other
		// goes on as the two keys, in turn — the key after Escape's render where Escape moves the
		// keyboard (closes a form, say). A word key does so only where nothing used it (a form takes
		// every key, so it cannot wait for that).
		const typed = isWordKey(key) ? null : escapeThen(key);
		if (typed) {
			this.queue.unshift(...typed);
			return;
		}
		const listening = [...this.subscribers].filter(([subscriber]) => subscriber.active);
		listening.sort(([a, aOrder], [b, bOrder]) => ranks[b.layer] - ranks[a.layer] || bOrder - aOrder);
		for (const [subscriber] of listening) if (subscriber.handler(key) === true) return;
		const unused = escapeThen(key);
		if (unused) this.queue.unshift(...unused);
	}
}
