/** `gateway-tui channels …` */
import type {Command} from 'commander';
import {addChannel, afterChannelRemoved, channelView, editChannel, findChannel, removeChannel, removeUnreadableChannel, probeOutcome, setChannelEnabled, swapCommand, testChannel, testListedChannel, type ChannelView} from '../services/channels.js';
import {formatModels} from '../services/parse.js';
import {formatPrices} from '../base/prices.js';
import {channelHealthAcross, readPublishedHealth, type ChannelHealthAcross} from '../store/published-health.js';
import type {ChannelRecord} from '../base/records.js';
import type {Store} from '../store/index.js';
import {removalCommand, withStore} from './context.js';
import {print, printJson, table} from './output.js';
import {listChannels} from '../store/channels.js';
import {readChannelTest, readChannelTests, type StoredTest} from '../store/channel-tests.js';
import {listKeys} from '../store/keys.js';
import {Scrubber} from '../base/secrets.js';
import {defaultStreamTimeouts} from '../proxy/attempt.js';

type JsonFlag = {json?: boolean};
type ChannelFlags = {name?: string; format?: string; baseUrl?: string; apiKey?: string; models?: string; addModels?: string; removeModels?: string; priority?: string; price?: string[]; responsesApi?: string; firstByteTimeout?: string; streamIdleTimeout?: string};

const collect = (value: string, previous: string[]) => [...previous, value];
const priceHelp = 'USD per 1M tokens for one model: MODEL=IN/OUT or MODEL=IN/OUT/CACHED (repeatable; MODEL= clears)';
const firstByteHelp = 'streams: wait this long for the first byte before failing over to the next channel (e.g. 90s; default 60s; "default" resets)';
const idleHelp = 'streams: the longest silence between two chunks before the stream is ended with an error (e.g. 5m; default 120s; "default" resets)';
const responsesApiHelp = 'openai channels: on passes Responses API requests (Codex) through to BASE_URL/responses, off translates them to chat completions (default: on for api.openai.com)';

function describe(view: ChannelView): string {
	const lines = [
		['name', view.name],
		['id', view.id],
		['format', view.format],
		['base URL', view.baseUrl],
		['API key', view.apiKey],
		['models', formatModels(view.models)],
		['enabled', view.enabled ? 'yes' : 'no'],
		['priority', String(view.priority)],
		...(view.responsesApi === undefined ? [] : [['Responses', view.responsesApi ? 'on (passed through to /responses)' : 'off (translated to chat completions)']]),
		['prices', formatPrices(view.prices)],
		['streams', `first byte within ${seconds(view.firstByteTimeoutMs, firstByteMs)}, silence up to ${seconds(view.streamIdleTimeoutMs, idleMs)}`],
		['created', view.createdAt],
		['updated', view.updatedAt],
	];
	return lines.map(([label, value]) => `${label!.padEnd(10)}${value}`).join('\n');
}

const seconds = (ms: number | undefined, fallback: number) => (ms === undefined ? `${fallback / 1000} s (default)` : `${ms / 1000} s`);
const {firstByteMs, idleMs} = defaultStreamTimeouts;

/**
 * The channel's health across the running gateways (store/published-health.ts; null when none runs):
 * the column of `channels list` (`withLacks`: what the channel lacks at its end, which `channels show` says on a line of its own).
 */
function healthText(health: ChannelHealthAcross | null, withLacks = true): string {
	if (!health) return '- (gateway not running)';
	const lacks = withLacks && health.lacking.length > 0 ? `; lacks ${health.lacking.map(({model}) => model).join(', ')}` : '';
	if (health.state === 'healthy') return `${health.gateways > 1 ? `healthy (${health.gateways} gateways)` : 'healthy'}${lacks}`;
	const where = health.gateways > 1 ? ` (on ${health.affected} of ${health.gateways} gateways)` : '';
	return `${health.state}${where} since ${health.since}${health.reason ? `: ${health.reason}` : ''}${health.retryAt ? `; retry at ${health.retryAt}` : ''}${lacks}`;
}

/** The channel's last test in `--json`: when, by whom (`test`, `probe`), whether the channel is still as it was then, and what it found; null: none kept. */
function lastTestView(channel: ChannelRecord, tested: StoredTest | undefined) {
	return tested ? {at: tested.at, by: tested.by, current: tested.channelUpdatedAt === channel.updatedAt, ...tested.result} : null;
}

