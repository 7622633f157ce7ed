/**
 * The master key in a real Secret Service: a private D-Bus session bus and an unlocked GNOME Keyring
 * (started here in a temp HOME, stopped after), reached through the real `secret-tool` — by our code
 * in-process and by the built CLI. Skipped, with the reason, where those packages are missing
 * (apt-get install libsecret-tools gnome-keyring dbus).
 */
import {after, before, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {runCli} from '../helpers/cli.js';
import {Store} from '../../source/store/index.js';
import {listKeys} from '../../source/store/keys.js';
import {commandRunner, systemKeychain} from '../../source/store/keychain.js';
import {Sealer, defaultKeyFile, keychainMarker, loadSealer} from '../../source/store/sealing.js';

function which(binary: string): boolean {
	return spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;
}

const needed = ['secret-tool', 'gnome-keyring-daemon', 'dbus-daemon'].filter(binary => !which(binary));
const skip =
	process.platform !== 'linux'
		? 'the Secret Service tests run on Linux'
		: needed.length > 0
			? `${needed.join(', ')} not installed (apt-get install libsecret-tools gnome-keyring dbus); Secret Service keychain tests skipped`
			: false;

type Session = {readonly env: NodeJS.ProcessEnv; readonly dir: string; keyring(): Promise<void>; stop(): Promise<void>};

function exited(child: ChildProcess): Promise<void> {
	return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise(resolve => child.once('exit', () => resolve()));
}

/**
 * A private session bus (no service activation: nothing starts behind the test's back) in a temp
 * HOME/XDG tree; `keyring()` starts an unlocked gnome-keyring-daemon on it and waits until the Secret
 * Service answers.
 */
async function session(): Promise<Session> {
	const dir = mkdtempSync(join(tmpdir(), 'gateway-tui-secret-service-'));
	const paths = {HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), XDG_CACHE_HOME: join(dir, 'cache'), XDG_RUNTIME_DIR: join(dir, 'run')};
	for (const path of Object.values(paths)) mkdirSync(path, {recursive: true, mode: 0o700});
	const config = join(dir, 'bus.conf');
	writeFileSync(
		config,
		`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=${paths.XDG_RUNTIME_DIR}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
`,
	);
	const children: ChildProcess[] = [];
	const bus = spawn('dbus-daemon', ['--config-file', config, '--nofork', '--print-address=1'], {stdio: ['ignore', 'pipe', 'ignore']});
	children.push(bus);
	const address = await new Promise<string>((resolve, reject) => {
		let seen = '';
		bus.stdout!.on('data', (chunk: Buffer) => {
			seen += chunk.toString();
			if (seen.includes('\n')) resolve(seen.split('\n')[0]!.trim());
		});
		bus.once('exit', code => reject(new Error(`dbus-daemon exited (${code})`)));
	});
	const {DISPLAY: _display, WAYLAND_DISPLAY: _wayland, GATEWAY_TUI_MASTER_KEY_FILE: _file, GATEWAY_TUI_MASTER_KEY: _key, GATEWAY_TUI_MASTER_KEY_STORE: _store, ...inherited} = process.env;
	// Empty, not absent: runCli lays this over its own environment, where test/run.mjs set a key file.
	const env: NodeJS.ProcessEnv = {...inherited, ...paths, DBUS_SESSION_BUS_ADDRESS: address, GATEWAY_TUI_MASTER_KEY_FILE: '', GATEWAY_TUI_MASTER_KEY: '', GATEWAY_TUI_MASTER_KEY_STORE: ''};
	const stop = async () => {
		for (const child of children.reverse()) {
			child.kill('SIGTERM');
			await exited(child);
		}
		rmSync(dir, {recursive: true, force: true});
	};
	const keyring = async () => {
		const daemon = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {env, stdio: ['pipe', 'ignore', 'ignore']});
		children.push(daemon);
		daemon.stdin!.end('test keyring password');
		for (const until = Date.now() + 15_000; Date.now() < until; await new Promise(resolve => setTimeout(resolve, 100))) {
			const probe = spawnSync('secret-tool', ['lookup', 'service', 'probe', 'account', 'probe'], {env, encoding: 'utf8', timeout: 5000});
			if (probe.status === 1 && probe.stderr.trim() === '') return;
		}
		throw new Error('gnome-keyring-daemon did not answer on the test bus');
	};
	return {env, dir, keyring, stop};
}

