/**
 * `store migrate`: copy every record from one store to another (the laptop's sqlite to the team's
 * Redis, say). Values are copied as stored, namespace by namespace, so nothing a newer reader
 * expects is lost on the way; `meta:revision` is not copied but bumped on the target, so gateways
 * already running on it reload keys and channels.
 *
 * Usage is kept per instance (see usage.ts), so copying buckets into a store that has its own adds
 * to its totals rather than overwriting them.
 */
import {StoreError} from './errors.js';
import {isPublishedHealthKey} from './published-health.js';
import type {Namespace, Store} from './index.js';

/** Journals last: they point at the request chunks and day totals copied before them. */
export const migratedNamespaces: readonly Namespace[] = ['channels', 'keys', 'activity', 'requests', 'usage', 'usage-months', 'usage-months-merged', 'journals', 'responses', 'response-index', 'meta'];

/**
 * Not copied: the revision is rewritten on the target; the channel health is the source store's
 * running gateways' (store/published-health.ts), which the target's own gateways publish for
 * themselves — copied, it would show gateways running on a store none serves.
 */
const skipped: Readonly<Partial<Record<Namespace, (id: string) => boolean>>> = {meta: id => id === 'revision' || isPublishedHealthKey(id)};

export type MigrateCounts = Readonly<Record<Namespace, number>>;

async function entries(store: Store, namespace: Namespace): Promise<Array<[string, unknown]>> {
	const keyv = store.raw(namespace);
	const iterator = keyv.iterator;
	if (!iterator) throw new StoreError(`The store ${store.file} cannot list its ${namespace}, so it cannot be copied.`);
	try {
		const out: Array<[string, unknown]> = [];
		for await (const [id, value] of iterator(undefined)) out.push([String(id), value]);
		return out;
	} catch (error) {
		throw error instanceof StoreError ? error : store.failure(`listing its ${namespace}`, error);
	}
}

/** How many keys and channels `store` holds (what copying over would replace). */
export async function heldRecords(store: Store): Promise<{keys: number; channels: number}> {
	const [keys, channels] = await Promise.all([entries(store, 'keys'), entries(store, 'channels')]);
	return {keys: keys.length, channels: channels.length};
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Copy everything in `from` to `to`. Refuses (a StoreError, nothing written) when `to` already holds
 * keys or channels, unless `force`: then entries with the same id are replaced and the rest kept.
 */
export async function migrateStore(from: Store, to: Store, options: {force?: boolean} = {}): Promise<MigrateCounts> {
	if (from.file === to.file) throw new StoreError(`--from and --to are the same store (${from.file}); give two different stores.`);
	if (!options.force) {
		const held = await heldRecords(to);
		if (held.keys + held.channels > 0) {
			throw new StoreError(
				`The store ${to.file} already holds ${plural(held.keys, 'key')} and ${plural(held.channels, 'channel')}; nothing was copied. ` +
					'Run again with --force to copy over them (records with the same id are replaced, the others kept), or choose an empty store.',
			);
		}
	}
	const counts = Object.fromEntries(migratedNamespaces.map(namespace => [namespace, 0])) as Record<Namespace, number>;
	for (const namespace of migratedNamespaces) {
		const target = to.raw(namespace);
		for (const [id, value] of await entries(from, namespace)) {
			if (skipped[namespace]?.(id)) continue;
			try {
				await target.set(id, value);
			} catch (error) {
				throw to.failure(`copying ${namespace} "${id}" (the copy is incomplete: run the command again once the store is back)`, error);
			}
			counts[namespace]++;
		}
	}
	await to.bumpRevision();
	return counts;
}
