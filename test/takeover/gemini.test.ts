import {test} from 'node:test';
import assert from 'node:assert/strict';
import {mkdirSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {applyTakeover, takeoverStatus, undoTakeover} from '../../source/services/takeover/index.js';
import {homes, type Homes} from './setup.js';
import {parse as parseJsonc} from 'jsonc-parser';
import {listKeys} from '../../source/store/keys.js';

const envPath = '.gemini/.env';
const settingsPath = '.gemini/settings.json';

const userEnv = `# my Gemini setup
export GOOGLE_CLOUD_PROJECT=my-project
GEMINI_API_KEY="AIza-my-real-key" # from AI Studio

MULTI="line one
line two"
`;

const userSettings = `{
    "ui": {
        "theme": "GitHub"
    },
    "security": {
        "auth": {
            "selectedType": "oauth-personal"
        }
    }
}
`;

async function geminiState(h: Homes, env: Record<string, string> = {}) {
	return (await takeoverStatus(h.options({env}))).find(status => status.tool === 'gemini')!;
}

test('gemini: no config files → apply writes .env and settings.json → undo removes both', async () => {
	const h = await homes();
	mkdirSync(join(h.home, '.gemini'));
	await applyTakeover(h.store, 'gemini', h.options({model: 'fast'}));
	const [key] = await listKeys(h.store);
	assert.equal(key!.name, 'takeover-gemini');
	assert.equal(h.read(envPath), `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:11580\nGEMINI_API_KEY=${key!.secret}\nGEMINI_MODEL=fast\n`);
	assert.equal(h.read(settingsPath), '{\n  "security": {\n    "auth": {\n      "selectedType": "gemini-api-key"\n    }\n  }\n}\n');
	const status = await geminiState(h);
	assert.deepEqual({state: status.state, address: status.address, model: status.model, warnings: status.warnings}, {state: 'taken-over', address: 'http://127.0.0.1:11580', model: 'fast', warnings: [untrusted(h)]});
	assert.deepEqual((await geminiState(h, {GEMINI_CLI_TRUST_WORKSPACE: 'true'})).warnings, [], 'every folder is trusted: nothing to warn about');

	const undone = await undoTakeover('gemini', h.options());
	assert.deepEqual(
		undone.files.map(file => file.deleted),
		[true, true],
	);
	assert.deepEqual(readdirSync(join(h.home, '.gemini')), []);
	await h.close();
});

test('gemini: the user .env (comments, export, quotes, multi-line values) and settings are kept; undo restores both exactly', async () => {
	const h = await homes();
	h.write(envPath, userEnv);
	h.write(settingsPath, userSettings);
	const result = await applyTakeover(h.store, 'gemini', h.options());
	const [key] = await listKeys(h.store);
	assert.equal(
		h.read(envPath),
		userEnv.replace('GEMINI_API_KEY="AIza-my-real-key" # from AI Studio', `GEMINI_API_KEY=${key!.secret}`) + 'GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:11580\n',
	);
	assert.equal(h.read(settingsPath), userSettings.replace('oauth-personal', 'gemini-api-key'), 'four-space indentation is kept');
	assert.deepEqual(
		result.files.map(file => ({set: file.set, replaced: file.replaced, backup: file.backup?.endsWith('.bak')})),
		[
			{set: ['GOOGLE_GEMINI_BASE_URL'], replaced: ['GEMINI_API_KEY'], backup: true},
			{set: [], replaced: ['security.auth.selectedType'], backup: true},
		],
	);

	const undone = await undoTakeover('gemini', h.options());
	assert.equal(h.read(envPath), userEnv);
	assert.equal(h.read(settingsPath), userSettings);
	assert.equal(undone.backups.length, 2);
	await h.close();
});

test('gemini: a base URL pointing elsewhere needs --force', async () => {
	const h = await homes();
	const elsewhere = 'GOOGLE_GEMINI_BASE_URL=https://gemini-proxy.example.com\nGEMINI_API_KEY=proxy-key\n';
	h.write(envPath, elsewhere);
	assert.equal((await geminiState(h)).state, 'connected-elsewhere');
	await assert.rejects(applyTakeover(h.store, 'gemini', h.options()), /Gemini CLI is connected elsewhere \(GOOGLE_GEMINI_BASE_URL in .*\.env is https:\/\/gemini-proxy\.example\.com\)/);
	assert.equal(h.read(envPath), elsewhere);
	await applyTakeover(h.store, 'gemini', h.options({force: true}));
	assert.equal((await geminiState(h)).state, 'taken-over');
	await undoTakeover('gemini', h.options());
	assert.equal(h.read(envPath), elsewhere);
	await h.close();
});

test('gemini: a malformed .env or settings.json is refused with its line; neither file is touched', async () => {
	const h = await homes();
	const goodEnv = 'GEMINI_API_KEY=abc\n';
	const cases: [string, string, RegExp][] = [
		['# ok\nthis is not an assignment\n', '{}\n', /\.env is not valid \.env \(line 2: expected KEY=value, a # comment or a blank line\)\. Fix the file and run again; it was left untouched\./],
		['A="never closed\nB=1\n', '{}\n', /\.env is not valid \.env \(line 1: the " that opens the value is never closed\)/],
		[goodEnv, '{\n  "ui": {\n    "theme": "x",\n  }\n}\n', /settings\.json is not valid JSON \(line 4, column 3: expected property name\)/],
	];
	for (const [env, settings, message] of cases) {
		h.write(envPath, env);
		h.write(settingsPath, settings);
		await assert.rejects(applyTakeover(h.store, 'gemini', h.options()), message);
		assert.equal(h.read(envPath), env);
		assert.equal(h.read(settingsPath), settings);
		assert.deepEqual(readdirSync(join(h.home, '.gemini')).sort(), ['.env', 'settings.json']);
	}
	await h.close();
});

test('gemini: variables exported in the shell win over ~/.gemini/.env and are reported', async () => {
	const h = await homes();
	mkdirSync(join(h.home, '.gemini'));
	await applyTakeover(h.store, 'gemini', h.options({model: 'fast'}));
	const status = await geminiState(h, {GEMINI_API_KEY: 'AIza-exported'});
	assert.equal(status.state, 'taken-over');
	assert.deepEqual(status.warnings, [`GEMINI_API_KEY is set in this environment and wins over ${join(h.home, envPath)}: unset it in your shell profile.`, untrusted(h)]);
	await h.close();
});

test('gemini: for every folder, apply turns off folder trust (no warning then); undo puts the setting back', async () => {
	const h = await homes();
	h.write(settingsPath, '{\n  "security": {"folderTrust": {"enabled": true}}\n}\n');
	await applyTakeover(h.store, 'gemini', h.options({model: 'fast', allFolders: true}));
	assert.deepEqual(JSON.parse(h.read(settingsPath)!), {security: {folderTrust: {enabled: false}, auth: {selectedType: 'gemini-api-key'}}});
	assert.deepEqual((await geminiState(h)).warnings, []);
	await undoTakeover('gemini', h.options());
	assert.equal(h.read(settingsPath), '{\n  "security": {"folderTrust": {"enabled": true}}\n}\n');
	await h.close();
});

/** The warning that Gemini CLI reads ~/.gemini/.env only in trusted folders, with both fixes. */
function untrusted(h: Homes): string {
	return `Gemini CLI reads ${join(h.home, envPath)} only in folders you trust; elsewhere it stops with "you must specify the GEMINI_API_KEY". Trust the folder when it asks (or run \`gemini --skip-trust\`), or take over again for every folder, which sets security.folderTrust.enabled = false in ${join(h.home, settingsPath)}.`;
}

test('gemini: settings.json with comments (Gemini CLI reads JSONC) is edited in place; comments survive; undo returns an equivalent file', async () => {
	const h = await homes();
	const commented = `{
  // my theme, keep it
  "ui": {"theme": "GitHub"}, /* inline */
  "security": {
    // picked by hand
    "folderTrust": {"enabled": true}
  }
}
`;
	h.write(settingsPath, commented);
	await applyTakeover(h.store, 'gemini', h.options());
	const applied = h.read(settingsPath);
	// jsonc-parser re-indents only the object it inserts into ("security"); everything else is untouched.
	for (const kept of ['// my theme, keep it', '"ui": {"theme": "GitHub"}, /* inline */', '// picked by hand']) assert.ok(applied.includes(kept), kept);
	assert.deepEqual(parseJsonc(applied), {ui: {theme: 'GitHub'}, security: {folderTrust: {enabled: true}, auth: {selectedType: 'gemini-api-key'}}});
	await undoTakeover('gemini', h.options());
	const undone = h.read(settingsPath);
	assert.deepEqual(parseJsonc(undone), parseJsonc(commented));
	for (const kept of ['// my theme, keep it', '/* inline */', '// picked by hand']) assert.ok(undone.includes(kept), kept);
	await h.close();
});
