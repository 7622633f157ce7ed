/**
 * Virtual keys: the only credential clients ever hold. Used by the CLI and the TUI alike.
 */
import {randomBytes} from 'node:crypto';
import {UserError} from '../base/errors.js';
import {InvalidRecordError} from '../store/errors.js';
import type {Store} from '../store/index.js';
import {keyAllowsChannel, keyAllowsModel, type ChannelRecord, type KeyLimits, type KeyRecord} from '../base/records.js';
import {priceOf} from '../base/prices.js';
import {channelLabel, findChannel} from './channels.js';
import {listChannels} from '../store/channels.js';
import {activity, hashSecret, keyState, keys, listKeys, type KeyState} from '../store/keys.js';
import {parseExpiry, parseList} from './parse.js';
import {parseLimits, type LimitFlags} from './limit-flags.js';

export const keyPrefix = 'sk-gtui-';

/** 32 bytes from the CSPRNG, base64url, behind a prefix that makes the key recognisable (and greppable). */
export function generateSecret(): string {
	return keyPrefix + randomBytes(32).toString('base64url');
}

/** What a key looks like to a user: never the hash; the plaintext only where asked for. */
export type KeyView = {
	id: string;
	name: string;
	description: string;
	prefix: string;
	models: string[];
	channels: string[];
	state: KeyState;
	expiresAt: string | null;
	revokedAt: string | null;
	createdAt: string;
	lastUsedAt: string | null;
	limits: KeyLimits | null;
};

export type CreateKeyInput = {
	name: string;
	description?: string;
	models?: string | readonly string[];
	channels?: string | readonly string[];
	expiresIn?: string;
	expiresAt?: string;
} & LimitFlags;

export type EditKeyInput = Partial<Omit<CreateKeyInput, 'name'>> & {name?: string; neverExpires?: boolean};

/** Find a key by name or id; a UserError names what was looked for and how to list keys. */
export async function findKey(store: Store, ref: string): Promise<KeyRecord> {
	const all = await listKeys(store);
	const found = all.find(key => key.id === ref) ?? all.find(key => key.name === ref);
	if (!found) throw new UserError(`No key named "${ref}". Run \`gateway-tui keys list\` to see the keys.`);
	return found;
}

export async function createKey(store: Store, input: CreateKeyInput): Promise<KeyRecord> {
	const name = input.name?.trim();
	if (!name) throw new UserError('A key needs a name: pass --name NAME.');
	const existing = await listKeys(store);
	if (existing.some(key => key.name === name)) throw new UserError(`A key named "${name}" exists already: choose another name, or rotate it with \`gateway-tui keys rotate ${name}\`.`);
	const channelIds = await resolveChannelIds(store, parseList(input.channels));
	const secret = generateSecret();
	const record: KeyRecord = {
		v: 1,
		id: `key_${randomBytes(6).toString('hex')}`,
		name,
		description: input.description?.trim() ?? '',
		secret,
		hash: hashSecret(secret),
		models: parseList(input.models),
		channels: channelIds,
		expiresAt: parseExpiry(input),
		revokedAt: null,
		createdAt: new Date().toISOString(),
	};
	const limits = parseLimits(input);
	if (limits) record.limits = limits;
	await save(store, record);
	return record;
}

/** Change a key's settings; only what is given changes. The secret stays (see rotateKey). */
export async function editKey(store: Store, ref: string, input: EditKeyInput): Promise<KeyRecord> {
	const key = await findKey(store, ref);
	const name = input.name?.trim();
	if (name !== undefined && name !== key.name) {
		if (!name) throw new UserError('A key name cannot be empty.');
		if ((await listKeys(store)).some(other => other.name === name)) throw new UserError(`A key named "${name}" exists already: choose another name.`);
	}
	if (input.neverExpires && (input.expiresIn || input.expiresAt)) throw new UserError('Give either --never-expires or a new expiry, not both.');
	const edited: KeyRecord = {
		...key,
		name: name || key.name,
		description: input.description === undefined ? key.description : input.description.trim(),
		models: input.models === undefined ? key.models : parseList(input.models),
		channels: input.channels === undefined ? key.channels : await resolveChannelIds(store, parseList(input.channels)),
		expiresAt: input.neverExpires ? null : input.expiresIn || input.expiresAt ? parseExpiry(input) : key.expiresAt,
	};
	const limits = parseLimits(input, key.limits);
	if (limits) edited.limits = limits;
	else delete edited.limits;
	await save(store, edited);
	return edited;
}

export async function revokeKey(store: Store, ref: string): Promise<KeyRecord> {
	const key = await findKey(store, ref);
	if (key.revokedAt) return key;
	const revoked = {...key, revokedAt: new Date().toISOString()};
	await save(store, revoked);
	return revoked;
}

/** A new secret with the same settings; the old one stops working as soon as proxies see the new revision. */
export async function rotateKey(store: Store, ref: string): Promise<KeyRecord> {
	const key = await findKey(store, ref);
	const secret = generateSecret();
	const rotated = {...key, secret, hash: hashSecret(secret)};
	await save(store, rotated);
	return rotated;
}

export async function deleteKey(store: Store, ref: string): Promise<KeyRecord> {
	const key = await findKey(store, ref);
	await keys(store).delete(key.id);
	await activity(store).delete(key.id);
	await store.bumpRevision();
	return key;
}

/** Delete a key record this version cannot read, by its id (see removeUnreadableChannel). */
export async function deleteUnreadableKey(store: Store, ref: string, error: unknown): Promise<boolean> {
	if (!(error instanceof InvalidRecordError) || error.what !== 'key' || error.id !== ref) return false;
	await keys(store).delete(ref);
	await activity(store).delete(ref);
	await store.bumpRevision();
	return true;
}

/** The models a key may use on each enabled channel it may use that have no price there: their requests cost $0. */
export function unpricedModels(key: Pick<KeyRecord, 'models' | 'channels'>, channels: readonly ChannelRecord[]): Array<{channel: ChannelRecord; models: string[]}> {
	const out: Array<{channel: ChannelRecord; models: string[]}> = [];
	for (const channel of channels) {
		if (!channel.enabled || !keyAllowsChannel(key, channel)) continue;
		const models = channel.models.filter(model => keyAllowsModel(key, model.name) && !priceOf(channel, model.name, model.upstream)).map(model => model.name);
		if (models.length > 0) out.push({channel, models});
	}
	return out;
}

export async function keyView(store: Store, key: KeyRecord, lastUsedAt: string | null): Promise<KeyView> {
	const channels = await listChannels(store);
	return {
		id: key.id,
		name: key.name,
		description: key.description,
		prefix: `${key.secret.slice(0, keyPrefix.length + 4)}…`,
		models: key.models,
		channels: key.channels.map(channelLabel(channels)),
		state: keyState(key),
		expiresAt: key.expiresAt,
		revokedAt: key.revokedAt,
		createdAt: key.createdAt,
		lastUsedAt,
		limits: key.limits ?? null,
	};
}

async function resolveChannelIds(store: Store, refs: readonly string[]): Promise<string[]> {
	const ids: string[] = [];
	for (const ref of refs) ids.push((await findChannel(store, ref)).id);
	return ids;
}

async function save(store: Store, record: KeyRecord): Promise<void> {
	await keys(store).set(record.id, record);
	await store.bumpRevision();
}