/** What a user would see with `secret-tool lookup`: the entry's text, or null. */
function lookup(env: NodeJS.ProcessEnv): string | null {
	const found = spawnSync('secret-tool', ['lookup', 'service', 'gateway-tui', 'account', 'master-key'], {env, encoding: 'utf8', timeout: 5000});
	return found.status === 0 ? found.stdout : null;
}

function store(env: NodeJS.ProcessEnv, secret: string): void {
	const stored = spawnSync('secret-tool', ['store', '--label', 'test', 'service', 'gateway-tui', 'account', 'master-key'], {env, input: secret, encoding: 'utf8', timeout: 5000});
	assert.equal(stored.status, 0, stored.stderr);
}

function clear(env: NodeJS.ProcessEnv): void {
	spawnSync('secret-tool', ['clear', 'service', 'gateway-tui', 'account', 'master-key'], {env, timeout: 5000});
}

let shared: Session | undefined;
before(async () => {
	if (skip) return;
	shared = await session();
	await shared.keyring();
});
after(async () => {
	await shared?.stop();
});

/** A fresh config directory (and data home) on the shared keyring, its entry cleared. */
function fresh(): {env: NodeJS.ProcessEnv; home: string; file: string; marker: string} {
	const env = shared!.env;
	clear(env);
	const dir = mkdtempSync(join(shared!.dir, 'case-'));
	const mine = {...env, XDG_CONFIG_HOME: join(dir, 'config')};
	const file = defaultKeyFile(mine);
	return {env: mine, home: join(dir, 'gateway'), file, marker: keychainMarker(file)};
}

test('no master key yet: a new one in the Secret Service, none in a file; the same key next time', {skip}, () => {
	const {env, file, marker} = fresh();
	const warnings: string[] = [];
	const sealer = loadSealer(env, {warn: line => void warnings.push(line)});
	assert.deepEqual(sealer.source, {kind: 'keychain', where: 'the Secret Service keyring (service gateway-tui, account master-key)'});
	assert.match(lookup(env) ?? '', /^[0-9a-f]{64}$/, 'secret-tool finds it where the README says');
	assert.ok(!existsSync(file), 'no key file');
	assert.ok(existsSync(marker) && !readFileSync(marker, 'utf8').includes(lookup(env)!), 'the marker says where, and holds no secret');
	assert.equal(loadSealer(env).open(sealer.seal('a real key')), 'a real key');
	assert.deepEqual(warnings, []);
	// The entry gone while the marker says it is there: an error that says what to do, never a new key.
	clear(env);
	assert.throws(() => loadSealer(env), /says the master key is in the Secret Service keyring .*but no such entry answers.*GATEWAY_TUI_MASTER_KEY/);
	assert.ok(!existsSync(file));
});

test('an existing master.key stays where it is; GATEWAY_TUI_MASTER_KEY_STORE copies the key to the chosen place, never a new one', {skip}, () => {
	const {env, file, marker} = fresh();
	const fileKey = loadSealer({...env, GATEWAY_TUI_MASTER_KEY_STORE: 'file'});
	assert.equal(fileKey.source.kind, 'file');
	assert.equal(lookup(env), null, 'file chosen: the keychain is not touched');
	assert.equal(loadSealer(env).source.kind, 'file', 'an existing master.key wins over the keychain');
	assert.equal(lookup(env), null);
	const warnings: string[] = [];
	const moved = loadSealer({...env, GATEWAY_TUI_MASTER_KEY_STORE: 'keychain'}, {warn: line => void warnings.push(line)});
	assert.equal(moved.source.kind, 'keychain');
	assert.equal(lookup(env), readFileSync(file, 'utf8').trim(), 'the same key, copied');
	assert.equal(moved.open(fileKey.seal('x')), 'x');
	assert.match(warnings.join('\n'), /^copied the master key of .*master\.key into the Secret Service keyring/);
	// And back: the file removed, file chosen: the keychain's key is copied into a new file.
	rmSync(file);
	assert.ok(existsSync(marker));
	const back = loadSealer({...env, GATEWAY_TUI_MASTER_KEY_STORE: 'file'}, {warn: line => void warnings.push(line)});
	assert.equal(back.source.kind, 'file');
	assert.equal(readFileSync(file, 'utf8').trim(), lookup(env));
	assert.equal(back.open(fileKey.seal('y')), 'y');
});

