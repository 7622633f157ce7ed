/**
 * Channels: one provider connection each (format, base URL, real key, models). Used by the CLI and the TUI.
 */
import {randomBytes} from 'node:crypto';
import {UserError} from '../base/errors.js';
import {InvalidRecordError} from '../store/errors.js';
import {formats, type Format} from '../base/ir.js';
import type {Store} from '../store/index.js';
import type {ChannelModel, ChannelRecord, KeyRecord} from '../base/records.js';
import {maskSecret} from '../base/secrets.js';
import {channels, listChannels} from '../store/channels.js';
import {deleteChannelTest, saveChannelTest} from '../store/channel-tests.js';
import {keyState, listKeys} from '../store/keys.js';
import {listsAlike, type ProbeResult} from '../base/probe-result.js';
import {relative} from '../base/relative-time.js';
import {formatModels, parseBaseUrl, parseDuration, parseInteger, parseList, parseModels} from './parse.js';
import {applyPrices, parsePriceSpecs} from '../base/prices.js';
import {speaksResponsesApi} from '../base/responses-api.js';

export function parseFormat(text: string | undefined): Format {
	const known = formats.find(format => format === text);
	if (known) return known;
	throw new UserError(`Unknown format "${text ?? ''}": use --format ${formats.join(', ')}.`);
}

/** What a channel looks like to a user: the real key only masked; OpenAI channels say whether they speak the Responses API. */
export type ChannelView = Omit<ChannelRecord, 'v' | 'apiKey'> & {apiKey: string};

export function channelView(channel: ChannelRecord): ChannelView {
	const {v: _v, apiKey, ...rest} = channel;
	return {...rest, apiKey: maskSecret(apiKey), ...(channel.format === 'openai' ? {responsesApi: speaksResponsesApi(channel)} : {})};
}

/** `--responses-api on|off` (true/false from the TUI). Only OpenAI channels have the setting. */
function parseResponsesApi(value: string | boolean | undefined, format: Format): boolean | undefined {
	if (value === undefined) return undefined;
	const on = value === true || value === 'on' ? true : value === false || value === 'off' ? false : undefined;
	if (on === undefined) throw new UserError(`Unknown --responses-api value "${String(value)}": use on or off.`);
	if (format !== 'openai') throw new UserError('--responses-api applies to openai channels only: other formats always get Responses requests translated.');
	return on;
}

export type AddChannelInput = {
	name: string;
	format: string;
	baseUrl: string;
	apiKey?: string;
	models: string | readonly string[];
	priority?: string | number;
	/** `MODEL=IN/OUT[/CACHED]` in USD per 1M tokens; `MODEL=` clears a price (see prices.ts). */
	prices?: string | readonly string[];
	/** OpenAI channels: `on` passes Responses API requests through to `{baseUrl}/responses`, `off` translates them. */
	responsesApi?: string | boolean;
	/** Streams: the wait for the first byte before failing over (`60s`, or ms); `default` clears it. */
	firstByteTimeout?: string | number;
	/** Streams: the longest silence between two chunks (`120s`, or ms); `default` clears it. */
	streamIdleTimeout?: string | number;
};

export type EditChannelInput = Partial<Omit<AddChannelInput, 'format'>> & {
	format?: string;
	enabled?: boolean;
	/** Models to add to the list (`NAME` or `ALIAS=UPSTREAM`, comma-separated), after `removeModels` are taken out. */
	addModels?: string | readonly string[];
	/** Models to take out of the list, by client-facing or upstream name. */
	removeModels?: string | readonly string[];
};

/**
 * The channel's models after an edit: the full list given (`models`), else the old one; then those
 * `removeModels` names (client-facing or upstream) taken out and `addModels` added at the end — the
 * day a provider retires a model, one edit swaps it without retyping the rest.
 */
