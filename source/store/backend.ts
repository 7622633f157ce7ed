/**
 * What the Store needs from a database: a keyv adapter per namespace, and one way to let go of
 * the connections. sqlite, Redis and PostgreSQL each implement it in their own file.
 */
import type {KeyvStoreAdapter} from 'keyv';
import type {SharedCounters} from './counters.js';
import type {StoreLocation} from './store-url.js';

export type Backend = {
	readonly location: StoreLocation;
	/** What the user should know about how it was opened (a data directory that could not be made private). */
	readonly warnings?: readonly string[];
	/** A fresh keyv adapter for one namespace (keyv sets the adapter's namespace itself). */
	adapter(): KeyvStoreAdapter;
	/** Atomic key-limit counters (counters.ts), on a database shared by several gateways; absent for sqlite. */
	counters?(timeoutMs: number): SharedCounters;
	/** Closes every connection the adapters share; the store is unusable afterwards. */
	close(): Promise<void>;
};

/** The message of an unknown failure, for a StoreError's text. */
export function reasonOf(error: unknown): string {
	if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
	if (error instanceof Error) return error.message || error.name;
	return String(error);
}
