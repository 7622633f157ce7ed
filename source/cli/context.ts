/** What every command needs: the resolved home and the store, opened once and closed after. */
import type {Command} from 'commander';
import {resolveHome} from '../base/paths.js';
import {Store} from '../store/index.js';

export function homeOf(command: Command): string {
	const options = command.optsWithGlobals<{home?: string}>();
	return resolveHome(options.home);
}

export async function withStore<T>(command: Command, run: (store: Store) => Promise<T>): Promise<T> {
	const store = await Store.open(homeOf(command));
	try {
		return await run(store);
	} finally {
		await store.close();
	}
}
