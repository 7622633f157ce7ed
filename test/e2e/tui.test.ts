/**
 * The real `gateway-tui` (the built dist/cli.js, as the bin runs it) in a real terminal (tmux):
 * switch panes, create a key through the form (typed key by key, and pasted),
 * shrink the terminal below the minimum and back (the form survives),
 * copy a snippet (the app has no display, so it falls back to OSC 52, which tmux turns into its
 * paste buffer), send a request with the OpenAI SDK and watch it arrive in the live log, quit with
 * q and find the terminal back on its normal screen.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import stringWidth from 'string-width';
import {addChannel} from '../../source/services/channels.js';
import {Store} from '../../source/store/index.js';
import {startFakeProvider} from '../helpers/fake-providers.js';
import {tempHome} from '../helpers/gateway.js';
import {openaiClient} from '../helpers/sdks.js';
import {appEnv, hasTmux, startTmux} from './tmux.js';
import {listKeys} from '../../source/store/keys.js';
import {createKey} from '../../source/services/keys.js';
import {recentRequests} from '../../source/store/usage-summary.js';
import {assertAllStored, crashHome, faultFile, trafficUntil} from '../helpers/crash-traffic.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('gateway-tui end to end in tmux', {skip: hasTmux() ? false : 'tmux is not installed (apt-get install tmux)', timeout: 30_000}, async () => {
	const provider = await startFakeProvider('openai');
	const home = tempHome();
	const store = await Store.open(home);
	await addChannel(store, {name: 'fake', format: 'openai', baseUrl: provider.url, apiKey: provider.apiKey, models: 'gpt-4o-mini'});
	await store.close();
	const output = join(home, 'terminal-output.bin');
	// The exit status, written by the shell: tmux (3.3) may mark the pane dead long before it collects the status.
	const exitFile = join(home, 'exit-status');
	const tmux = startTmux({dir: home, cwd: root, columns: 120, rows: 40, env: appEnv({GATEWAY_TUI_HOME: home}), command: `node dist/cli.js --port 0; echo $? > '${exitFile}'`});
	try {
		// Every byte the app writes to the terminal, to check the escape sequences themselves.
		tmux.run('pipe-pane', '-o', `cat >> '${output}'`);
		const first = await tmux.waitFor(/Virtual keys[\s\S]*● http:\/\/127\.0\.0\.1:\d+/, 15_000);
		const url = /● (http:\/\/127\.0\.0\.1:\d+)/.exec(first)![1]!;
		// A channel and no key yet: the first status line says what to do next.
		assert.match(first, /No virtual keys yet: press n to create one for your tools/);

		await tmux.keys('2');
		await tmux.waitFor(/fake\s+openai\s+http:\/\/127\.0\.0\.1:\d+\S*\s+gpt-4o-mini\s+on\s+0\s+healthy/);
		await tmux.keys('3');
		await tmux.waitFor('no keys yet: press 1, then n to create one');

		await tmux.keys('1', 'n');
		await tmux.waitFor('New virtual key');
		// Typed as a person does, one key at a time: nothing may be lost or land in another field.
		await tmux.keys(...'e2e-key', 'Enter');
		// A paste that ends with Enter, then four quick Enters (models, channels, expiry, limits): each arrives as one chunk.
		await tmux.text('made in tmux\r');
		tmux.run('send-keys', 'Enter', 'Enter', 'Enter', 'Enter');
		const filled = /Name\s+e2e-key\s[\s\S]*Description\s+made in tmux\s[\s\S]*Expires\s+never[\s\S]*Limits\s+none[\s\S]*Enter submits/;
		await tmux.waitFor(filled);
		// Too small for a moment (a split, a font change): the form waits, filled in, until there is room again.
		tmux.run('resize-window', '-x', '50', '-y', '14');
		await tmux.waitFor(/needs at least 60×17 \(this terminal:\s+50×14\)[\s\S]*what you were doing is kept/);
		tmux.run('resize-window', '-x', '120', '-y', '40');
		await tmux.waitFor(filled);
		await tmux.keys('Enter');
		const created = await tmux.waitFor('Key "e2e-key" created');
		const secret = /sk-gtui-[\w-]{43}/.exec(created)![0];

		await tmux.keys('3');
		await tmux.waitFor(/‹ e2e-key ›/);
		await tmux.keys('c');
		await tmux.waitFor(/copied OPENAI_BASE_URL snippet via the terminal \(OSC 52/);
		const snippet = `export OPENAI_BASE_URL='${url}/v1'\nexport OPENAI_API_KEY='${secret}'`;
		assert.equal(tmux.run('show-buffer'), snippet, 'tmux received the snippet through OSC 52');
		assert.ok(readFileSync(output, 'latin1').includes(`\u001B]52;c;${Buffer.from(snippet).toString('base64')}\u0007`), 'the OSC 52 sequence was written');

		const answer = await openaiClient(url, secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'Hi'}]});
		assert.equal(answer.choices[0]!.message.content, 'Hello from fake-openai');
		await tmux.keys('4');
		await tmux.waitFor(/\d\d:\d\d:\d\d\s+e2e-key\s+gpt-4o-mini\s+fake\s+openai\s+200\s+\d+ms\s+11\/7/);
		await tmux.waitFor(/● http:\/\/127\.0\.0\.1:\d+\s+·\s+1 request today\s+·/);

		await tmux.keys('q');
		const deadline = Date.now() + 8000;
		while (!existsSync(exitFile) || readFileSync(exitFile, 'utf8') === '') {
			assert.ok(Date.now() < deadline, 'the app did not exit after q');
			await new Promise(resolve => setTimeout(resolve, 50));
		}
		assert.equal(readFileSync(exitFile, 'utf8').trim(), '0', 'exit 0');
		assert.equal(tmux.run('display', '-p', '#{alternate_on}').trim(), '0', 'back on the normal screen');
		const bytes = readFileSync(output, 'latin1');
		const left = bytes.lastIndexOf('\u001B[?1049l');
		assert.ok(left > bytes.lastIndexOf('\u001B[?1049h'), 'the alternate screen was left last');
		assert.ok(bytes.indexOf('\u001B[?25h', left) > left && !bytes.slice(left).includes('\u001B[?25l'), 'the cursor is shown again');
		const reopened = await Store.open(home);
		const [stored] = await listKeys(reopened);
		await reopened.close();
		assert.deepEqual([stored!.name, stored!.description, stored!.secret], ['e2e-key', 'made in tmux', secret]);
		assert.ok(existsSync(join(home, 'gateway-tui.log')));
		assert.match(readFileSync(join(home, 'gateway-tui.log'), 'utf8'), /request .* 200 +POST \/v1\/chat\/completions +openai +key=e2e-key/);
	} catch (error) {
		process.stderr.write(`screen at failure:\n${tmux.screen()}\n`);
		throw error;
	} finally {
		await tmux.stop();
		await provider.close();
		rmSync(home, {recursive: true, force: true});
	}
});

test('gateway-tui quit while an answer streams: the request is in the log as cut off by the stop, and the normal screen says so', {skip: hasTmux() ? false : 'tmux is not installed (apt-get install tmux)', timeout: 30_000}, async () => {
	const provider = await startFakeProvider('openai');
	// 100 chunks 200 ms apart: still streaming when q is pressed.
	provider.enqueue({text: 'one two three four five six seven eight nine ten', chunks: 100, chunkDelayMs: 200});
	const home = tempHome();
	const store = await Store.open(home);
	await addChannel(store, {name: 'fake', format: 'openai', baseUrl: provider.url, apiKey: provider.apiKey, models: 'gpt-4o-mini'});
	const key = await createKey(store, {name: 'quit'});
	await store.close();
	const exitFile = join(home, 'exit-status');
	const tmux = startTmux({dir: home, cwd: root, columns: 100, rows: 30, env: appEnv({GATEWAY_TUI_HOME: home}), command: `node dist/cli.js --port 0; echo $? > '${exitFile}'`});
	try {
		const first = await tmux.waitFor(/● (http:\/\/127\.0\.0\.1:\d+)/, 15_000);
		const url = /● (http:\/\/127\.0\.0\.1:\d+)/.exec(first)![1]!;
		const stream = await openaiClient(url, key.secret).chat.completions.create({model: 'gpt-4o-mini', messages: [{role: 'user', content: 'count'}], stream: true});
		const chunks = stream[Symbol.asyncIterator]();
		assert.equal((await chunks.next()).done, false, 'a first chunk');
		const ended = (async () => {
			try {
				while (!(await chunks.next()).done);
				return 'ended';
			} catch (error) {
				return (error as Error).name;
			}
		})();
		await tmux.keys('q');
		const deadline = Date.now() + 10_000;
		while (!existsSync(exitFile) || readFileSync(exitFile, 'utf8') === '') {
			assert.ok(Date.now() < deadline, `the app did not exit; the screen:\n${tmux.screen()}`);
			await new Promise(resolve => setTimeout(resolve, 50));
		}
		assert.equal(readFileSync(exitFile, 'utf8').trim(), '0');
		// The client's answer was cut (the SDK's fetch: "terminated"), not finished.
		assert.equal(await ended, 'TypeError');
		const screen = tmux.run('capture-pane', '-p', '-S', '-50').replace(/\n/g, '');
		assert.match(screen, /warning: stopped with 1 request in flight: its answer was cut off \(in the request log as aborted\)/);
		assert.match(readFileSync(join(home, 'gateway-tui.log'), 'utf8'), / warning stopped with 1 request in flight: its answer was cut off/);
		const saved = await Store.open(home);
		try {
			const [record] = await recentRequests(saved, 5);
			assert.deepEqual([record?.outcome, record?.stream, record?.error], ['aborted', true, 'the gateway stopped before the answer was complete (its connections closed)']);
		} finally {
			await saved.close();
		}
	} finally {
		await tmux.stop();
		await provider.close();
		rmSync(home, {recursive: true, force: true});
	}
});

test('gateway-tui on a store sealed with another master key says which key to give, on the normal screen, and exits 1', {skip: hasTmux() ? false : 'tmux is not installed (apt-get install tmux)', timeout: 20_000}, async () => {
	const home = tempHome();
	const store = await Store.open(home);
	await addChannel(store, {name: 'sealed', format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-real-sealed-0123456789', models: 'gpt-4o-mini'});
	await store.close();
	const exitFile = join(home, 'exit-status');
	// Another master key than the suite's (a restored backup, another user's HOME): it once aborted the process from the core's worker.
	const tmux = startTmux({dir: home, cwd: root, columns: 100, rows: 30, env: appEnv({GATEWAY_TUI_HOME: home, GATEWAY_TUI_MASTER_KEY: 'not the key that sealed this store'}), command: `node dist/cli.js --port 0 2>&1; echo $? > '${exitFile}'`});
	try {
		const deadline = Date.now() + 10_000;
		while (!existsSync(exitFile) || readFileSync(exitFile, 'utf8') === '') {
			assert.ok(Date.now() < deadline, `the app did not exit; the screen:\n${tmux.screen()}`);
			await new Promise(resolve => setTimeout(resolve, 50));
		}
		assert.equal(readFileSync(exitFile, 'utf8').trim(), '1');
		await tmux.waitFor(/Nothing was changed\./);
		// With its scrollback: the pane's end ("Pane is dead") may scroll the first line off the screen.
		const screen = tmux.run('capture-pane', '-p', '-S', '-50').replace(/\n/g, '');
		assert.match(screen, /gateway-tui: The store's secrets were sealed with another master key than the one this gateway has \(from GATEWAY_TUI_MASTER_KEY\)\. Give it the key the store was written with/);
		assert.doesNotMatch(screen, /FATAL|Aborted|napi/);
		assert.equal(tmux.run('display', '-p', '#{alternate_on}').trim(), '0', 'never left the normal screen');
	} finally {
		await tmux.stop();
		rmSync(home, {recursive: true, force: true});
	}
});

test('gateway-tui crashing under traffic closes its core first: the error on the normal screen, exit 1, every answered request stored', {skip: hasTmux() ? false : 'tmux is not installed (apt-get install tmux)', timeout: 30_000}, async () => {
	const setup = await crashHome();
	const exitFile = join(setup.home, 'exit-status');
	// The fault is thrown on the TUI's own thread with the core busy: exiting at once ended the worker
	// with a store call in flight (SIGABRT, usage lost). `--import` reaches the core's worker too, so its
	// own crash handler closes the gateway while the TUI's shutdown is closing it: a second close that
	// answered at once let that handler end the worker mid-close (SIGABRT, in full runs under load).
	// Which thread's fault fires first is the host's timing (the worker's, now and then, under load):
	// either way the message is the fault's own, once (a core's crash read "Error: Error: …").
	const tmux = startTmux({dir: setup.home, cwd: root, columns: 120, rows: 40, env: appEnv({GATEWAY_TUI_HOME: setup.home, GATEWAY_TUI_TEST_FAULT_FILE: faultFile(setup.home)}), command: `node --import ./test/helpers/fault-after.mjs dist/cli.js --port 0 2>&1; echo $? > '${exitFile}'`});
	try {
		const first = await tmux.waitFor(/● (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
		const url = /● (http:\/\/127\.0\.0\.1:\d+)/.exec(first)![1]!;
		const exited = () => existsSync(exitFile) && readFileSync(exitFile, 'utf8') !== '';
		const served = await trafficUntil(url, setup.secret, exited, faultFile(setup.home));
		const deadline = Date.now() + 10_000;
		while (!exited()) {
			assert.ok(Date.now() < deadline, `the app did not exit; the screen:\n${tmux.screen()}`);
			await new Promise(resolve => setTimeout(resolve, 50));
		}
		// With its scrollback: the stack trace scrolls the first line off the screen.
		const screen = tmux.run('capture-pane', '-p', '-S', '-200');
		// Another status (134 once, a SIGABRT, in a full run under load) shows what the process printed on its way out.
		assert.equal(readFileSync(exitFile, 'utf8').trim(), '1', `the exit status; the screen:\n${screen}`);
		assert.match(screen, /gateway-tui crashed: Error: a fault injected by the test/);
		assert.doesNotMatch(screen, /FATAL|Aborted|napi|Error: Error/);
		assert.equal(tmux.run('display', '-p', '#{alternate_on}').trim(), '0', 'back on the normal screen');
		await assertAllStored(setup.home, served);
	} finally {
		await tmux.stop();
		await setup.close();
	}
});

test('gateway-tui starts the core\'s worker before it loads the UI\'s code, so the two start side by side', {skip: hasTmux() ? false : 'tmux is not installed (apt-get install tmux)', timeout: 20_000}, async () => {
	const home = tempHome();
	const loads = join(home, 'loads.txt');
	// Every ES module the app loads, in order (of dist/, the files' source maps say what is in them).
	const tmux = startTmux({dir: home, cwd: root, columns: 100, rows: 30, env: appEnv({GATEWAY_TUI_HOME: home, RECORD_LOADS_FILE: loads}), command: `node --import ./test/helpers/record-loads.mjs dist/cli.js --port 0`});
	try {
		await tmux.waitFor(/● http:\/\/127\.0\.0\.1:\d+/, 15_000);
		await tmux.keys('q');
		const files = readFileSync(loads, 'utf8').split('\n').filter(url => url.startsWith(`file://${root}dist/`)).map(url => fileURLToPath(url));
		const holding = (source: string) => files.findIndex(file => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as {sources: string[]}).sources.some(item => item.includes(source)));
		// start-core.ts starts the worker as soon as it is loaded; Ink comes with the UI's code, after.
		const starter = holding('source/ui/start-core.ts');
		const ink = holding('node_modules/ink/');
		assert.ok(starter >= 0 && ink >= 0, `both were loaded: ${files.join(', ')}`);
		assert.ok(starter < ink, `the worker's starter (#${starter}) was loaded before Ink (#${ink})`);
		assert.ok(files.some(file => file.endsWith(join('dist', 'worker.cjs'))), 'the worker ran');
	} finally {
		await tmux.stop();
		rmSync(home, {recursive: true, force: true});
	}
});

test('gateway-tui compiles its UI (dist/run.cjs) and its core\'s worker (dist/worker.cjs) from the code caches its first start wrote, and draws the same screen from them', {skip: hasTmux() ? false : 'tmux is not installed (apt-get install tmux)', timeout: 40_000}, async () => {
	const home = tempHome();
	const cache = join(home, 'code-cache');
	const record = join(home, 'compiles.txt');
	const env = appEnv({GATEWAY_TUI_HOME: home, GATEWAY_TUI_CODE_CACHE: cache, NODE_OPTIONS: `--import ${join(root, 'test/helpers/record-compiles.mjs')}`, RECORD_COMPILES_FILE: record});
	// A key whose name is wide (two columns a character): measured by the string-width package, which the UI's bundle evaluates on its first call.
	const store = await Store.open(home);
	await createKey(store, {name: '東京 laptop'});
	await store.close();
	const bundleCaches = () => (existsSync(cache) ? readdirSync(cache).filter(name => /^(run|worker)\.cjs\.[0-9a-f]{32}\.bin$/.test(name)) : []);
	const screens: string[] = [];
	try {
		for (const start of ['first', 'second']) {
			const tmux = startTmux({dir: home, cwd: root, columns: 100, rows: 30, env, command: 'node dist/cli.js --port 0'});
			try {
				screens.push((await tmux.waitFor(/Virtual keys[\s\S]*● http:\/\/127\.0\.0\.1:\d+.*channels healthy/, 15_000)).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT'));
				// Written a second after the UI's script ran: after the first frame.
				for (const deadline = Date.now() + 10_000; bundleCaches().length < 2; ) {
					assert.ok(Date.now() < deadline, `the ${start} start did not write both caches`);
					await new Promise(resolve => setTimeout(resolve, 50));
				}
				await tmux.keys('q');
			} finally {
				await tmux.stop();
			}
		}
		assert.equal(bundleCaches().length, 2, 'one cache each, written once');
		const compiles = readFileSync(record, 'utf8').trim().split('\n').map(line => JSON.parse(line) as {filename: string; cachedData: boolean; rejected: boolean});
		for (const bundle of ['run.cjs', 'worker.cjs']) {
			const compiled = compiles.filter(item => item.filename === join(root, 'dist', bundle)).map(({cachedData, rejected}) => ({cachedData, rejected}));
			assert.deepEqual(compiled, [{cachedData: false, rejected: false}, {cachedData: true, rejected: false}], `${bundle}: compiled from its source, then from the cache`);
		}
		assert.equal(screens[1], screens[0]);
		const lines = screens[0]!.split('\n');
		const row = lines.find(line => line.includes('東京 laptop'));
		assert.ok(row, `the key is listed:\n${screens[0]}`);
		assert.equal(stringWidth(row), stringWidth(lines.find(line => line.startsWith('╭'))!), `its row is as wide as the pane's border:\n${screens[0]}`);
		assert.ok(row.trimEnd().endsWith('│'), row);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('gateway-tui copies to the system clipboard where there is one (clipboardy, loaded by the UI through tui.js)', {skip: hasTmux() ? false : 'tmux is not installed (apt-get install tmux)', timeout: 30_000}, async () => {
	const home = tempHome();
	const store = await Store.open(home);
	const {secret} = await createKey(store, {name: 'laptop'});
	await store.close();
	// A display, and an xsel on the PATH that keeps what it is given (clipboardy's first choice on X11).
	const bin = join(home, 'bin');
	const clipboard = join(home, 'clipboard.txt');
	mkdirSync(bin);
	writeFileSync(join(bin, 'xsel'), `#!/bin/sh\ncat > '${clipboard}'\n`);
	chmodSync(join(bin, 'xsel'), 0o755);
	const env = {...appEnv({GATEWAY_TUI_HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}`}), DISPLAY: ':0'};
	const tmux = startTmux({dir: home, cwd: root, columns: 100, rows: 30, env, command: 'node dist/cli.js --port 0'});
	try {
		const first = await tmux.waitFor(/Virtual keys[\s\S]*● http:\/\/127\.0\.0\.1:\d+/, 15_000);
		const url = /● (http:\/\/127\.0\.0\.1:\d+)/.exec(first)![1]!;
		await tmux.keys('3');
		await tmux.waitFor(/‹ laptop ›/);
		await tmux.keys('c');
		const copied = await tmux.waitFor(/copied OPENAI_BASE_URL snippet/);
		assert.doesNotMatch(copied, /via the terminal/, 'the system clipboard, not OSC 52');
		assert.equal(readFileSync(clipboard, 'utf8'), `export OPENAI_BASE_URL='${url}/v1'\nexport OPENAI_API_KEY='${secret}'`);
		await tmux.keys('q');
	} catch (error) {
		process.stderr.write(`screen at failure:\n${tmux.screen()}\n`);
		throw error;
	} finally {
		await tmux.stop();
		rmSync(home, {recursive: true, force: true});
	}
});

test('gateway-tui draws its first frame before its core listens: the status bar says it is starting, the keys work, and the address follows', {skip: hasTmux() ? false : 'tmux is not installed (apt-get install tmux)', timeout: 30_000}, async () => {
	const home = tempHome();
	const listenNow = join(home, 'listen-now');
	// The core's worker is held before it listens (hold-listen.mjs) for as long as the test needs.
	const tmux = startTmux({dir: home, cwd: root, columns: 100, rows: 30, env: appEnv({GATEWAY_TUI_HOME: home, GATEWAY_TUI_TEST_HOLD_FILE: listenNow}), command: `node --import ./test/helpers/hold-listen.mjs dist/cli.js --port 0`});
	try {
		const first = await tmux.waitFor('starting the gateway…', 15_000);
		assert.match(first, /1 Keys/);
		assert.match(first, /No channels yet: press 2/);
		assert.doesNotMatch(first, /● http:\/\/127\.0\.0\.1:\d+/);
		// A pane switch while the core is held: the screen is the user's already.
		await tmux.keys('2');
		const channels = await tmux.waitFor(/No channels yet\. Press n/);
		assert.match(channels, /starting the gateway…/);
		writeFileSync(listenNow, '');
		const listening = await tmux.waitFor(/● http:\/\/127\.0\.0\.1:\d+/, 15_000);
		assert.doesNotMatch(listening, /starting the gateway/);
		await tmux.keys('q');
	} finally {
		await tmux.stop();
		rmSync(home, {recursive: true, force: true});
	}
});
