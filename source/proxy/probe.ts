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
		const compared = compareModels(channel, list.read(parseJson(text)));
		return {ok: true, latencyMs: elapsed(), ...(compared.unlisted.length === 0 ? compared : await askEach(pools, channel, compared))};
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
