/**
 * A value that changes outside React, read with `useSyncExternalStore`. Changes are published to
 * React at most once per `intervalMs` (the last one always arrives), so a burst of requests costs
 * one render, not hundreds. `connect` runs when the first component subscribes and its cleanup
 * when the last one leaves: the store owns its subscription to the event bus.
 */
export class ExternalStore<T> {
	private published: T;
	private latest: T;
	private readonly listeners = new Set<() => void>();
	private timer: NodeJS.Timeout | undefined;
	private lastPublish = 0;
	private disconnect: (() => void) | undefined;

	constructor(
		initial: T,
		private readonly intervalMs = 100,
		private readonly connect?: () => () => void,
	) {
		this.published = initial;
		this.latest = initial;
	}

	readonly getSnapshot = (): T => this.published;

	readonly subscribe = (listener: () => void): (() => void) => {
		this.listeners.add(listener);
		if (this.listeners.size === 1 && this.connect) this.disconnect = this.connect();
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
		this.latest = value;
		if (this.timer) return;
		const wait = this.lastPublish + this.intervalMs - Date.now();
		if (wait <= 0) this.publish();
		else this.timer = setTimeout(() => this.publish(), wait);
	}

	private publish(): void {
		this.timer = undefined;
		this.lastPublish = Date.now();
		if (this.published === this.latest) return;
		this.published = this.latest;
		for (const listener of [...this.listeners]) listener();
	}
}
