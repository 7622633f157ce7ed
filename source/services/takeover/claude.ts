/**
 * Claude Code: the `env` block of ~/.claude/settings.json, which Claude Code applies to its own
 * environment. ANTHROPIC_BASE_URL is the root (the SDK appends /v1/messages); the key goes in
 * ANTHROPIC_AUTH_TOKEN (sent as `Authorization: Bearer`). ANTHROPIC_API_KEY, when set, is sent as
 * `x-api-key` instead and so would win: it is cleared only with --force. ANTHROPIC_MODEL beats the
 * settings' `model`; background tasks use ANTHROPIC_DEFAULT_HAIKU_MODEL, so both are set with --model.
 * @see https://docs.claude.com/en/docs/claude-code/settings#environment-variables
 */
import {join} from 'node:path';
import {keyPrefix} from '../keys.js';
import {docOf, stateOf, type Desired, type Docs, type ToolAdapter} from './adapter.js';
import {nonEmpty, pointsAtGateway, type Context} from './context.js';

const file = 'settings';
const env = (name: string) => ['env', name];

function warnings(docs: Docs, ctx: Context): string[] {
	const settings = docOf(docs, file);
	const out: string[] = [];
	if (nonEmpty(settings.get(env('ANTHROPIC_API_KEY')))) {
		out.push(`env.ANTHROPIC_API_KEY in ${settings.file} wins over the gateway's key: take over again and let it be cleared (undo puts it back).`);
	}
	if (nonEmpty(ctx.env.ANTHROPIC_API_KEY)) out.push('ANTHROPIC_API_KEY is set in this environment and may win over the gateway\'s key: unset it in your shell profile.');
	if (nonEmpty(settings.get(['apiKeyHelper']))) out.push(`apiKeyHelper in ${settings.file} supplies another key: remove it for the gateway's key to be used.`);
	return out;
}

export const claude: ToolAdapter = {
	tool: 'claude',
	configDir: ctx => join(ctx.home, '.claude'),
	files: ctx => [{id: file, path: join(ctx.home, '.claude', 'settings.json'), kind: 'json'}],
	inspect(docs, ctx) {
		const settings = docOf(docs, file);
		const address = settings.get(env('ANTHROPIC_BASE_URL'));
		const state = stateOf(address, pointsAtGateway(address, ctx.gateway));
		const model = settings.get(env('ANTHROPIC_MODEL')) ?? settings.get(['model']);
		return {
			state,
			address: nonEmpty(address) ? address : null,
			model: nonEmpty(model) ? model : null,
			where: `env.ANTHROPIC_BASE_URL in ${settings.file}`,
			warnings: state === 'taken-over' ? warnings(docs, ctx) : [],
		};
	},
	desired({gateway, secret, model, fastModel}) {
		const out: Desired[] = [
			{file, key: env('ANTHROPIC_BASE_URL'), value: gateway},
			{file, key: env('ANTHROPIC_AUTH_TOKEN'), value: secret},
		];
		if (model) out.push({file, key: env('ANTHROPIC_MODEL'), value: model});
		const fast = fastModel || model;
		if (fast) out.push({file, key: env('ANTHROPIC_DEFAULT_HAIKU_MODEL'), value: fast});
		return out;
	},
	connection(docs) {
		const settings = docOf(docs, file);
		const text = (value: unknown) => (nonEmpty(value) ? value : null);
		return {baseUrl: text(settings.get(env('ANTHROPIC_BASE_URL'))), secret: text(settings.get(env('ANTHROPIC_AUTH_TOKEN'))), model: text(settings.get(env('ANTHROPIC_MODEL')) ?? settings.get(['model']))};
	},
	conflicts(docs) {
		const settings = docOf(docs, file);
		if (!nonEmpty(settings.get(env('ANTHROPIC_API_KEY')))) return [];
		return [{file, key: env('ANTHROPIC_API_KEY'), value: null, reason: `env.ANTHROPIC_API_KEY in ${settings.file} would be sent instead of the gateway's key`}];
	},
	ours(entry, value, _docs, ctx) {
		const name = entry.key[1];
		if (name === 'ANTHROPIC_BASE_URL') return pointsAtGateway(value, ctx.gateway);
		if (name === 'ANTHROPIC_AUTH_TOKEN') return typeof value === 'string' && value.startsWith(keyPrefix);
		return false;
	},
};
