import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, statSync, chmodSync} from 'node:fs';
import {join} from 'node:path';
import {parse} from '@decimalturn/toml-patch';
import {applyTakeover, takeoverStatus, undoTakeover} from '../../source/services/takeover/index.js';
import {homes, type Homes} from './setup.js';
import {listKeys} from '../../source/store/keys.js';

const configPath = '.codex/config.toml';

const userConfig = `# Codex, as I like it
model = "gpt-5-codex" # the default I use
approval_policy = "on-request"

[model_providers.ollama] # a local one
name = "Ollama"
base_url = "http://localhost:11434/v1"

# MCP servers
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]   # pinned elsewhere
`;

async function codexState(h: Homes) {
	return (await takeoverStatus(h.options())).find(status => status.tool === 'codex')!;
}

test('codex: no config.toml → apply writes the provider section → undo removes the file', async () => {
	const h = await homes();
	mkdirSync(join(h.home, '.codex'));
	const result = await applyTakeover(h.store, 'codex', h.options({model: 'fast'}));
	const [key] = await listKeys(h.store);
	assert.equal(key!.name, 'takeover-codex');
	assert.equal(
		h.read(configPath),
		`model_provider = "gateway-tui"\nmodel = "fast"\n\n[model_providers.gateway-tui]\nname = "gateway-tui"\nbase_url = "http://127.0.0.1:11580/v1"\nwire_api = "responses"\nexperimental_bearer_token = "${key!.secret}"\n`,
	);
	assert.equal(statSync(join(h.home, configPath)).mode & 0o777, 0o600, 'a new file holding a key is private');
	assert.equal(result.files[0]!.created, true);
	const status = await codexState(h);
	assert.deepEqual({state: status.state, address: status.address, model: status.model}, {state: 'taken-over', address: 'http://127.0.0.1:11580/v1', model: 'fast'});

	await undoTakeover('codex', h.options());
	assert.deepEqual(readdirSync(join(h.home, '.codex')), []);
	assert.equal((await codexState(h)).state, 'not-taken-over');
	await h.close();
});

test('codex: comments, order and formatting are kept; undo gives the same bytes back; the file mode is kept', async () => {
	const h = await homes();
	const file = h.write(configPath, userConfig);
	chmodSync(file, 0o640);
	const result = await applyTakeover(h.store, 'codex', h.options({model: 'gpt-4o'}));
	const [key] = await listKeys(h.store);
	const written = h.read(configPath);
	assert.equal(
		written,
		userConfig.replace('model = "gpt-5-codex" # the default I use\napproval_policy = "on-request"\n', 'model = "gpt-4o" # the default I use\napproval_policy = "on-request"\nmodel_provider = "gateway-tui"\n') +
			`\n[model_providers.gateway-tui]\nname = "gateway-tui"\nbase_url = "http://127.0.0.1:11580/v1"\nwire_api = "responses"\nexperimental_bearer_token = "${key!.secret}"\n`,
	);
	const parsed = parse(written) as {model_providers: Record<string, unknown>};
	assert.deepEqual(Object.keys(parsed.model_providers), ['ollama', 'gateway-tui']);
	assert.equal(statSync(file).mode & 0o777, 0o640);
	assert.equal(h.read(`${configPath}.bak`), userConfig);
	assert.deepEqual(result.files[0]!.replaced, ['model']);

	await undoTakeover('codex', h.options());
	assert.equal(h.read(configPath), userConfig);
	assert.equal(statSync(file).mode & 0o777, 0o640);
	await h.close();
});

test('codex: another provider is connected elsewhere: refused without --force; forced, and undone', async () => {
	const h = await homes();
	const elsewhere = 'model_provider = "corp"\n\n[model_providers.corp]\nname = "Corp proxy"\nbase_url = "https://llm.corp.example/v1"\nenv_key = "CORP_KEY"\n';
	h.write(configPath, elsewhere);
	const status = await codexState(h);
	assert.deepEqual({state: status.state, address: status.address}, {state: 'connected-elsewhere', address: 'https://llm.corp.example/v1'});
	await assert.rejects(applyTakeover(h.store, 'codex', h.options()), /Codex is connected elsewhere \(model_providers\.corp\.base_url in .*config\.toml is https:\/\/llm\.corp\.example\/v1\)/);
	assert.equal(h.read(configPath), elsewhere);

	await applyTakeover(h.store, 'codex', h.options({force: true}));
	assert.match(h.read(configPath), /^model_provider = "gateway-tui"\n\n\[model_providers\.corp\]\nname = "Corp proxy"/);
	const undone = await undoTakeover('codex', h.options());
	assert.deepEqual(undone.files[0]!.restored, ['model_provider']);
	assert.equal(h.read(configPath), elsewhere);
	await h.close();
});

