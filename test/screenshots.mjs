#!/usr/bin/env node
// `npm run screenshots`: drives the real app in tmux with sample data (a temp home, fake providers,
// a few channels and keys, some requests sent with the official SDKs) and writes one SVG per pane
// into screenshots/, rendered from `tmux capture-pane -e -p`. No network, no browser.
import {register} from 'tsx/esm/api';
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

register();
const root = fileURLToPath(new URL('..', import.meta.url));
const {startFakeProvider} = await import('./helpers/fake-providers.ts');
const {anthropicClient, openaiClient} = await import('./helpers/sdks.ts');
const {Store} = await import('../source/store/index.ts');
const {addChannel, setChannelEnabled} = await import('../source/services/channels.ts');
const {createKey, revokeKey} = await import('../source/services/keys.ts');
const {appEnv, hasTmux, startTmux} = await import('./e2e/tmux.ts');
const {ansiToSvg} = await import('./e2e/ansi-svg.ts');

if (!hasTmux()) {
	console.error('npm run screenshots needs tmux (apt-get install tmux / brew install tmux).');
	process.exit(1);
}

const size = {columns: 110, rows: 32};
const home = mkdtempSync(join(tmpdir(), 'gateway-tui-screenshots-'));
const out = join(root, 'screenshots');
mkdirSync(out, {recursive: true});

const openai = await startFakeProvider('openai');
const anthropic = await startFakeProvider('anthropic');
const user = seedUserHome();
// The seeding and the app seal the store's secrets with one master key: a file of this run's own.
process.env.HOME = user;
process.env.GATEWAY_TUI_MASTER_KEY_FILE = join(home, 'master.key');
const keys = await seed();
const tmux = startTmux({dir: home, cwd: root, ...size, env: appEnv({GATEWAY_TUI_HOME: home, GATEWAY_TUI_CLIPBOARD: 'osc52', HOME: user}), command: 'exec node dist/cli.js --port 0'});
try {
	const first = await tmux.waitFor(/● (http:\/\/127\.0\.0\.1:\d+)/, 20_000);
	const url = /● (http:\/\/127\.0\.0\.1:\d+)/.exec(first)[1];
	await traffic(url);
	await shoot('1', /laptop\s.*rpm \d+\/60/, '1-keys', 'Keys pane', 2500);
	await shoot('2', /claude\s+anthropic/, '2-channels', 'Channels pane');
	await shoot('3', /‹ laptop ›/, '3-endpoints', 'Endpoints pane');
	await tmux.keys('c');
	await tmux.waitFor('copied OPENAI_BASE_URL snippet');
	await tmux.keys(...Array.from({length: 7}, () => 'Down'), 'a');
	await shoot(null, /Take over Claude Code[\s\S]*Writes ~\/\.claude\/settings\.json/, '8-takeover-form', 'Endpoints pane: the takeover form (key, model, the lines to be written)');
	await tmux.keys('Enter', 'Enter', 'Enter', 'Enter');
	await shoot(null, /live check\s+answered in \d+ ms[\s\S]*Claude Code now uses the gateway/, '6-takeover', 'Endpoints pane: Claude Code taken over, and its live check');
	await shoot('4', /claude-haiku-4-5/, '4-usage', 'Usage pane: traffic charts, totals and the live request log', 2500);
	await tmux.keys('Down', 'Down');
	await laptopRequest(url);
	await shoot(null, /1 new ↑/, '9-usage-paused', 'Usage pane: the log stays put while the user reads, and counts what arrived');
	// A request's details with its bodies: b turns capture on, the next request is kept.
	await tmux.keys('g', 'Down', 'Enter');
	await tmux.waitFor(/bodies\s+off: press b/);
	await tmux.keys('b');
	await tmux.waitFor(/capture[\s│]+is on for new requests/);
	await tmux.keys('Escape', 'g');
	// Translated (OpenAI in, Anthropic out): the only such row, so it is the newest once it shows.
	await openaiClient(url, keys.laptop.secret).chat.completions.create({model: 'claude-haiku-4-5', messages: [{role: 'user', content: 'Bonjour?'}]});
	await tmux.waitFor(/│ TIME[^\n]*\n│ \S+\s+laptop\s+claude-haiku-4-5\s+claude\s+openai→/);
	await tmux.keys('Down', 'Enter');
	await tmux.waitFor('Request headers');
	await tmux.keys('PageDown');
	await shoot(null, /Request body/, '10-request-details', "Usage pane: a request's details, with the bodies it sent and got (b turns capture on)");
	await tmux.keys('Escape', 'g');
	await tmux.keys('1', 'n');
	await tmux.waitFor('New virtual key');
	await tmux.text('staging');
	await tmux.keys('Enter');
	await tmux.text('the staging deploy');
	await tmux.keys('Enter', 'Space', 'Down', 'Space');
	await shoot(null, /\[x\]/, '5-new-key-form', 'Keys pane: the new-key form');
	// The ci key's limits in its edit form (e), one Tab per field down to them.
	await tmux.keys('Escape', 'j', 'e');
	await tmux.waitFor('Edit key "ci"');
	await tmux.keys('Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Enter', 'Tab', 'Tab', 'Tab', 'Tab');
	await shoot(null, /› Budget USD/, '7-edit-key-limits', 'Keys pane: editing a key\'s limits and budget');
	await tmux.keys('Escape', 'q');
	console.log(`Wrote the screenshots into ${out}`);
} finally {
	tmux.kill();
	await Promise.all([openai.close(), anthropic.close()]);
	rmSync(home, {recursive: true, force: true});
}

