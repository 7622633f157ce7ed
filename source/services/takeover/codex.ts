/**
 * Codex: ~/.codex/config.toml (or $CODEX_HOME/config.toml). A custom provider
 * `[model_providers.gateway-tui]` with `base_url` (…/v1) and `wire_api = "responses"` (the only wire
 * API current Codex accepts), selected by the root key `model_provider`.
 *
 * The key goes in `experimental_bearer_token`, which Codex sends as `Authorization: Bearer`. The other
 * way, `env_key`, names a variable the user would have to export in every shell (and in the
 * environment of IDEs and the desktop app); while it is unset Codex stops with "Missing environment
 * variable". The bearer token works with nothing exported. It is a virtual key for a loopback gateway,
 * revocable at any time, and the file keeps its own mode.
 * @see https://github.com/openai/codex/blob/main/codex-rs/core/src/model_provider_info.rs
 */
import {join, resolve} from 'node:path';
import {keyPrefix} from '../keys.js';
import {docOf, stateOf, type Desired, type Docs, type Inspection, type ToolAdapter} from './adapter.js';
import {isTree} from './config-doc.js';
import {nonEmpty, pointsAtGateway, type Context} from './context.js';

export const codexProviderId = 'gateway-tui';
const file = 'config';
const provider = (name: string) => ['model_providers', codexProviderId, name];

export function codexHome(ctx: Context): string {
	return nonEmpty(ctx.env.CODEX_HOME) ? resolve(ctx.home, ctx.env.CODEX_HOME) : join(ctx.home, '.codex');
}

/** The selected provider's base URL, or the top-level `openai_base_url` for the built-in provider. */
function selected(docs: Docs): {address: string | null; where: string} {
	const config = docOf(docs, file);
	const id = config.get(['model_provider']);
	if (nonEmpty(id) && id !== 'openai') {
		const table = config.get(['model_providers', id]);
		const base = isTree(table) ? table.base_url : undefined;
		if (nonEmpty(base)) return {address: base, where: `model_providers.${id}.base_url in ${config.file}`};
		return {address: `model_provider "${id}"`, where: `model_provider in ${config.file}`};
	}
	const base = config.get(['openai_base_url']);
	return {address: nonEmpty(base) ? base : null, where: `openai_base_url in ${config.file}`};
}

export const codex: ToolAdapter = {
	tool: 'codex',
	configDir: codexHome,
	files: ctx => [{id: file, path: join(codexHome(ctx), 'config.toml'), kind: 'toml'}],
	inspect(docs, ctx): Inspection {
		const config = docOf(docs, file);
		const {address, where} = selected(docs);
		const model = config.get(['model']);
		const profile = config.get(['profile']);
		const state = stateOf(address, pointsAtGateway(address, ctx.gateway));
		const warnings = state === 'taken-over' && nonEmpty(profile) ? [`${config.file} selects the profile "${profile}", whose settings may override the gateway provider.`] : [];
		return {state, address, model: nonEmpty(model) ? model : null, where, warnings};
	},
	desired({gateway, secret, model}) {
		const out: Desired[] = [
			{file, key: ['model_provider'], value: codexProviderId},
			{file, key: provider('name'), value: 'gateway-tui'},
			{file, key: provider('base_url'), value: `${gateway}/v1`},
			{file, key: provider('wire_api'), value: 'responses'},
			{file, key: provider('experimental_bearer_token'), value: secret},
		];
		if (model) out.push({file, key: ['model'], value: model});
		return out;
	},
	connection(docs) {
		const config = docOf(docs, file);
		const text = (value: unknown) => (nonEmpty(value) ? value : null);
		return {baseUrl: text(selected(docs).address), secret: text(config.get(provider('experimental_bearer_token'))), model: text(config.get(['model']))};
	},
	conflicts(docs) {
		const config = docOf(docs, file);
		if (!nonEmpty(config.get(provider('env_key')))) return [];
		return [{file, key: provider('env_key'), value: null, reason: `model_providers.${codexProviderId}.env_key in ${config.file} would be used instead of the gateway's key`}];
	},
	ours(entry, value, docs, ctx) {
		const [first, id, name] = entry.key;
		if (first === 'model_provider') return value === codexProviderId;
		if (first !== 'model_providers' || id !== codexProviderId) return false;
		if (name === 'experimental_bearer_token') return typeof value === 'string' && value.startsWith(keyPrefix);
		return pointsAtGateway(docOf(docs, file).get(provider('base_url')), ctx.gateway);
	},
};
