import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {applyTakeover, takeoverStatus, undoTakeover} from '../../source/services/takeover/index.js';
import {homes} from './setup.js';
import {listKeys} from '../../source/store/keys.js';

const settingsPath = '.claude/settings.json';

const userSettings = `{
  "permissions": {
    "allow": [
      "Bash(npm test:*)"
    ]
  },
  "env": {
    "DISABLE_TELEMETRY": "1",
    "ANTHROPIC_MODEL": "claude-opus-4"
  },
  "model": "opus",
  "includeCoAuthoredBy": false
}
`;

async function claudeState(h: Awaited<ReturnType<typeof homes>>) {
	return (await takeoverStatus(h.options())).find(status => status.tool === 'claude')!;
}

test('claude: no settings file → apply writes the env block and a new key → undo removes the file again', async () => {
	const h = await homes();
	mkdirSync(join(h.home, '.claude'));
	assert.equal((await claudeState(h)).state, 'not-taken-over');

	const result = await applyTakeover(h.store, 'claude', h.options());
	const [key] = await listKeys(h.store);
	assert.equal(key?.name, 'takeover-claude');
	assert.equal(result.keyName, 'takeover-claude');
	assert.equal(result.keyCreated, true);
	assert.deepEqual(JSON.parse(h.read(settingsPath)), {env: {ANTHROPIC_BASE_URL: 'http://127.0.0.1:11580', ANTHROPIC_AUTH_TOKEN: key!.secret}});
	assert.deepEqual(result.files.map(file => ({backup: file.backup, created: file.created, set: file.set})), [{backup: null, created: true, set: ['env.ANTHROPIC_BASE_URL', 'env.ANTHROPIC_AUTH_TOKEN']}]);
	assert.match(result.warnings.join('\n'), /No model is set/);
	const status = await claudeState(h);
	assert.equal(status.state, 'taken-over');
	assert.equal(status.address, 'http://127.0.0.1:11580');

	const undone = await undoTakeover('claude', h.options());
	assert.equal(undone.recorded, true);
	assert.deepEqual(undone.files, [{path: join(h.home, settingsPath), deleted: true, removed: ['env.ANTHROPIC_BASE_URL', 'env.ANTHROPIC_AUTH_TOKEN'], restored: []}]);
	assert.deepEqual(readdirSync(join(h.home, '.claude')), []);
	assert.equal((await claudeState(h)).state, 'not-taken-over');
	await h.close();
});

test('claude: the user settings are kept in order and indentation, --model sets both models, undo gives the same file back', async () => {
	const h = await homes();
	const file = h.write(settingsPath, userSettings);
	const result = await applyTakeover(h.store, 'claude', h.options({model: 'fast'}));
	const written = h.read(settingsPath);
	const [key] = await listKeys(h.store);
	assert.equal(
		written,
		userSettings.replace(
			'"ANTHROPIC_MODEL": "claude-opus-4"\n',
			`"ANTHROPIC_MODEL": "fast",\n    "ANTHROPIC_BASE_URL": "http://127.0.0.1:11580",\n    "ANTHROPIC_AUTH_TOKEN": "${key!.secret}",\n    "ANTHROPIC_DEFAULT_HAIKU_MODEL": "fast"\n`,
		),
	);
	assert.equal(result.files[0]!.backup, `${file}.bak`);
	assert.equal(h.read(`${settingsPath}.bak`), userSettings);
	assert.deepEqual(result.files[0]!.replaced, ['env.ANTHROPIC_MODEL']);
	assert.equal(result.model, 'fast');
	assert.deepEqual(result.warnings, []);

	const undone = await undoTakeover('claude', h.options());
	assert.equal(h.read(settingsPath), userSettings);
	assert.deepEqual(undone.files[0]!.restored, ['env.ANTHROPIC_MODEL']);
	assert.deepEqual(undone.backups, [`${file}.bak`]);
	assert.ok(existsSync(`${file}.bak`), 'the backup stays');
	await h.close();
});