async function seed() {
	const store = await Store.open(home);
	await addChannel(store, {name: 'openai', format: 'openai', baseUrl: openai.url, apiKey: openai.apiKey, models: 'gpt-4o-mini,fast=gpt-4o', priority: 10, prices: ['gpt-4o-mini=0.15/0.6/0.075', 'fast=2.5/10/1.25']});
	await addChannel(store, {name: 'claude', format: 'anthropic', baseUrl: anthropic.url, apiKey: anthropic.apiKey, models: 'claude-sonnet-4-5,claude-haiku-4-5', prices: ['claude-sonnet-4-5=3/15/0.3']});
	await addChannel(store, {name: 'ollama', format: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', models: 'llama3.2'});
	await setChannelEnabled(store, 'ollama', false);
	const laptop = await createKey(store, {name: 'laptop', description: 'my laptop', rpm: '60', budget: '20/month'});
	const ci = await createKey(store, {name: 'ci', models: 'gpt-4o-mini', expiresIn: '30d', rpm: '10', tpd: '200000', budget: '5/day', budgetWarn: '90%'});
	await createKey(store, {name: 'old-script'});
	await revokeKey(store, 'old-script');
	await store.close();
	return {laptop, ci};
}

/** The user's own tool settings, in a home of their own: Claude Code and Codex installed, Gemini CLI not. */
function seedUserHome() {
	const user = join(home, 'user');
	mkdirSync(join(user, '.claude'), {recursive: true});
	writeFileSync(join(user, '.claude', 'settings.json'), '{\n  "theme": "dark"\n}\n');
	mkdirSync(join(user, '.codex'), {recursive: true});
	writeFileSync(join(user, '.codex', 'config.toml'), '# my Codex settings\nmodel = "gpt-5-codex"\n');
	return user;
}

async function traffic(url) {
	const laptop = openaiClient(url, keys.laptop.secret);
	const ci = openaiClient(url, keys.ci.secret);
	const claude = anthropicClient(url, keys.laptop.secret);
	for (let index = 0; index < 3; index++) await laptop.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'Hi'}]});
	await ci.chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'Run the tests'}]});
	const stream = await laptop.chat.completions.create({model: 'fast', messages: [{role: 'user', content: 'Stream'}], stream: true});
	for await (const _chunk of stream) {
		// drain
	}
	await claude.messages.create({model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{role: 'user', content: 'Hello'}]});
	await claude.messages.create({model: 'claude-haiku-4-5', max_tokens: 256, messages: [{role: 'user', content: 'Quick one'}]});
	await ci.chat.completions.create({model: 'claude-sonnet-4-5', messages: [{role: 'user', content: 'Not allowed'}]}).catch(() => {});
}

async function laptopRequest(url) {
	await openaiClient(url, keys.laptop.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'One more'}]});
}

async function shoot(key, ready, name, title, settleMs = 300) {
	if (key) await tmux.keys(key);
	await tmux.waitFor(ready);
	await new Promise(resolve => setTimeout(resolve, settleMs));
	writeFileSync(join(out, `${name}.svg`), ansiToSvg(tmux.screen({colors: true}), {...size, title: `gateway-tui: ${title}`}));
	console.log(`screenshots/${name}.svg`);
}