/** `channels show`'s line for the channel's last test: when, what it found, and whether the channel changed since. */
function lastTestText(channel: ChannelRecord, tested: StoredTest | undefined): string {
	if (!tested) return `none yet (\`gateway-tui channels test ${channel.name}\` runs one)`;
	const since = tested.channelUpdatedAt === channel.updatedAt ? '' : ' (before the channel was last changed: test it again)';
	const by = tested.by === 'probe' ? " (the gateway's --probe-every check)" : '';
	return `${tested.at}${by}${since}: ${probeOutcome(channel.name, tested.result, `with \`gateway-tui channels edit ${channel.name}\``, Date.now(), swapCommand(channel))}`;
}

/** `channels show`'s line for what the channel lately lacked: which models, until when, and what it means. */
function lackingText(health: ChannelHealthAcross, name: string): string {
	const them = health.lacking.length === 1 ? 'it' : 'them';
	const models = health.lacking.map(({model, until}) => `${model} until ${until}`).join(', ');
	return `${models}: its provider answered 404 (retired or renamed?), so requests for ${them} try the other channels serving ${them} first till then. \`gateway-tui channels test ${name}\` names the models it lists.`;
}

export function registerChannels(program: Command): void {
	const channels = program.command('channels').description('manage channels: provider connections with their real keys');

	channels
		.command('add')
		.description('add a channel')
		.requiredOption('--name <name>', 'a unique name')
		.requiredOption('--format <format>', 'openai, anthropic or gemini')
		.requiredOption('--base-url <url>', 'e.g. https://api.openai.com/v1, https://api.anthropic.com, https://generativelanguage.googleapis.com')
		.option('--api-key <key>', "the provider's real key (omit for local providers such as Ollama)")
		.requiredOption('--models <list>', 'models, comma-separated; alias=upstream to rename')
		.option('--priority <n>', 'higher is tried first', '0')
		.option('--price <model=in/out[/cached]>', priceHelp, collect, [])
		.option('--responses-api <on|off>', responsesApiHelp)
		.option('--first-byte-timeout <duration>', firstByteHelp)
		.option('--stream-idle-timeout <duration>', idleHelp)
		.option('--json', 'print JSON')
		.action(async (options: JsonFlag & ChannelFlags, command: Command) => {
			await withStore(command, async store => {
				const channel = await addChannel(store, {name: options.name!, format: options.format!, baseUrl: options.baseUrl!, apiKey: options.apiKey, models: options.models!, priority: options.priority, prices: options.price, responsesApi: options.responsesApi, firstByteTimeout: options.firstByteTimeout, streamIdleTimeout: options.streamIdleTimeout});
				if (options.json) printJson(channelView(channel));
				else print(`Added channel "${channel.name}" (${channel.format}, ${channel.baseUrl}) serving ${formatModels(channel.models)}. Check it with \`gateway-tui channels test ${channel.name}\`.`);
			});
		});

	channels
		.command('list')
		.alias('ls')
		.description('list channels')
		.option('--json', 'print JSON')
		.action(async (options: JsonFlag, command: Command) => {
			await withStore(command, async store => {
				const health = await readPublishedHealth(store);
				const channels = await listChannels(store);
				if (options.json) {
					const tests = await readChannelTests(store);
					return printJson(channels.map(channel => ({...channelView(channel), health: channelHealthAcross(health, channel.id), lastTest: lastTestView(channel, tests.get(channel.id))})));
				}
				const views = channels.map(channel => ({...channelView(channel), health: channelHealthAcross(health, channel.id)}));
				if (views.length === 0) return print('No channels yet. Add one with `gateway-tui channels add --name NAME --format openai --base-url URL --api-key KEY --models m1,m2`.');
				print(
					table(
						views.map(item => ({name: item.name, format: item.format, 'base url': item.baseUrl, key: item.apiKey, models: formatModels(item.models), enabled: item.enabled ? 'yes' : 'no', priority: String(item.priority), health: healthText(item.health)})),
						['name', 'format', 'base url', 'key', 'models', 'enabled', 'priority', 'health'],
					),
				);
			});
		});

	channels
		.command('show <channel>')
		.description('show a channel (its key masked)')
		.option('--json', 'print JSON')
		.action(async (ref: string, options: JsonFlag, command: Command) => {
			await withStore(command, async store => {
				const channel = await findChannel(store, ref);
				const tested = await readChannelTest(store, channel.id);
				const view = {...channelView(channel), health: channelHealthAcross(await readPublishedHealth(store), channel.id), lastTest: lastTestView(channel, tested)};
				if (options.json) return printJson(view);
				const lacks = view.health && view.health.lacking.length > 0 ? `\n${'lacks'.padEnd(10)}${lackingText(view.health, channel.name)}` : '';
				print(`${describe(view)}\n${'health'.padEnd(10)}${healthText(view.health, false)}${lacks}\n${'last test'.padEnd(10)}${lastTestText(channel, tested)}`);
			});
		});

	channels
		.command('edit <channel>')
		.description('change a channel; only the options given change')
		.option('--name <name>', 'a new name')
		.option('--format <format>', 'openai, anthropic or gemini')
		.option('--base-url <url>', 'the base URL')
		.option('--api-key <key>', 'the real key ("" to remove it)')
		.option('--models <list>', 'the full model list, replacing the old one')
		.option('--add-models <list>', 'models to add, comma-separated (alias=upstream to rename)')
		.option('--remove-models <list>', 'models to take out, by client-facing or upstream name (before --add-models: both swap a retired model)')
		.option('--priority <n>', 'higher is tried first')
		.option('--price <model=in/out[/cached]>', priceHelp, collect, [])
		.option('--responses-api <on|off>', responsesApiHelp)
		.option('--first-byte-timeout <duration>', firstByteHelp)
		.option('--stream-idle-timeout <duration>', idleHelp)
		.option('--json', 'print JSON')
		.action(async (ref: string, options: JsonFlag & ChannelFlags, command: Command) => {
			await withStore(command, async store => {
				const {json, price, ...changes} = options;
				const channel = await editChannel(store, ref, {...changes, ...(price?.length ? {prices: price} : {})});
				if (json) printJson(channelView(channel));
				else print(`Updated channel "${channel.name}".\n\n${describe(channelView(channel))}`);
			});
		});

	const toggle = (name: string, description: string, run: (store: Store, ref: string) => Promise<ChannelRecord>, done: (channel: ChannelRecord) => string) =>
		channels
			.command(`${name} <channel>`)
			.description(description)
			.option('--json', 'print JSON')
			.action(async (ref: string, options: JsonFlag, command: Command) => {
				await withStore(command, async store => {
					const channel = await run(store, ref);
					if (options.json) printJson(channelView(channel));
					else print(done(channel));
				});
			});

	toggle('enable', 'route requests to this channel again', (store, ref) => setChannelEnabled(store, ref, true), channel => `Enabled channel "${channel.name}".`);
	toggle('disable', 'stop routing requests to this channel', (store, ref) => setChannelEnabled(store, ref, false), channel => `Disabled channel "${channel.name}".`);
	removalCommand(channels, {command: 'remove', what: 'channel', description: 'remove a channel for good', remove: removeChannel, removeUnreadable: removeUnreadableChannel, json: async (_store, channel) => channelView(channel), after: afterChannelRemoved});

	channels
		.command('test [channel]')
		.description("one cheap call (the provider's model list): latency or the provider's error, and which of the channel's models the list does not name or marks deprecated; without a channel, every enabled one")
		.option('--json', 'print JSON')
		.action(async (ref: string | undefined, options: JsonFlag, command: Command) => {
			await withStore(command, async store => {
				const all = await listChannels(store);
				// The provider's error may quote any key (its own, another channel's, a virtual key): all are masked.
				const scrubber = new Scrubber([...all.map(item => item.apiKey), ...(await listKeys(store)).map(key => key.secret)]);
				const {probeChannel} = await import('../proxy/probe.js');
				const probe = (channel: ChannelRecord) => probeChannel(channel, undefined, scrubber);
				// Each kept as the channel's last test (`channels show`, the TUI's details).
				const tested = ref === undefined ? await Promise.all(all.filter(channel => channel.enabled).map(channel => testListedChannel(store, channel, probe))) : [await testChannel(store, ref, probe)];
				if (ref === undefined && tested.length === 0) {
					if (options.json) return printJson([]);
					return print(all.length === 0 ? 'No channels yet. Add one with `gateway-tui channels add --name NAME --format FORMAT --base-url URL --models LIST`.' : 'No enabled channel to test: enable one with `gateway-tui channels enable NAME`.');
				}
				const views = tested.map(({channel, result}) => ({channel: channel.name, ...result}));
				if (options.json) printJson(ref === undefined ? views : views[0]);
				else print(tested.map(({channel, result}) => probeOutcome(channel.name, result, `with \`gateway-tui channels edit ${channel.name}\``, Date.now(), swapCommand(channel))).join('\n'));
				if (tested.some(({result}) => !result.ok)) process.exitCode = 1;
			});
		});
}