test('claude: connected elsewhere is not overwritten without --force; with it, undo puts the old address back', async () => {
	const h = await homes();
	const elsewhere = '{\n  "env": {\n    "ANTHROPIC_BASE_URL": "https://llm-proxy.example.com",\n    "ANTHROPIC_AUTH_TOKEN": "corp-token"\n  }\n}\n';
	h.write(settingsPath, elsewhere);
	const status = await claudeState(h);
	assert.equal(status.state, 'connected-elsewhere');
	assert.equal(status.address, 'https://llm-proxy.example.com');

	await assert.rejects(applyTakeover(h.store, 'claude', h.options()), /connected elsewhere \(env\.ANTHROPIC_BASE_URL in .*settings\.json is https:\/\/llm-proxy\.example\.com\)\. Run `gateway-tui takeover apply claude --force`/);
	assert.equal(h.read(settingsPath), elsewhere);
	assert.deepEqual(await listKeys(h.store), [], 'no key is created for a refused takeover');

	const result = await applyTakeover(h.store, 'claude', h.options({force: true}));
	assert.deepEqual(result.files[0]!.replaced, ['env.ANTHROPIC_BASE_URL', 'env.ANTHROPIC_AUTH_TOKEN']);
	assert.equal((await claudeState(h)).state, 'taken-over');
	await undoTakeover('claude', h.options());
	assert.equal(h.read(settingsPath), elsewhere);
	await h.close();
});

