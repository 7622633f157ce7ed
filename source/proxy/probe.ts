/** One cheap call to a channel's model list: for `channels test`, the TUI's `t` and `serve --probe-every`. */
import type {ChannelRecord} from '../base/records.js';
import type {ProbeResult, RetiringModel} from '../base/probe-result.js';
import type {ListedModels} from '../formats/adapter.js';
import {adapters} from '../formats/index.js';
import {parseJson} from '../formats/wire.js';
import {nameMatch} from './model-names.js';
import {callUpstream, UpstreamPools, type UpstreamTimeouts} from './upstream.js';
import {Scrubber} from '../base/secrets.js';

const probeTimeouts: UpstreamTimeouts = {connectMs: 5000, headersMs: 15_000, bodyMs: 15_000};

/**
 * One cheap call to the provider's model list: latency, or the provider's own error message with
 * every key `scrubber` knows masked (by default the channel's own; `channels test` passes one that
 * knows every channel's and every virtual key).
 */
export async function probeChannel(channel: ChannelRecord, pools?: UpstreamPools, scrubber = new Scrubber([channel.apiKey])): Promise<ProbeResult> {
	if (!pools) {
		// A one-off check (the CLI): its own connections, closed after.
		const own = new UpstreamPools();
		try {
			return await probeChannel(channel, own, scrubber);
		} finally {
			await own.close();
		}
	}
	const started = performance.now();
	const elapsed = () => Math.round(performance.now() - started);
	try {
		const list = adapters[channel.format].modelList;
		const response = await callUpstream(pools, {channel, method: 'GET', path: list.path, query: list.query, timeouts: probeTimeouts});
		const text = await response.body.text();
		if (response.statusCode >= 400) {
			return {ok: false, latencyMs: elapsed(), status: response.statusCode, error: scrubber.scrub(`HTTP ${response.statusCode}: ${providerMessage(text)}`)};
		}
		const listed = list.read(parseJson(text));
		const compared = compareModels(channel, listed);
		const found = compared.unlisted.length === 0 ? compared : await askEach(pools, channel, compared);
		const alternatives = alternativesFor([...found.unlisted, ...found.retiring.map(item => item.model)], listed);
		return {ok: true, latencyMs: elapsed(), ...found, alternatives};
	} catch (error) {
		return {ok: false, latencyMs: elapsed(), error: scrubber.scrub(error instanceof Error ? error.message : String(error))};
	}
}

/**
 * The models the list does not name, asked for one by one: a name the list leaves out but the
 * provider knows (an alias) is not missing, and may say it is deprecated. Only a 404 confirms one
 * missing; any other failure of the call leaves it unknown, not named.
 */
async function askEach(pools: UpstreamPools, channel: ChannelRecord, compared: ReturnType<typeof compareModels>): Promise<ReturnType<typeof compareModels>> {
	const list = adapters[channel.format].modelList;
	const unlisted: string[] = [];
	const retiring = [...compared.retiring];
	await Promise.all(
		compared.unlisted.map(async model => {
			try {
				const response = await callUpstream(pools, {channel, method: 'GET', path: `${list.path}/${encodeURIComponent(model)}`, timeouts: probeTimeouts});
				const text = await response.body.text();
				if (response.statusCode === 404) return unlisted.push(model);
				if (response.statusCode >= 300) return;
				const [retiresAt] = list.readOne(parseJson(text)).deprecated.values();
				if (retiresAt !== undefined) retiring.push({model, retiresAt});
			} catch {
				// unknown: not named
			}
		}),
	);
	const order = (names: readonly string[]) => compared.unlisted.filter(model => names.includes(model));
	return {models: compared.models, unlisted: order(unlisted), retiring};
}

/** The human message inside any of the three error shapes, else the raw text (shortened). */
export function providerMessage(text: string): string {
	try {
		const body: unknown = JSON.parse(text);
		const error = (body as {error?: unknown}).error;
		const message = (error as {message?: unknown} | undefined)?.message;
		if (typeof message === 'string') return message;
	} catch {
		// not JSON: fall through to the raw text
	}
	return text.length > 200 ? `${text.slice(0, 200)}…` : text || '(empty body)';
}

/**
 * The channel's models against its provider's list: those the list does not name (only when the list
 * is complete — one page, read whole), and those it lists as deprecated. A dated snapshot and its
 * alias name the same model (`claude-sonnet-4-5` is listed as `claude-sonnet-4-5-20250929`), and so
 * do a local server's untagged name and its `:latest` (Ollama lists `llama3.2` as `llama3.2:latest`).
 */
export function compareModels(channel: Pick<ChannelRecord, 'models'>, listed: ListedModels): {models: number; unlisted: string[]; retiring: RetiringModel[]} {
	const unlisted: string[] = [];
	const retiring: RetiringModel[] = [];
	for (const model of new Set(channel.models.map(item => item.upstream))) {
		const id = listed.ids.includes(model) ? model : listed.ids.find(candidate => sameModel(candidate, model));
		if (id === undefined) {
			if (listed.complete && listed.ids.length > 0) unlisted.push(model);
			continue;
		}
		const retiresAt = listed.deprecated.get(id);
		if (retiresAt !== undefined) retiring.push({model, retiresAt});
	}
	return {models: listed.ids.length, unlisted, retiring};
}

const sameModel = (listed: string, configured: string): boolean => nameMatch(listed, configured) > 0 || listed === `${configured}:latest` || configured === `${listed}:latest`;

/** A name's tokens that only number it: a version (`4`, `5.4`, `4o`, `v2`), a date (`20250929`), or a stage (`latest`, `preview`, `exp`). */
const versionToken = /^(v?\d+(\.\d+)*[a-z]?|latest|preview|exp)$/;

/** A model's family: its name without what numbers it (`claude-sonnet-4-5` and `claude-sonnet-5-5` are `claude-sonnet`; `gemini-2.5-flash`, `gemini-flash`). */
export function modelFamily(name: string): string {
	return name
		.toLowerCase()
		.split('-')
		.filter(token => !versionToken.test(token))
		.join('-');
}

/** A dated snapshot's alias: `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`, `gpt-4o-2024-08-06` → `gpt-4o`. */
const undated = (id: string) => id.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');

/**
 * For each of `models` (unlisted or retiring), the listed models of its family that the provider
 * does not deprecate — the names to move to — newest first (by their numbers), three at most, a
 * dated snapshot left out where its alias is listed too.
 */
export function alternativesFor(models: readonly string[], listed: ListedModels): Record<string, string[]> {
	const out: Record<string, string[]> = {};
	for (const model of models) {
		const family = modelFamily(model);
		if (family === '') continue;
		const alike = listed.ids.filter(id => modelFamily(id) === family && !listed.deprecated.has(id) && !sameModel(id, model) && undated(id) !== undated(model));
		const kept = alike.filter(id => undated(id) === id || !alike.includes(undated(id)));
		const newest = kept.sort((a, b) => b.localeCompare(a, 'en', {numeric: true})).slice(0, 3);
		if (newest.length > 0) out[model] = newest;
	}
	return out;
}
