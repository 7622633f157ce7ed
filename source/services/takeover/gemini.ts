/**
 * Gemini CLI: ~/.gemini/.env (which Gemini CLI loads when no project .env is found) with
 * GOOGLE_GEMINI_BASE_URL (root, the SDK appends /v1beta) and GEMINI_API_KEY (sent as x-goog-api-key),
 * GEMINI_MODEL with --model; and ~/.gemini/settings.json `security.auth.selectedType =
 * "gemini-api-key"`, without which Gemini CLI refuses to start headless with a custom base URL.
 * Variables already exported in the shell are not overridden by the .env file, so they are reported.
 *
 * Gemini CLI reads ~/.gemini/.env only in a trusted folder (folder trust is on by default); elsewhere
 * it loads nothing but GEMINI_API_KEY from a project or ~/.env, never GOOGLE_GEMINI_BASE_URL, and no
 * settings field holds a base URL or a key (see `loadEnvironment` and `findEnvFile` in its
 * packages/cli/src/config/settings.ts). So untrusted folders work only with folder trust turned off
 * (`security.folderTrust.enabled = false`, written with `allFolders`), or with the variables exported
 * in the shell; otherwise status warns with both fixes.
 * @see https://github.com/google-gemini/gemini-cli/blob/main/docs/get-started/authentication.md
 */
import {join} from 'node:path';
import {keyPrefix} from '../keys.js';
import {docOf, stateOf, type Desired, type Docs, type ToolAdapter} from './adapter.js';
import {nonEmpty, pointsAtGateway, type Context} from './context.js';

const dotenv = 'env';
const settings = 'settings';
const selectedType = ['security', 'auth', 'selectedType'];
const folderTrust = ['security', 'folderTrust', 'enabled'];

/** Whether Gemini CLI will read ~/.gemini/.env in a folder it has not been told to trust. */
function everyFolder(docs: Docs, ctx: Context): boolean {
	return docOf(docs, settings).get(folderTrust) === false || ctx.env.GEMINI_CLI_TRUST_WORKSPACE === 'true';
}

/** The words that mark the warning of a takeover for trusted folders only (the TUI words it for its pane). */
export const untrustedFoldersMark = 'only in folders you trust';

function warnings(docs: Docs, ctx: Context): string[] {
	const out: string[] = [];
	for (const name of ['GOOGLE_GEMINI_BASE_URL', 'GEMINI_API_KEY']) {
		const exported = ctx.env[name];
		if (nonEmpty(exported) && exported !== docOf(docs, dotenv).get([name])) {
			out.push(`${name} is set in this environment and wins over ${docOf(docs, dotenv).file}: unset it in your shell profile.`);
		}
	}
	const type = docOf(docs, settings).get(selectedType);
	if (type !== 'gemini-api-key') out.push(`security.auth.selectedType in ${docOf(docs, settings).file} is not "gemini-api-key": Gemini CLI will not use the gateway's key.`);
	if (!everyFolder(docs, ctx)) {
		out.push(
			`Gemini CLI reads ${docOf(docs, dotenv).file} ${untrustedFoldersMark}; elsewhere it stops with "you must specify the GEMINI_API_KEY". Trust the folder when it asks (or run \`gemini --skip-trust\`), or take over again for every folder, which sets security.folderTrust.enabled = false in ${docOf(docs, settings).file}.`,
		);
	}
	return out;
}

export const gemini: ToolAdapter = {
	tool: 'gemini',
	configDir: ctx => join(ctx.home, '.gemini'),
	files: ctx => [
		{id: dotenv, path: join(ctx.home, '.gemini', '.env'), kind: 'dotenv'},
		{id: settings, path: join(ctx.home, '.gemini', 'settings.json'), kind: 'jsonc'},
	],
	inspect(docs, ctx) {
		const env = docOf(docs, dotenv);
		const address = env.get(['GOOGLE_GEMINI_BASE_URL']);
		const state = stateOf(address, pointsAtGateway(address, ctx.gateway));
		const model = env.get(['GEMINI_MODEL']) ?? docOf(docs, settings).get(['model', 'name']);
		return {
			state,
			address: nonEmpty(address) ? address : null,
			model: nonEmpty(model) ? model : null,
			where: `GOOGLE_GEMINI_BASE_URL in ${env.file}`,
			warnings: state === 'taken-over' ? warnings(docs, ctx) : [],
		};
	},
	desired({gateway, secret, model, allFolders}) {
		const out: Desired[] = [
			{file: dotenv, key: ['GOOGLE_GEMINI_BASE_URL'], value: gateway},
			{file: dotenv, key: ['GEMINI_API_KEY'], value: secret},
		];
		if (model) out.push({file: dotenv, key: ['GEMINI_MODEL'], value: model});
		out.push({file: settings, key: selectedType, value: 'gemini-api-key'});
		if (allFolders) out.push({file: settings, key: folderTrust, value: false});
		return out;
	},
	connection(docs) {
		const env = docOf(docs, dotenv);
		const text = (value: unknown) => (nonEmpty(value) ? value : null);
		return {baseUrl: text(env.get(['GOOGLE_GEMINI_BASE_URL'])), secret: text(env.get(['GEMINI_API_KEY'])), model: text(env.get(['GEMINI_MODEL']) ?? docOf(docs, settings).get(['model', 'name']))};
	},
	conflicts: () => [],
	ours(entry, value, _docs, ctx) {
		if (entry.key[0] === 'GOOGLE_GEMINI_BASE_URL') return pointsAtGateway(value, ctx.gateway);
		if (entry.key[0] === 'GEMINI_API_KEY') return typeof value === 'string' && value.startsWith(keyPrefix);
		return false;
	},
};
