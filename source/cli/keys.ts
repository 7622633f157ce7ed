/** `gateway-tui keys …` */
import type {Command} from 'commander';
import {createKey, deleteKey, deleteUnreadableKey, editKey, findKey, keyView, revokeKey, rotateKey, unpricedModels, type EditKeyInput, type KeyView} from '../services/keys.js';
import {limitsLine, type LimitFlags} from '../services/limit-flags.js';
import {persistedUse} from '../store/limit-use.js';
import type {KeyRecord} from '../base/records.js';
import {keyTotals, type UsageRow} from '../store/usage-summary.js';
import {formatCost} from './usage.js';
import type {Store} from '../store/index.js';
import {removalCommand, withStore} from './context.js';
import {print, printJson, table} from './output.js';
import {lastUsed, listKeys} from '../store/keys.js';
import {listChannels} from '../store/channels.js';
import {relative} from '../base/relative-time.js';

type JsonFlag = {json?: boolean};

/** A key's totals over the retained usage (see `gateway-tui usage --by key`). */
function totalsOf(row: UsageRow | undefined) {
	return {
		requests: row?.requests ?? 0,
		failed: row?.failed ?? 0,
		inputTokens: row?.inputTokens ?? 0,
		outputTokens: row?.outputTokens ?? 0,
		cachedTokens: row?.cachedTokens ?? 0,
		costUsd: row?.costUsd ?? 0,
		unpriced: row?.unpriced ?? false,
	};
}

function stateText(view: KeyView): string {
	if (view.state === 'active' && view.expiresAt) return `expires ${relative(view.expiresAt)}`;
	return view.state;
}

async function view(store: Store, key: KeyRecord): Promise<KeyView> {
	const used = await lastUsed(store);
	return keyView(store, key, used.get(key.id) ?? null);
}

function describe(view: KeyView, secret?: string): string {
	const lines = [
		['name', view.name],
		['id', view.id],
		...(secret ? [['key', secret]] : [['key', view.prefix]]),
		['description', view.description || '-'],
		['models', view.models.join(', ') || 'all'],
		['channels', view.channels.join(', ') || 'all'],
		['state', stateText(view)],
		['expires', view.expiresAt ?? 'never'],
		['created', view.createdAt],
		['last used', view.lastUsedAt ?? 'never'],
	];
	return lines.map(([label, value]) => `${label!.padEnd(12)}${value}`).join('\n');
}

/** The limit flags of `keys create` and `keys edit`. */
function withLimitOptions(command: Command): Command {
	return command
		.option('--rpm <n>', 'requests per minute ("none" removes the limit)')
		.option('--rpd <n>', 'requests per day')
		.option('--tpm <n>', 'tokens (input + output) per minute')
		.option('--tpd <n>', 'tokens per day')
		.option('--budget <usd/period>', 'a USD budget per day, week, month or in total, e.g. 20/month')
		.option('--budget-warn <percent>', 'warn when this share of the budget is spent (default 80%)');
}

/** On stderr: a budget that models without a price would never fill (their requests cost $0), and how to price them. */
async function warnUnpricedBudget(store: Store, key: KeyRecord): Promise<void> {
	if (!key.limits?.budget) return;
	const unpriced = unpricedModels(key, await listChannels(store));
	const [first] = unpriced;
	if (!first) return;
	const list = unpriced.map(({channel, models}) => `"${channel.name}" (${models.join(', ')})`).join(', ');
	const count = unpriced.reduce((sum, item) => sum + item.models.length, 0);
	const how = `with \`gateway-tui channels edit ${first.channel.name} --price ${first.models[0]}=IN/OUT\` (USD per 1M tokens; 0/0 for a free one)`;
	process.stderr.write(`warning: The budget of "${key.name}" counts only priced requests: ${count === 1 ? 'this model has' : 'these models have'} no price on ${unpriced.length === 1 ? 'its channel' : 'their channels'} — ${list} — so ${count === 1 ? 'its requests count' : 'their requests count'} as $0. Set prices ${how}.\n`);
}