function editedModels(channel: ChannelRecord, input: Pick<EditChannelInput, 'models' | 'addModels' | 'removeModels'>): ChannelModel[] {
	const base = input.models === undefined ? channel.models : parseModels(input.models);
	const remove = parseList(input.removeModels);
	const unknown = remove.filter(name => !base.some(model => model.name === name || model.upstream === name));
	if (unknown.length > 0) throw new UserError(`Channel "${channel.name}" has no model ${unknown.map(name => `"${name}"`).join(', ')} to remove (its models: ${formatModels(base)}).`);
	const kept = base.filter(model => !remove.includes(model.name) && !remove.includes(model.upstream));
	const added = input.addModels === undefined ? [] : parseModels(input.addModels);
	const twice = added.filter(model => kept.some(other => other.name === model.name));
	if (twice.length > 0) {
		const [first] = twice;
		throw new UserError(`Channel "${channel.name}" serves ${twice.map(model => `"${model.name}"`).join(', ')} already: take ${twice.length === 1 ? 'it' : 'them'} out first in the same edit (--remove-models ${first!.name} --add-models ${formatModels([first!])}), or leave ${twice.length === 1 ? 'it' : 'them'} out.`);
	}
	const models = [...kept, ...added];
	if (models.length === 0) throw new UserError(`That would leave channel "${channel.name}" with no model: add one with --add-models, or remove the channel with \`gateway-tui channels remove ${channel.name}\`.`);
	return models;
}

export async function findChannel(store: Store, ref: string): Promise<ChannelRecord> {
	const all = await listChannels(store);
	const found = all.find(channel => channel.id === ref) ?? all.find(channel => channel.name === ref);
	if (!found) throw new UserError(`No channel named "${ref}". Run \`gateway-tui channels list\` to see the channels.`);
	return found;
}

export async function addChannel(store: Store, input: AddChannelInput): Promise<ChannelRecord> {
	const name = input.name?.trim();
	if (!name) throw new UserError('A channel needs a name: pass --name NAME.');
	if ((await listChannels(store)).some(channel => channel.name === name)) {
		throw new UserError(`A channel named "${name}" exists already: choose another name, or change it with \`gateway-tui channels edit ${name}\`.`);
	}
	const now = new Date().toISOString();
	const models = parseModels(input.models);
	const prices = applyPrices(undefined, models, parsePriceSpecs(input.prices));
	const format = parseFormat(input.format);
	const responsesApi = parseResponsesApi(input.responsesApi, format);
	const record: ChannelRecord = {
		v: 1,
		id: `ch_${randomBytes(6).toString('hex')}`,
		name,
		format,
		baseUrl: parseBaseUrl(input.baseUrl ?? ''),
		apiKey: input.apiKey?.trim() || null,
		models,
		enabled: true,
		priority: parsePriority(input.priority),
		...(prices ? {prices} : {}),
		...(responsesApi === undefined ? {} : {responsesApi}),
		...streamTimeouts(undefined, input),
		createdAt: now,
		updatedAt: now,
	};
	await save(store, record);
	return record;
}

export async function editChannel(store: Store, ref: string, input: EditChannelInput): Promise<ChannelRecord> {
	const channel = await findChannel(store, ref);
	const name = input.name?.trim();
	if (name !== undefined && name !== channel.name) {
		if (!name) throw new UserError('A channel name cannot be empty.');
		if ((await listChannels(store)).some(other => other.name === name)) throw new UserError(`A channel named "${name}" exists already: choose another name.`);
	}
	const models = editedModels(channel, input);
	const prices = input.prices === undefined ? channel.prices : applyPrices(channel.prices, models, parsePriceSpecs(input.prices));
	const {prices: _old, responsesApi: _setting, firstByteTimeoutMs: _first, streamIdleTimeoutMs: _idle, ...unpriced} = channel;
	const format = input.format === undefined ? channel.format : parseFormat(input.format);
	// A channel that stops being OpenAI loses the setting; one that stays keeps it unless given anew.
	const responsesApi = input.responsesApi !== undefined ? parseResponsesApi(input.responsesApi, format) : format === 'openai' ? channel.responsesApi : undefined;
	const edited: ChannelRecord = {
		...unpriced,
		...(prices ? {prices} : {}),
		...(responsesApi === undefined ? {} : {responsesApi}),
		...streamTimeouts(channel, input),
		name: name || channel.name,
		format,
		baseUrl: input.baseUrl === undefined ? channel.baseUrl : parseBaseUrl(input.baseUrl),
		apiKey: input.apiKey === undefined ? channel.apiKey : input.apiKey.trim() || null,
		models,
		priority: input.priority === undefined ? channel.priority : parsePriority(input.priority),
		enabled: input.enabled ?? channel.enabled,
		updatedAt: new Date().toISOString(),
	};
	await save(store, edited);
	return edited;
}

export async function setChannelEnabled(store: Store, ref: string, enabled: boolean): Promise<ChannelRecord> {
	return editChannel(store, ref, {enabled});
}

