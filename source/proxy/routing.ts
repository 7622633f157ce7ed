/**
 * Which channel serves a request: the model must be configured on an enabled channel and allowed
 * by the key's model and channel allow-lists. Among the eligible channels, the inbound format
 * comes first (passthrough, no translation), then higher priority, then the older channel.
 * Responses API requests prefer OpenAI channels: those that speak it natively, then the others.
 */
import {GatewayError} from '../base/errors.js';
import type {InboundAdapter} from '../formats/adapter.js';
import {keyAllowsChannel, keyAllowsModel, type ChannelRecord, type KeyRecord} from '../base/records.js';
import type {Snapshot} from './registry.js';
import type {ChannelHealth} from './health.js';
import {nameMatch} from './model-names.js';
import {compareIso} from '../base/iso-time.js';

export type Route = {readonly channel: ChannelRecord; readonly upstreamModel: string};

/** The channels' model entries that best match what the client asked (an exact name beats a suffix-free one). */
function servingRoutes(snapshot: Snapshot, asked: string): Array<Route & {readonly name: string}> {
	let best = 0;
	let found: Array<Route & {readonly name: string}> = [];
	for (const channel of snapshot.channels) {
		if (!channel.enabled) continue;
		for (const entry of channel.models) {
			const match = nameMatch(entry.name, asked);
			if (match === 0 || match < best) continue;
			if (match > best) [best, found] = [match, []];
			found.push({channel, upstreamModel: entry.upstream, name: entry.name});
		}
	}
	return found;
}

export function resolveRoutes(snapshot: Snapshot, key: KeyRecord, model: string, inbound: Pick<InboundAdapter, 'affinity'>): Route[] {
	const serving = servingRoutes(snapshot, model).filter(route => keyAllowsModel(key, route.name) || keyAllowsModel(key, model));
	if (serving.length === 0 && servingRoutes(snapshot, model).length > 0) {
		throw new GatewayError('permission', 403, `The virtual key "${key.name}" is not allowed to use the model "${model}". Use a model the key allows, or change the key's allow-list.`, {code: 'model_not_allowed', param: 'model'});
	}
	if (serving.length === 0) {
		throw new GatewayError('not_found', 404, `The model "${model}" is not configured on any enabled channel. Add it to a channel (\`gateway-tui channels edit NAME --models …\`) or ask for a model listed by GET /v1/models.`, {code: 'model_not_found', param: 'model'});
	}
	const permitted: Route[] = serving.filter(route => keyAllowsChannel(key, route.channel)).map(({channel, upstreamModel}) => ({channel, upstreamModel}));
	if (permitted.length === 0) throw channelsRefusal(snapshot, key, model);
	return permitted.sort(
		(a, b) =>
			inbound.affinity(b.channel) - inbound.affinity(a.channel) ||
			b.channel.priority - a.channel.priority ||
			compareIso(a.channel.createdAt, b.channel.createdAt),
	);
}

/**
 * The 403 for a key whose channels serve none of the model: which channels it may use, or that
 * they were all removed (its list is kept: emptied, it would allow every channel).
 */
function channelsRefusal(snapshot: Snapshot, key: KeyRecord, model: string): GatewayError {
	const names = key.channels.flatMap(id => snapshot.channels.filter(channel => channel.id === id).map(channel => `"${channel.name}"`));
	const fix = `change the key's channels with \`gateway-tui keys edit ${key.name} --channels …\` (--channels "" allows them all)`;
	const message =
		names.length === 0
			? `The virtual key "${key.name}" may use only channels that were removed, so it can use none: ${fix}.`
			: `The virtual key "${key.name}" may use only the channel${names.length === 1 ? '' : 's'} ${names.join(', ')}, and ${names.length === 1 ? 'it is not an enabled channel' : 'none of them is an enabled channel'} serving "${model}". Ask for a model ${names.length === 1 ? 'it serves' : 'they serve'}, or ${fix}.`;
	return new GatewayError('permission', 403, message, {code: 'model_not_allowed', param: 'model'});
}

/** Routes of one rank (format affinity, priority), with the id their round-robin turn is kept under. */
type RankGroup = {readonly routes: readonly Route[]; readonly turnId: string};

