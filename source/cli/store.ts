/** `gateway-tui store …` — which store a command uses, and copying one store into another. */
import type {Command} from 'commander';
import {Store, type Namespace} from '../store/index.js';
import {migrateStore, migratedNamespaces} from '../store/migrate.js';
import {rotateMasterKey} from '../store/rotate-key.js';
import {homeOf, openStoreOf, storeUrlOf} from './context.js';
import {print, printJson} from './output.js';

/** What each namespace holds, in the words of the summary line. */
const nouns: Readonly<Record<Namespace, string>> = {
	keys: 'keys',
	channels: 'channels',
	activity: 'key activity records',
	requests: 'request log chunks',
	usage: 'usage day totals',
	'usage-months': 'usage month totals',
	'usage-months-merged': 'merged usage month totals',
	journals: 'usage journals',
	responses: 'stored Responses answers',
	'response-index': 'stored Responses index entries',
	meta: 'other records',
};

async function opened<T>(urls: readonly [string, string], home: string, run: (from: Store, to: Store) => Promise<T>): Promise<T> {
	const from = await Store.open(urls[0], {home});
	try {
		const to = await Store.open(urls[1], {home});
		try {
			return await run(from, to);
		} finally {
			await to.close();
		}
	} finally {
		await from.close();
	}
}

export function registerStore(program: Command): void {
	const store = program.command('store').description('the store keys, channels and usage live in (sqlite, Redis or PostgreSQL)');

	store
		.command('migrate')
		.description('copy keys, channels and usage from one store to another (refuses to overwrite keys or channels unless --force)')
		.option('--from <url>', 'the store to copy from (default: --store, GATEWAY_TUI_STORE or <home>/gateway.sqlite)')
		.requiredOption('--to <url>', 'the store to copy into, e.g. redis://:password@host:6379/0 or postgres://user:password@host/db')
		.option('--force', 'copy even when the target already holds keys or channels (same ids are replaced)')
		.option('--json', 'print JSON')
		.action(async (options: {from?: string; to: string; force?: boolean; json?: boolean}, command: Command) => {
			const home = homeOf(command);
			const urls = [options.from ?? storeUrlOf(command), options.to] as const;
			await opened(urls, home, async (from, to) => {
				const counts = await migrateStore(from, to, {force: options.force === true});
				if (options.json) return printJson({from: from.file, to: to.file, copied: counts});
				const copied = migratedNamespaces.map(namespace => `${counts[namespace]} ${nouns[namespace]}`).join(', ');
				print(`Copied ${copied} from ${from.file} to ${to.file}.\nUse it with \`--store URL\` or GATEWAY_TUI_STORE on every command and gateway; ${from.file} was left as it was.`);
			});
		});

	store
		.command('rotate-key')
		.description('seal every key secret, channel key and stored Responses conversation in the store under a new master key')
		.option('--json', 'print JSON')
		.action(async (options: {json?: boolean}, command: Command) => {
			const opened = await openStoreOf(command);
			try {
				const rotation = await rotateMasterKey(opened);
				if (options.json) return printJson(rotation);
				const what = `Sealed ${rotation.keys} keys, ${rotation.channels} channels and ${rotation.responses} stored Responses answers in ${opened.file} under a new master key`;
				if (rotation.warning) process.stderr.write(`warning: ${rotation.warning}\n`);
				if (rotation.newKey) {
					print(`${what}.\nNew GATEWAY_TUI_MASTER_KEY=${rotation.newKey}\nSet it for every gateway and command on this store now (they cannot read the keys and channels with the old one), then restart the gateways.`);
				} else if (rotation.source === 'keychain') {
					print(`${what}, saved in ${rotation.where}.\nGateways on this store on other machines need the new key too (read it with \`secret-tool lookup service gateway-tui account master-key\`, or \`security find-generic-password -s gateway-tui -a master-key -w\` on macOS); restart the gateways running here.`);
				} else {
					print(`${what}, saved in ${rotation.where}.\nGateways on this store on other machines need this file too; restart the gateways running here.`);
				}
			} finally {
				await opened.close();
			}
		});
}