/** A key's channel by name; one removed since the key was limited to it, by its id, marked. */
export const channelLabel =
	(all: readonly ChannelRecord[]) =>
	(id: string): string =>
		all.find(channel => channel.id === id)?.name ?? `${id} (removed)`;

/** A key limited to a channel, and the channels it has besides (none: every request of it is refused). */
export type LimitedKey = {readonly key: KeyRecord; readonly others: readonly string[]};

/** The keys still in use (not revoked) that are limited to `channelId`, each with the names of its other channels that exist. */
export function keysLimitedTo(channelId: string, keys: readonly KeyRecord[], all: readonly ChannelRecord[]): LimitedKey[] {
	return keys
		.filter(key => keyState(key) !== 'revoked' && key.channels.includes(channelId))
		.map(key => ({key, others: key.channels.flatMap(id => (id === channelId ? [] : all.filter(channel => channel.id === id).map(channel => channel.name)))}));
}

/**
 * What removing a channel does to the keys limited to it, in a sentence, or null when no key is:
 * a key left with no channel has every request refused (its list is not emptied: empty is "all").
 */
export function limitedKeysText(limited: readonly LimitedKey[], fix: string): string | null {
	if (limited.length === 0) return null;
	const each = limited.map(({key, others}) => `"${key.name}" (${others.length === 0 ? 'no channel left: its requests are refused' : `still ${others.map(name => `"${name}"`).join(', ')}`})`);
	return `Keys limited to it: ${each.join(', ')}. ${fix}`;
}

/** After `channels remove`: the keys limited to the removed channel (read after it is gone), in a sentence, or null. */
export async function afterChannelRemoved(store: Store, channel: ChannelRecord): Promise<string | null> {
	const [keys, all] = await Promise.all([listKeys(store), listChannels(store)]);
	return limitedKeysText(keysLimitedTo(channel.id, keys, all), 'Change them with `gateway-tui keys edit NAME --channels …` (--channels "" allows all).');
}

export async function removeChannel(store: Store, ref: string): Promise<ChannelRecord> {
	const channel = await findChannel(store, ref);
	await channels(store).delete(channel.id);
	await deleteChannelTest(store, channel.id);
	await store.bumpRevision();
	return channel;
}

/**
 * Remove a channel record this version cannot read (a newer gateway-tui's, or one edited by hand) by
 * its id — what the error about it says to run. True when `error` was about that record and it is gone.
 */
export async function removeUnreadableChannel(store: Store, ref: string, error: unknown): Promise<boolean> {
	if (!(error instanceof InvalidRecordError) || error.what !== 'channel' || error.id !== ref) return false;
	await channels(store).delete(ref);
	await store.bumpRevision();
	return true;
}

/**
 * A channel test's outcome in one sentence. The proxy's words for a failure name the channel and
 * point at `gateway-tui channels test` — the test that just ran: here the name is said once and the
 * advice is where the channel is changed (`edit`: "with `gateway-tui channels edit NAME`" on the
 * command line, the key that edits it in the TUI).
 */
export function probeOutcome(name: string, result: ProbeResult, edit: string, now = Date.now(), swap?: Swap): string {
	const subject = `Channel "${name}" `;
	if (result.ok) return `${subject}answered in ${result.latencyMs} ms (${result.models} model${result.models === 1 ? '' : 's'} listed).${modelWarnings(result, edit, now, swap)}`;
	const error = (result.error.startsWith(subject) ? result.error.slice(subject.length) : result.error).replace(/ ?Check its base URL with `gateway-tui channels test [^`]*`\./, ` Check its base URL and key ${edit}.`);
	return `${subject}failed after ${result.latencyMs} ms: ${error}`;
}

/** Whether a test that answered found models to change: not listed by the provider, or deprecated. */
export function probeWarns(result: ProbeResult): boolean {
	return result.ok && (result.unlisted.length > 0 || result.retiring.length > 0);
}

/** What the provider's model list says of the channel's models: those it does not name, those it retires. */
function modelWarnings(result: Extract<ProbeResult, {ok: true}>, edit: string, now: number, swap: Swap | undefined): string {
	// Where the list has a model to move to, the edit that moves to the newest (the command line's words for it).
	const editFor = (model: string) => {
		const to = result.alternatives[model]?.[0];
		return to && swap ? swap(model, to) : edit;
	};
	const out: string[] = [];
	if (result.unlisted.length > 0) {
		const [only] = result.unlisted;
		const one = result.unlisted.length === 1;
		const [them, requests, names] = one ? ['it', 'a request for it fails', 'name'] : ['them', 'requests for them fail', 'names'];
		const named = result.unlisted.map(model => `${model}${listsAlike(result, model)}`).join(', ');
		out.push(`Its list does not name ${named}: ${requests} if the provider retired ${them} or the key may not use ${them} — check the ${names} and change the channel's models ${one ? editFor(only!) : edit}.`);
	}
	for (const {model, retiresAt} of result.retiring) {
		const when = retiresAt === null ? 'is deprecated (no retirement date given yet)' : Date.parse(retiresAt) > now ? `is deprecated: the provider retires it on ${retiresAt.slice(0, 10)} (${relative(retiresAt, now)})` : `is deprecated and past its retirement date (${retiresAt.slice(0, 10)})`;
		out.push(`${model} ${when} — move to a newer model${listsAlike(result, model)} ${editFor(model)}.`);
	}
	return out.map(line => ` ${line}`).join('');
}