/** Resolved routes kept per (format, key, model) for one registry snapshot; past this many, the cache starts over. */
const maxCachedRoutes = 1024;

/**
 * The order in which channels are tried: the inbound format first, then priority; among channels
 * equal on both, round-robin (one turn per request for that model), with degraded channels last.
 * One per gateway: the turns are its own, and so are its caches — the routes resolved for a
 * (format, key, model) while the registry's snapshot stays the same, and the rank groups of each
 * list of routes — so a request neither scans every channel's models nor builds keys to order them.
 */
export class RouteOrder {
	private readonly turns = new Map<string, number>();
	private readonly groups = new WeakMap<readonly Route[], readonly RankGroup[]>();
	private resolved = new Map<string, readonly Route[]>();
	private resolvedFor: Snapshot | null = null;

	/** `resolveRoutes`, remembered for the snapshot (a refused request is resolved again, to throw its error). */
	resolve(snapshot: Snapshot, key: KeyRecord, model: string, inbound: Pick<InboundAdapter, 'affinity' | 'format'>): readonly Route[] {
		if (snapshot !== this.resolvedFor || this.resolved.size >= maxCachedRoutes) {
			this.resolved = new Map();
			this.resolvedFor = snapshot;
		}
		const id = `${inbound.format}\n${key.id}\n${model}`;
		let routes = this.resolved.get(id);
		if (!routes) this.resolved.set(id, (routes = resolveRoutes(snapshot, key, model, inbound)));
		return routes;
	}

	order(routes: readonly Route[], inbound: Pick<InboundAdapter, 'affinity'>, health: Pick<ChannelHealth, 'stateOf' | 'lacksAny' | 'lacks'>): readonly Route[] {
		let groups = this.groups.get(routes);
		if (!groups) this.groups.set(routes, (groups = rankGroups(routes, inbound)));
		// One channel (the usual case): nothing to rotate, and a degraded channel is still the only one.
		if (groups.length === 1 && groups[0]!.routes.length === 1) return routes;
		const ordered = this.rotated(groups, health);
		// A channel whose provider lately answered that it has no such model goes after every other one (see ChannelHealth.modelMissing).
		if (!health.lacksAny) return ordered;
		const lacking = ordered.filter(route => health.lacks(route.channel, route.upstreamModel));
		return lacking.length === 0 ? ordered : [...ordered.filter(route => !lacking.includes(route)), ...lacking];
	}

	private rotated(groups: readonly RankGroup[], health: Pick<ChannelHealth, 'stateOf'>): Route[] {
		const ordered: Route[] = [];
		for (const {routes: group, turnId} of groups) {
			if (group.length === 1) {
				ordered.push(group[0]!);
				continue;
			}
			const turn = this.turns.get(turnId) ?? 0;
			this.turns.set(turnId, (turn + 1) % group.length);
			const rotated = [...group.slice(turn % group.length), ...group.slice(0, turn % group.length)];
			ordered.push(...rotated.filter(route => health.stateOf(route.channel) !== 'degraded'), ...rotated.filter(route => health.stateOf(route.channel) === 'degraded'));
		}
		return ordered;
	}
}

function rankGroups(routes: readonly Route[], inbound: Pick<InboundAdapter, 'affinity'>): RankGroup[] {
	const byRank = new Map<string, Route[]>();
	for (const route of routes) {
		const rank = `${2 - inbound.affinity(route.channel)}/${-route.channel.priority}`;
		byRank.set(rank, [...(byRank.get(rank) ?? []), route]);
	}
	return [...byRank].map(([rank, group]) => ({routes: group, turnId: `${group[0]!.upstreamModel}|${rank}|${group.map(route => route.channel.id).join(',')}`}));
}

/** The client-facing models a key may use, each once, in channel order. */
export function modelsForKey(snapshot: Snapshot, key: KeyRecord): Array<{id: string; channel: ChannelRecord}> {
	const seen = new Map<string, ChannelRecord>();
	for (const channel of snapshot.channels) {
		if (!channel.enabled || !keyAllowsChannel(key, channel)) continue;
		for (const model of channel.models) {
			if (keyAllowsModel(key, model.name) && !seen.has(model.name)) seen.set(model.name, channel);
		}
	}
	return [...seen].map(([id, channel]) => ({id, channel}));
}