test('claude: ANTHROPIC_API_KEY in settings would win: refused, cleared with --force, put back by undo', async () => {
	const h = await homes();
	const withApiKey = '{\n  "env": {\n    "ANTHROPIC_API_KEY": "sk-ant-real"\n  }\n}\n';
	h.write(settingsPath, withApiKey);
	await assert.rejects(applyTakeover(h.store, 'claude', h.options()), /env\.ANTHROPIC_API_KEY in .* would be sent instead of the gateway's key\. Run `gateway-tui takeover apply claude --force` to clear it/);
	assert.equal(h.read(settingsPath), withApiKey);

	const result = await applyTakeover(h.store, 'claude', h.options({force: true}));
	assert.deepEqual(result.files[0]!.cleared, ['env.ANTHROPIC_API_KEY']);
	assert.equal((JSON.parse(h.read(settingsPath)) as {env: Record<string, string>}).env.ANTHROPIC_API_KEY, undefined);
	const undone = await undoTakeover('claude', h.options());
	assert.deepEqual(undone.files[0]!.restored, ['env.ANTHROPIC_API_KEY']);
	assert.equal(h.read(settingsPath), withApiKey);
	await h.close();
});

test('claude: a value changed after the takeover is kept by undo and reported', async () => {
	const h = await homes();
	h.write(settingsPath, '{}\n');
	await applyTakeover(h.store, 'claude', h.options({model: 'gpt-4o'}));
	const edited = JSON.parse(h.read(settingsPath)) as {env: Record<string, string>};
	edited.env.ANTHROPIC_MODEL = 'my-own-model';
	h.write(settingsPath, JSON.stringify(edited, null, 2) + '\n');

	const undone = await undoTakeover('claude', h.options());
	assert.deepEqual(undone.kept, [{path: join(h.home, settingsPath), setting: 'env.ANTHROPIC_MODEL', reason: 'it was changed after the takeover'}]);
	assert.equal(h.read(settingsPath), '{\n  "env": {\n    "ANTHROPIC_MODEL": "my-own-model"\n  }\n}\n');
	await h.close();
});

test('claude: applying twice keeps one backup (mode 0600, no gateway key in it) and the original bytes; the key is reused', async () => {
	const h = await homes();
	const file = h.write(settingsPath, userSettings);
	await applyTakeover(h.store, 'claude', h.options({model: 'fast'}));
	const second = await applyTakeover(h.store, 'claude', h.options({model: 'gpt-4o'}));
	assert.equal(second.keyCreated, false);
	assert.equal((await listKeys(h.store)).length, 1);
	assert.equal(second.files[0]!.backup, null, 'the second apply makes no backup');
	assert.equal(h.read(`${settingsPath}.bak`), userSettings, 'the first backup is never overwritten');
	assert.equal(statSync(`${file}.bak`).mode & 0o777, 0o600);
	assert.deepEqual(readdirSync(join(h.home, '.claude')).sort(), ['settings.json', 'settings.json.bak']);
	const undone = await undoTakeover('claude', h.options());
	assert.equal(h.read(settingsPath), userSettings, 'the bytes from before the first apply come back');
	assert.deepEqual(undone.backups, [`${file}.bak`]);
	await h.close();
});

test('claude: undo gives back a compact env block byte for byte; a file changed since is reverted setting by setting', async () => {
	const h = await homes();
	const compact = '{\n  "theme": "dark",\n  "env": { "FOO": "bar" }\n}\n';
	h.write(settingsPath, compact);
	await applyTakeover(h.store, 'claude', h.options({model: 'fast'}));
	await undoTakeover('claude', h.options());
	assert.equal(h.read(settingsPath), compact);

	await applyTakeover(h.store, 'claude', h.options({model: 'fast'}));
	const edited = JSON.parse(h.read(settingsPath)!) as {theme: string};
	edited.theme = 'light';
	h.write(settingsPath, `${JSON.stringify(edited, null, 2)}\n`);
	await undoTakeover('claude', h.options());
	assert.deepEqual(JSON.parse(h.read(settingsPath)!), {theme: 'light', env: {FOO: 'bar'}}, 'the change made since is kept');
	await h.close();
});

test('claude: malformed settings (JSONC comments, a trailing comma, not an object) are refused with the line, untouched', async () => {
	const h = await homes();
	const cases: [string, RegExp][] = [
		['{\n  "env": {},\n  // my comment\n  "model": "opus"\n}\n', /settings\.json is not valid JSON \(line 3, column 3: a comment; this tool ignores a settings file with comments, remove them\)\. Fix the file and run again; it was left untouched\./],
		['{\n  "model": "opus",\n}\n', /settings\.json is not valid JSON \(line 3, column 1: expected property name\)/],
		['["not", "an", "object"]\n', /must hold one JSON object/],
		['{"env": "oops"}', /"env" is not an object\/table/],
	];
	for (const [text, message] of cases) {
		h.write(settingsPath, text);
		await assert.rejects(applyTakeover(h.store, 'claude', h.options()), message);
		assert.equal(h.read(settingsPath), text);
		assert.deepEqual(readdirSync(join(h.home, '.claude')), ['settings.json'], 'no backup, no temp file');
	}
	assert.deepEqual(await listKeys(h.store), []);
	await h.close();
});

test('claude: not detected → apply creates ~/.claude → undo removes it again', async () => {
	const h = await homes();
	assert.equal((await claudeState(h)).state, 'not-detected');
	await applyTakeover(h.store, 'claude', h.options());
	assert.equal((await claudeState(h)).state, 'taken-over');
	await undoTakeover('claude', h.options());
	assert.equal(existsSync(join(h.home, '.claude')), false);
	assert.equal((await claudeState(h)).state, 'not-detected');
	await h.close();
});

test('claude: re-applying for another gateway port replaces our own earlier address without --force', async () => {
	const h = await homes();
	mkdirSync(join(h.home, '.claude'));
	await applyTakeover(h.store, 'claude', h.options({gatewayUrl: 'http://127.0.0.1:11999'}));
	const moved = await applyTakeover(h.store, 'claude', h.options());
	assert.deepEqual(moved.files[0]!.replaced, ['env.ANTHROPIC_BASE_URL']);
	assert.equal((await claudeState(h)).state, 'taken-over');
	await undoTakeover('claude', h.options());
	assert.deepEqual(readdirSync(join(h.home, '.claude')), ['settings.json.bak'], 'the second apply backed up the first one’s file');
	await h.close();
});
