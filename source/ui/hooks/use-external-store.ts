/** Read an ExternalStore from a component; it re-renders when (throttled) changes are published. */
import {useSyncExternalStore} from 'react';
import type {ExternalStore} from '../external-store.js';

export function useExternalStore<T>(store: ExternalStore<T>): T {
	return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
