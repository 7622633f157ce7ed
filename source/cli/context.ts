/**
 * What every command needs: the resolved home, the store URL, and the store, opened once and closed
 * after. The store is `--store URL`, else `GATEWAY_TUI_STORE`, else `<home>/gateway.sqlite`.
 */
import type {Command} from 'commander';
import {resolveHome} from '../base/paths.js';
import {defaultStoreUrl, Store} from '../store/index.js';

type GlobalFlags = {home?: string; store?: string};

export function homeOf(command: Command): string {
	return resolveHome(command.optsWithGlobals<GlobalFlags>().home);
}

/** The store URL this command uses (credentials included: show it only through maskStoreUrl). */
export function storeUrlOf(command: Command, env: NodeJS.ProcessEnv = process.env): string {
	const flag = command.optsWithGlobals<GlobalFlags>().store;
	if (flag) return flag;
	if (env.GATEWAY_TUI_STORE) return env.GATEWAY_TUI_STORE;
	return defaultStoreUrl(homeOf(command));
}

export function openStoreOf(command: Command): Promise<Store> {
	return Store.open(storeUrlOf(command), {home: homeOf(command)});
}

export async function withStore<T>(command: Command, run: (store: Store) => Promise<T>): Promise<T> {
	const store = await openStoreOf(command);
	try {
		return await run(store);
	} finally {
		await store.close();
	}
}
