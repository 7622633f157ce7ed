/**
 * A value that changes outside React, read with `useSyncExternalStore`. Changes are published to
 * React at most once per interval (the last one always arrives), so a burst of requests costs one
 * render, not hundreds; with `frames`, a change also waits for the frame every busy view shares
 * (redraw-frames.ts). `connect` runs when the first component subscribes and its cleanup when the
 * last one leaves: the store owns its subscription to the event bus.
 */
import type {RedrawFrames} from './redraw-frames.js';

export type ExternalStoreOptions<T> = {
	/** The least time between two publishes, in ms (default 100); under load `frames` slows every view down together. */
	readonly intervalMs?: number;
	/** Runs when the first component subscribes; returns what runs when the last one leaves. */
	readonly connect?: () => () => void;
	/**
	 * Whether a new value says the same as the newest one: an equal value is dropped, since every
	 * publish redraws the screen (a poll mostly reads what is shown already).
	 */
	readonly equals?: (a: T, b: T) => boolean;
	/** Under load, publish with the other views at the next frame (one redraw for all). */
	readonly frames?: RedrawFrames;
};

export class ExternalStore<T> {
	private published: T;
	private latest: T;
	private readonly listeners = new Set<() => void>();
	private timer: NodeJS.Timeout | undefined;
	private lastPublish = 0;
	private disconnect: (() => void) | undefined;

	constructor(
		initial: T,
		private readonly options: ExternalStoreOptions<T> = {},
	) {
		this.published = initial;
		this.latest = initial;
	}

	readonly getSnapshot = (): T => this.published;

	readonly subscribe = (listener: () => void): (() => void) => {
		this.listeners.add(listener);
		if (this.listeners.size === 1 && this.options.connect) this.disconnect = this.options.connect();
		return () => {
			this.listeners.delete(listener);
			if (this.listeners.size > 0) return;
			this.disconnect?.();
			this.disconnect = undefined;
			if (this.timer) clearTimeout(this.timer);
			this.timer = undefined;
		};
	};

	/** The newest value, published or not. */
	get current(): T {
		return this.latest;
	}

	set(value: T): void {
		if (this.options.equals?.(value, this.latest)) return;
		this.latest = value;
		if (this.timer) return;
		const wait = this.lastPublish + (this.options.intervalMs ?? 100) - Date.now();
		if (wait <= 0) this.publish();
		else this.timer = setTimeout(() => this.publish(), wait);
	}

	/** Publish `value` at once, past the interval and any frame: what the user just did (a key created) shows in this redraw. */
	setNow(value: T): void {
		if (this.options.equals?.(value, this.latest)) return;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		this.latest = value;
		this.lastPublish = Date.now();
		this.deliver();
	}

	private publish(): void {
		this.timer = undefined;
		this.lastPublish = Date.now();
		if (this.published === this.latest) return;
		if (this.options.frames) this.options.frames.publish(this.deliver);
		else this.deliver();
	}

	/** Hand the newest value to React (a frame may run this after `setNow` did: then there is nothing new). */
	private readonly deliver = (): void => {
		if (this.published === this.latest) return;
		this.published = this.latest;
		for (const listener of [...this.listeners]) listener();
	};
}