/** The words for the edit that moves a channel's `model` (upstream name) to `to`. */
export type Swap = (model: string, to: string) => string;

/**
 * `with \`gateway-tui channels edit claude --remove-models claude-sonnet-4-5 --add-models claude-sonnet-5-5,sonnet=claude-sonnet-5-5\``:
 * each of the channel's names for `model` (itself, or an alias of it) moved to `to`.
 */
export function swapCommand(channel: Pick<ChannelRecord, 'name' | 'models'>): Swap {
	return (model, to) => {
		const names = channel.models.filter(item => item.upstream === model).map(item => (item.name === model ? to : `${item.name}=${to}`));
		return `with \`gateway-tui channels edit ${channel.name} --remove-models ${model} --add-models ${[...new Set(names.length > 0 ? names : [to])].join(',')}\``;
	};
}

/**
 * One cheap call (the provider's model list) through `probe`: latency, or the provider's own error;
 * the result kept as the channel's last test (store/channel-tests.ts).
 */
export async function testChannel(store: Store, ref: string, probe: (channel: ChannelRecord) => Promise<ProbeResult>): Promise<{channel: ChannelRecord; result: ProbeResult}> {
	return testListedChannel(store, await findChannel(store, ref), probe);
}

/** testChannel for a channel already read from the store (`channels test` of every enabled channel). */
export async function testListedChannel(store: Store, channel: ChannelRecord, probe: (channel: ChannelRecord) => Promise<ProbeResult>): Promise<{channel: ChannelRecord; result: ProbeResult}> {
	const result = await probe(channel);
	// Kept for later readers, who are told (a TUI in another terminal shows it at once): a store that
	// cannot take it now must not hide what the test found.
	await saveChannelTest(store, channel, result)
		.then(() => store.bumpRevision())
		.catch(() => {});
	return {channel, result};
}

/** A time-out flag: a duration (`60s`, `2m`) or milliseconds; `default` (or empty) returns to the gateway's default. */
function parseTimeout(value: string | number, what: string): number | undefined {
	if (typeof value === 'number') return value > 0 ? Math.round(value) : undefined;
	const text = value.trim();
	if (text === '' || text === 'default') return undefined;
	return /^\d+$/.test(text) ? Number(text) || undefined : parseDuration(text, what);
}

/** The channel's own stream time-outs after `input`: kept unless given, cleared by `default`. */
function streamTimeouts(channel: ChannelRecord | undefined, input: Pick<AddChannelInput, 'firstByteTimeout' | 'streamIdleTimeout'>): Pick<ChannelRecord, 'firstByteTimeoutMs' | 'streamIdleTimeoutMs'> {
	const first = input.firstByteTimeout === undefined ? channel?.firstByteTimeoutMs : parseTimeout(input.firstByteTimeout, '--first-byte-timeout');
	const idle = input.streamIdleTimeout === undefined ? channel?.streamIdleTimeoutMs : parseTimeout(input.streamIdleTimeout, '--stream-idle-timeout');
	return {...(first === undefined ? {} : {firstByteTimeoutMs: first}), ...(idle === undefined ? {} : {streamIdleTimeoutMs: idle})};
}

function parsePriority(value: string | number | undefined): number {
	if (value === undefined) return 0;
	return typeof value === 'number' ? value : parseInteger(value, 'priority');
}

async function save(store: Store, record: ChannelRecord): Promise<void> {
	await channels(store).set(record.id, record);
	await store.bumpRevision();
}
