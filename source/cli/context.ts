/**
 * What every command needs: the resolved home, the store URL, and the store, opened once and closed
 * after. The store is `--store URL`, else `GATEWAY_TUI_STORE`, else `<home>/gateway.sqlite`.
 */
import {basename, dirname} from 'node:path';
import type {Command} from 'commander';
import {UserError} from '../base/errors.js';
import {isFileAt, resolveHome} from '../base/paths.js';
import {defaultStoreUrl, Store} from '../store/index.js';
import {print, printJson} from './output.js';

type GlobalFlags = {home?: string; store?: string};

export function homeOf(command: Command): string {
	const flag = command.optsWithGlobals<GlobalFlags>().home;
	const home = resolveHome(flag);
	if (isFileAt(home)) {
		const named = flag ? '--home' : process.env.GATEWAY_TUI_HOME ? 'GATEWAY_TUI_HOME' : 'the data directory';
		const fix = basename(home) === 'gateway.sqlite' ? `give --home the directory that holds it (--home ${dirname(home)}), or use the file as the store (--store ${home})` : 'give --home a directory for the data (the one that holds gateway.sqlite), or name a store file with --store';
		throw new UserError(`${named} ${home} is a file, not a directory: ${fix}.`);
	}
	return home;
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

/** `channels remove` / `keys delete`: by name or id, and by id also a record this version cannot read (see InvalidRecordError). */
export function removalCommand<T extends {readonly name: string}>(
	parent: Command,
	spec: {
		readonly command: 'remove' | 'delete';
		readonly what: 'channel' | 'key';
		readonly description: string;
		readonly remove: (store: Store, ref: string) => Promise<T>;
		readonly removeUnreadable: (store: Store, ref: string, error: unknown) => Promise<boolean>;
		readonly json: (store: Store, record: T) => Promise<unknown>;
		/** What the removal did besides, in a sentence to print after it (a channel: the keys limited to it), or null. */
		readonly after?: (store: Store, record: T) => Promise<string | null>;
	},
): void {
	const done = spec.command === 'remove' ? 'Removed' : 'Deleted';
	parent
		.command(`${spec.command} <${spec.what}>`)
		.alias('rm')
		.description(`${spec.description} (also one this version cannot read, by its id)`)
		.option('--json', 'print JSON')
		.action(async (ref: string, options: {json?: boolean}, command: Command) => {
			await withStore(command, async store => {
				const record = await spec.remove(store, ref).catch(async (error: unknown) => {
					if (await spec.removeUnreadable(store, ref, error)) return null;
					throw error;
				});
				if (record === null) {
					if (options.json) printJson({id: ref, [spec.command === 'remove' ? 'removed' : 'deleted']: true, readable: false});
					else print(`${done} the unreadable ${spec.what} "${ref}".`);
					return;
				}
				if (options.json) printJson(await spec.json(store, record));
				else {
					const after = await spec.after?.(store, record);
					print(`${done} ${spec.what} "${record.name}".${after ? `\n${after}` : ''}`);
				}
			});
		});
}
