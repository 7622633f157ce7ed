/**
 * What the panes show of the store: keys, channels and when each key was last used. Reloaded when
 * the store's revision changes (the registry announces it with `store:changed`, also for changes
 * made by the CLI in another process) and after every action of the TUI itself. A moment after
 * requests finish (last-used times are flushed by the proxy about once a second) only the last-used
 * times are read again: under load that happens every 1.5 s, and keys and channels — their secrets
 * unsealed — have not changed unless the revision did.
 */
import type {EventBus} from '../base/events.js';
import type {Store} from '../store/index.js';
import type {ChannelRecord, KeyRecord} from '../base/records.js';
import {ExternalStore} from './external-store.js';
import type {RedrawFrames} from './redraw-frames.js';
import {onRequestsFinished} from './request-events.js';
import {errorText} from './text.js';
import {lastUsed, listKeys} from '../store/keys.js';
import {listChannels} from '../store/channels.js';
import {readChannelTests, type StoredTest} from '../store/channel-tests.js';

export type StoreSnapshot = {
	readonly keys: readonly KeyRecord[];
	readonly channels: readonly ChannelRecord[];
	/** Key id → ISO time. */
	readonly lastUsed: ReadonlyMap<string, string>;
	/** Channel id → its last test (store/channel-tests.ts), this TUI's or another process's, read with the channels. */
	readonly tests: ReadonlyMap<string, StoredTest>;
	readonly loaded: boolean;
	readonly error: string | null;
};

export type StoreView = {
	readonly snapshot: ExternalStore<StoreSnapshot>;
	/** Read the store now; resolves when the new snapshot is published. */
	reload(): Promise<void>;
};

export const emptyStoreSnapshot: StoreSnapshot = {keys: [], channels: [], lastUsed: new Map(), tests: new Map(), loaded: false, error: null};

export type StoreViewOptions = {
	/**
	 * Poll the revision this often when no proxy runs to announce changes (e.g. its port was taken);
	 * a promise while that is not known yet (the TUI's core still starting): polling starts once it is.
	 */
	readonly pollMs?: number | Promise<number | undefined>;
	/** Delay between a finished request and the reload that shows its key's last-used time. */
	readonly activityDelayMs?: number;
	/** Under load, last-used times redraw with the other views (redraw-frames.ts); keys and channels read again show at once. */
	readonly frames?: RedrawFrames;
	/**
	 * Keys, channels and last-used times already read (the TUI reads them before it takes the screen,
	 * to fail on an unreadable store there): the first frame shows them instead of an empty store's
	 * "No keys yet". The view still reads everything once it is watched — the store may have changed.
	 */
	readonly initial?: Pick<StoreSnapshot, 'keys' | 'channels' | 'lastUsed'>;
};

export function createStoreView(store: Store, events: EventBus, options: StoreViewOptions = {}): StoreView {
	let running: Promise<void> | undefined;
	/** What the next pass must read: everything, or only the last-used times (null: nothing asked). */
	let wanted: 'all' | 'used' | null = null;
	const {initial} = options;
	const first: StoreSnapshot = initial ? {keys: initial.keys, channels: initial.channels, lastUsed: initial.lastUsed, tests: new Map(), loaded: true, error: null} : emptyStoreSnapshot;
	const snapshot: ExternalStore<StoreSnapshot> = new ExternalStore<StoreSnapshot>(first, {intervalMs: 0, connect: () => connect(), frames: options.frames});

	const load = async (what: 'all' | 'used'): Promise<void> => {
		try {
			if (what === 'used' && snapshot.current.loaded && snapshot.current.error === null) {
				snapshot.set({...snapshot.current, lastUsed: await lastUsed(store)});
				return;
			}
			const [keys, channels, used, tests] = await Promise.all([listKeys(store), listChannels(store), lastUsed(store), readChannelTests(store)]);
			snapshot.setNow({keys, channels, lastUsed: used, tests, loaded: true, error: null});
		} catch (error) {
			snapshot.setNow({...snapshot.current, loaded: true, error: errorText(error)});
		}
	};

	/** Read the store (coalesced: asked while a pass runs, one more pass follows, reading everything if any caller asked for it). */
	const refresh = (what: 'all' | 'used'): Promise<void> => {
		wanted = wanted === 'all' || what === 'all' ? 'all' : 'used';
		running ??= (async () => {
			while (wanted) {
				const next = wanted;
				wanted = null;
				await load(next);
			}
		})().finally(() => (running = undefined));
		return running;
	};
	const reload = (): Promise<void> => refresh('all');

	function connect(): () => void {
		void reload();
		let activity: NodeJS.Timeout | undefined;
		let revision: string | undefined;
		const offChanged = events.on('store:changed', () => void reload());
		const offFinished = onRequestsFinished(events, () => {
			activity ??= setTimeout(() => {
				activity = undefined;
				void refresh('used');
			}, options.activityDelayMs ?? 1500);
		});
		let poll: NodeJS.Timeout | undefined;
		let connected = true;
		const check = () =>
			store.revision().then(current => {
				if (revision !== undefined && current !== revision) void reload();
				revision = current;
			}, () => {});
		const follow = (pollMs: number | undefined) => {
			if (!pollMs || !connected) return;
			poll = setInterval(() => void check(), pollMs);
		};
		if (typeof options.pollMs === 'object') {
			// The revision as of the first read, so a change made while polling is not known yet is still seen.
			const first = check();
			options.pollMs.then(ms => first.then(() => follow(ms)), () => {});
		} else follow(options.pollMs);
		return () => {
			connected = false;
			offChanged();
			offFinished();
			if (activity) clearTimeout(activity);
			if (poll) clearInterval(poll);
		};
	}

	return {snapshot, reload};
}