export function registerKeys(program: Command): void {
	const keys = program.command('keys').description('create and manage virtual keys (the only keys clients ever see)');

	const create = keys
		.command('create')
		.description('create a virtual key and print its secret')
		.requiredOption('--name <name>', 'a unique name')
		.option('--description <text>', 'what the key is for')
		.option('--models <list>', 'allowed models, comma-separated (default: all)')
		.option('--channels <list>', 'allowed channels by name or id, comma-separated (default: all)')
		.option('--expires-in <duration>', 'expire after 30d, 12h, 45m or 10s')
		.option('--expires-at <date>', 'expire at an ISO-8601 date');
	withLimitOptions(create)
		.option('--json', 'print JSON')
		.action(async (options: JsonFlag & LimitFlags & {name: string; description?: string; models?: string; channels?: string; expiresIn?: string; expiresAt?: string}, command: Command) => {
			await withStore(command, async store => {
				const key = await createKey(store, options);
				const shown = await view(store, key);
				if (options.json) printJson({...shown, key: key.secret});
				else print(`Created key "${key.name}". Its secret (also shown by \`gateway-tui keys show ${key.name}\`):\n\n  ${key.secret}\n\nSet it up for a tool with \`gateway-tui env ${key.name}\`.`);
				await warnUnpricedBudget(store, key);
			});
		});

	keys
		.command('list')
		.alias('ls')
		.description('list keys')
		.option('--json', 'print JSON')
		.action(async (options: JsonFlag, command: Command) => {
			await withStore(command, async store => {
				const used = await lastUsed(store);
				const totals = await keyTotals(store);
				const all = await listKeys(store);
				const limitUse = await persistedUse(store, all);
				const views = await Promise.all(all.map(async key => ({...(await keyView(store, key, used.get(key.id) ?? null)), usage: totalsOf(totals.get(key.id)), limitUse: limitUse.get(key.id) ?? null})));
				if (options.json) return printJson(views);
				if (views.length === 0) return print('No keys yet. Create one with `gateway-tui keys create --name NAME`.');
				print(
					table(
						views.map(item => ({
							name: item.name,
							key: item.prefix,
							models: item.models.join(',') || 'all',
							channels: item.channels.join(',') || 'all',
							state: stateText(item),
							'last used': relative(item.lastUsedAt),
							requests: String(item.usage.requests),
							'tokens in/out': `${item.usage.inputTokens}/${item.usage.outputTokens}`,
							cost: item.usage.requests === 0 ? '-' : formatCost(item.usage),
							limits: item.limits ? limitsLine(item.limits, item.limitUse ?? undefined) : '-',
						})),
						['name', 'key', 'models', 'channels', 'state', 'last used', 'requests', 'tokens in/out', 'cost', 'limits'],
					),
				);
			});
		});

	keys
		.command('show <key>')
		.description('show a key, with its secret')
		.option('--json', 'print JSON')
		.action(async (ref: string, options: JsonFlag, command: Command) => {
			await withStore(command, async store => {
				const key = await findKey(store, ref);
				const shown = await view(store, key);
				const use = (await persistedUse(store, [key])).get(key.id);
				if (options.json) printJson({...shown, key: key.secret, limitUse: use ?? null});
				else print(`${describe(shown, key.secret)}\n${'limits'.padEnd(12)}${limitsLine(key.limits, use)}`);
			});
		});

	const change = (name: string, description: string, run: (store: Store, ref: string) => Promise<KeyRecord>, done: (key: KeyRecord) => string, showSecret = false) =>
		keys
			.command(`${name} <key>`)
			.description(description)
			.option('--json', 'print JSON')
			.action(async (ref: string, options: JsonFlag, command: Command) => {
				await withStore(command, async store => {
					const key = await run(store, ref);
					if (options.json) printJson({...(await view(store, key).catch(() => ({id: key.id, name: key.name}))), ...(showSecret ? {key: key.secret} : {})});
					else print(done(key));
				});
			});

	const edit = keys
		.command('edit <key>')
		.description('change a key; only the options given change (the secret stays: see rotate)')
		.option('--name <name>', 'a new name')
		.option('--description <text>', 'what the key is for')
		.option('--models <list>', 'allowed models, comma-separated ("" for all)')
		.option('--channels <list>', 'allowed channels, comma-separated ("" for all)')
		.option('--expires-in <duration>', 'expire after 30d, 12h, 45m or 10s from now')
		.option('--expires-at <date>', 'expire at an ISO-8601 date')
		.option('--never-expires', 'remove the expiry');
	withLimitOptions(edit)
		.option('--json', 'print JSON')
		.action(async (ref: string, options: JsonFlag & EditKeyInput, command: Command) => {
			await withStore(command, async store => {
				const {json, ...changes} = options;
				const key = await editKey(store, ref, changes);
				const shown = await view(store, key);
				// What the key has used of its limits as they now are (a budget added mid-month counts the month's spend).
				const use = key.limits ? (await persistedUse(store, [key])).get(key.id) : undefined;
				if (json) printJson({...shown, limitUse: use ?? null});
				else print(`Updated key "${key.name}".\n\n${describe(shown)}\n${'limits'.padEnd(12)}${limitsLine(key.limits, use)}`);
				await warnUnpricedBudget(store, key);
			});
		});

	change('revoke', 'revoke a key: it stops working at once', revokeKey, key => `Revoked key "${key.name}". Clients using it now get 401.`);
	change('rotate', 'give a key a new secret (same settings); the old secret stops working at once', rotateKey, key => `Rotated key "${key.name}". The new secret:\n\n  ${key.secret}`, true);
	removalCommand(keys, {command: 'delete', what: 'key', description: 'delete a key for good', remove: deleteKey, removeUnreadable: deleteUnreadableKey, json: (store, key) => view(store, key).catch(() => ({id: key.id, name: key.name}))});
}