test('no Secret Service on the bus (a headless box): the file, without a word', {skip}, async () => {
	const bare = await session();
	try {
		const env = {...bare.env, XDG_CONFIG_HOME: join(bare.dir, 'config')};
		const warnings: string[] = [];
		assert.equal(loadSealer(env, {warn: line => void warnings.push(line)}).source.kind, 'file');
		assert.ok(existsSync(defaultKeyFile(env)));
		assert.deepEqual(warnings, []);
		assert.throws(() => loadSealer({...env, XDG_CONFIG_HOME: join(bare.dir, 'other'), GATEWAY_TUI_MASTER_KEY_STORE: 'keychain'}), /cannot be read|Cannot store the master key in the Secret Service keyring/);
	} finally {
		await bare.stop();
	}
});

test('a rotation cut short leaves the new key then the old in the entry: both open, only the new seals; rotating again keeps one', {skip}, async () => {
	const {env, home} = fresh();
	const cli = (args: readonly string[]) => runCli([...args, '--home', home], env);
	const created = await cli(['keys', 'create', '--name', 'laptop', '--json']);
	assert.equal(created.code, 0, created.stderr);
	const secret = (JSON.parse(created.stdout) as {key: string}).key;
	const old = lookup(env)!;
	const newer = 'cd'.repeat(32);
	// What rotate-key writes first, before it rewrites any record; a rotation killed here leaves just this.
	store(env, `${newer},${old}`);
	const both = loadSealer(env);
	assert.equal(new Sealer(Buffer.from(newer, 'hex'), both.source).open(both.seal('new')), 'new', 'the new key seals');
	const shown = await cli(['env', 'laptop', '--tool', 'openai']);
	assert.ok(shown.stdout.includes(secret), `records sealed under the old key still open: ${shown.stderr}`);
	const rotated = await cli(['store', 'rotate-key', '--json']);
	assert.equal(rotated.code, 0, rotated.stderr);
	assert.equal((JSON.parse(rotated.stdout) as {source: string}).source, 'keychain');
	assert.match(lookup(env) ?? '', /^[0-9a-f]{64}$/, 'one key again');
	assert.ok(![old, newer].includes(lookup(env)!));
	assert.ok((await cli(['env', 'laptop', '--tool', 'openai'])).stdout.includes(secret));
});

test('the CLI: keys kept under the keychain key, store rotate-key writes the new key there, the old one is gone', {skip}, async () => {
	const {env, home} = fresh();
	const cli = (args: readonly string[]) => runCli([...args, '--home', home], env);
	const created = await cli(['keys', 'create', '--name', 'laptop', '--json']);
	assert.equal(created.code, 0, created.stderr);
	const secret = (JSON.parse(created.stdout) as {key: string}).key;
	const first = lookup(env);
	assert.match(first ?? '', /^[0-9a-f]{64}$/);
	assert.ok(!existsSync(defaultKeyFile(env)));
	const rotated = await cli(['store', 'rotate-key']);
	assert.equal(rotated.code, 0, rotated.stderr);
	assert.match(rotated.stdout, /saved in the Secret Service keyring \(service gateway-tui, account master-key\)/);
	assert.match(lookup(env) ?? '', /^[0-9a-f]{64}$/);
	assert.notEqual(lookup(env), first);
	const shown = await cli(['env', 'laptop', '--tool', 'openai']);
	assert.equal(shown.code, 0, shown.stderr);
	assert.ok(shown.stdout.includes(secret), 'the key reads back under the new master key');
	const opened = await Store.open(home);
	try {
		opened.useSealer(new Sealer(Buffer.from(first!, 'hex'), {kind: 'keychain', where: 'old'}));
		await assert.rejects(listKeys(opened), /sealed with another master key/, 'the old key opens nothing any more');
	} finally {
		await opened.close();
	}
	assert.equal(systemKeychain(env, commandRunner(env))?.read().state, 'found');
});