test('codex: $CODEX_HOME is used instead of ~/.codex', async () => {
	const h = await homes();
	const codexHome = join(h.root, 'elsewhere-codex');
	mkdirSync(codexHome);
	const options = h.options({env: {CODEX_HOME: codexHome}});
	await applyTakeover(h.store, 'codex', options);
	assert.ok(existsSync(join(codexHome, 'config.toml')));
	assert.equal(existsSync(join(h.home, '.codex')), false);
	const [status] = (await takeoverStatus(options)).filter(item => item.tool === 'codex');
	assert.equal(status!.state, 'taken-over');
	assert.deepEqual(status!.files, [join(codexHome, 'config.toml')]);
	await undoTakeover('codex', options);
	assert.equal(existsSync(join(codexHome, 'config.toml')), false);
	await h.close();
});

test('codex: malformed TOML is refused with its line and left untouched', async () => {
	const h = await homes();
	const cases: [string, RegExp][] = [
		['model = "gpt-5"\nmodel = "o3"\n', /config\.toml is not valid TOML \(line 2, column 1: Value already defined for model\)\. Fix the file and run again; it was left untouched\./],
		['[mcp_servers.x]\ncommand = "npx\n', /config\.toml is not valid TOML \(line 2, column \d+: Newline \(0x0A\) not allowed in basic strings\)/],
		['model_providers = "oops"\n', /"model_providers" is not an object\/table/],
	];
	for (const [text, message] of cases) {
		h.write(configPath, text);
		await assert.rejects(applyTakeover(h.store, 'codex', h.options()), message);
		assert.equal(h.read(configPath), text);
		assert.deepEqual(readdirSync(join(h.home, '.codex')), ['config.toml']);
	}
	await h.close();
});

test('codex: a user table the library would render inline still gives valid TOML', async () => {
	const h = await homes();
	const inline = 'model_providers = { ollama = { name = "Ollama", base_url = "http://localhost:11434/v1" } }\n';
	h.write(configPath, inline);
	await applyTakeover(h.store, 'codex', h.options());
	const parsed = parse(h.read(configPath)) as {model_provider: string; model_providers: Record<string, {base_url: string}>};
	assert.equal(parsed.model_provider, 'gateway-tui');
	assert.equal(parsed.model_providers['gateway-tui']!.base_url, 'http://127.0.0.1:11580/v1');
	assert.equal(parsed.model_providers.ollama!.base_url, 'http://localhost:11434/v1');
	await undoTakeover('codex', h.options());
	assert.deepEqual(parse(h.read(configPath)), parse(inline));
	await h.close();
});

test('codex: without a record (a lost data directory), undo removes only what points at the gateway', async () => {
	const h = await homes();
	h.write(configPath, userConfig);
	await applyTakeover(h.store, 'codex', h.options());
	const other = await homes({channel: false});
	const undone = await undoTakeover('codex', {...h.options(), dataDir: other.dataDir});
	assert.equal(undone.recorded, false);
	assert.match(undone.warnings.join('\n'), /No record of the takeover was found .* earlier versions are in .*config\.toml\.bak/);
	assert.equal(h.read(configPath), userConfig);
	await assert.rejects(undoTakeover('codex', {...h.options(), dataDir: other.dataDir}), /Nothing to undo: Codex does not point at the gateway/);
	await other.close();
	await h.close();
});

test('codex: new root keys go after the last root key, never between a table and its comment; undo gives the same bytes back', async () => {
	const provider = (secret: string) => `\n[model_providers.gateway-tui]\nname = "gateway-tui"\nbase_url = "http://127.0.0.1:11580/v1"\nwire_api = "responses"\nexperimental_bearer_token = "${secret}"\n`;
	const cases: Array<{config: string; applied: string}> = [
		{
			// The comment above [analytics] is the table's: the library would put model_provider under it, and undo took it away.
			config: '# mine\napproval_policy = "never"\n\n# no analytics, no plugin sync\n[analytics]\nenabled = false\n',
			applied: '# mine\napproval_policy = "never"\nmodel_provider = "gateway-tui"\nmodel = "gpt-4o"\n\n# no analytics, no plugin sync\n[analytics]\nenabled = false\n',
		},
		{
			// No root key: after the file's own header comment.
			config: '# My Codex config\n\n# no analytics\n[analytics]\nenabled = false\n',
			applied: '# My Codex config\n\nmodel_provider = "gateway-tui"\nmodel = "gpt-4o"\n# no analytics\n[analytics]\nenabled = false\n',
		},
		{
			// No root key and no header comment: at the top.
			config: '# no analytics\n[analytics]\nenabled = false\n',
			applied: 'model_provider = "gateway-tui"\nmodel = "gpt-4o"\n# no analytics\n[analytics]\nenabled = false\n',
		},
	];
	for (const {config, applied} of cases) {
		const h = await homes();
		h.write(configPath, config);
		await applyTakeover(h.store, 'codex', h.options({model: 'gpt-4o'}));
		const [key] = await listKeys(h.store);
		assert.equal(h.read(configPath), applied + provider(key!.secret));
		await undoTakeover('codex', h.options());
		assert.equal(h.read(configPath), config);
		await h.close();
	}
});
