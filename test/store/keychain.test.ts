/**
 * The keychain's two command sets, against a fake of the OS command (`security` / `secret-tool`), not
 * of our code: what is run, with which argv and stdin (the key never in argv), how each answer is read,
 * time-outs, and the master key's precedence when the keychain is there, locked, or absent.
 * The real Secret Service is exercised in keychain-secret-service.test.ts; macOS cannot run here.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {CommandKeychain, commandRunner, macosCommands, secretToolCommands, systemKeychain, type RunResult, type Runner} from '../../source/store/keychain.js';
import {keychainMarker, loadSealer} from '../../source/store/sealing.js';

type Call = {readonly command: string; readonly args: readonly string[]; readonly input: string | undefined; readonly timeoutMs: number};

const done = (stdout = '', status = 0, stderr = ''): RunResult => ({status, stdout, stderr, timedOut: false, missing: false});
const timedOut: RunResult = {status: null, stdout: '', stderr: '', timedOut: true, missing: false};
const notInstalled: RunResult = {status: null, stdout: '', stderr: '', timedOut: false, missing: true};

/** A fake OS keychain tool: one entry, answering like `security` (macOS) or `secret-tool` (Linux). */
function fakeTool(kind: 'macos' | 'linux', options: {entry?: string; fail?: RunResult; writeFails?: RunResult; ignoresWrites?: boolean} = {}): {run: Runner; calls: Call[]; entry(): string | undefined} {
	let entry = options.entry;
	const calls: Call[] = [];
	const run: Runner = (command, args, input, timeoutMs) => {
		calls.push({command, args, input, timeoutMs});
		if (options.fail) return options.fail;
		const storing = kind === 'macos' ? args[0] === '-i' : args[0] === 'store';
		if (storing) {
			if (options.writeFails) return options.writeFails;
			if (!options.ignoresWrites) entry = kind === 'macos' ? /-w (\S+)\n$/.exec(input ?? '')?.[1] : input;
			return done();
		}
		if (entry !== undefined) return done(kind === 'macos' ? `${entry}\n` : entry);
		return kind === 'macos' ? done('', 44, 'security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n') : done('', 1);
	};
	return {run, calls, entry: () => entry};
}

const hex = 'ab'.repeat(32);

test('secret-tool: lookup and store by service and account, the secret on stdin only', () => {
	const tool = fakeTool('linux');
	const keychain = new CommandKeychain(secretToolCommands, tool.run, 1234);
	assert.deepEqual(keychain.read(), {state: 'absent'});
	assert.deepEqual(keychain.write(hex), {ok: true});
	assert.deepEqual(keychain.read(), {state: 'found', secret: hex});
	assert.deepEqual(tool.calls[0], {command: 'secret-tool', args: ['lookup', 'service', 'gateway-tui', 'account', 'master-key'], input: undefined, timeoutMs: 1234});
	assert.deepEqual(tool.calls[1], {command: 'secret-tool', args: ['store', '--label', 'gateway-tui master key', 'service', 'gateway-tui', 'account', 'master-key'], input: hex, timeoutMs: 1234});
	assert.equal(tool.calls[2]?.args[0], 'lookup', 'a write is read back');
	for (const call of tool.calls) assert.ok(!call.args.some(arg => arg.includes(hex.slice(0, 16))), 'never in argv');
	assert.equal(keychain.where, 'the Secret Service keyring (service gateway-tui, account master-key)');
});

test('security: find-generic-password -w, and add-generic-password -U through `security -i` on stdin', () => {
	const tool = fakeTool('macos');
	const keychain = new CommandKeychain(macosCommands, tool.run, 1000);
	assert.deepEqual(keychain.read(), {state: 'absent'}, 'exit 44: errSecItemNotFound');
	assert.deepEqual(keychain.write(hex), {ok: true});
	assert.deepEqual(keychain.read(), {state: 'found', secret: hex}, 'the trailing newline is not part of it');
	assert.deepEqual(tool.calls[0]?.args, ['find-generic-password', '-s', 'gateway-tui', '-a', 'master-key', '-w']);
	assert.deepEqual(tool.calls[1], {command: 'security', args: ['-i'], input: `add-generic-password -U -s gateway-tui -a master-key -w ${hex}\n`, timeoutMs: 1000});
	for (const call of tool.calls) assert.ok(!call.args.some(arg => arg.includes(hex.slice(0, 16))), 'never in argv');
	assert.equal(keychain.where, 'the macOS keychain (service gateway-tui, account master-key)');
	const locked = new CommandKeychain(macosCommands, () => done('', 36, 'security: SecKeychainSearchCopyNext: User interaction is not allowed.\n'));
	const read = locked.read();
	assert.equal(read.state, 'failed');
	assert.match(read.state === 'failed' ? read.reason : '', /^security failed \(exit 36\): .*User interaction is not allowed/);
});

test('both: a time-out, a missing tool and a write that does not stick are failures, told apart', () => {
	for (const commands of [macosCommands, secretToolCommands]) {
		const slow = new CommandKeychain(commands, () => timedOut, 800).read();
		assert.ok(slow.state === 'failed' && slow.timedOut && /did not answer within 0.8 s/.test(slow.reason), JSON.stringify(slow));
		const missing = new CommandKeychain(commands, () => notInstalled).read();
		assert.ok(missing.state === 'failed' && missing.missing && /is not installed/.test(missing.reason));
		const ignored = new CommandKeychain(commands, fakeTool(commands === macosCommands ? 'macos' : 'linux', {ignoresWrites: true}).run).write(hex);
		assert.ok(!ignored.ok && /reported success but the entry does not hold the new key/.test(ignored.reason), 'exit 0 alone is not trusted');
		assert.equal(new CommandKeychain(commands, fakeTool('linux').run).write('not hex; rm -rf').ok, false, 'nothing but hex goes to the tool');
	}
	assert.equal(systemKeychain({}, fakeTool('linux').run, 'darwin')?.name, 'the macOS keychain');
	assert.equal(systemKeychain({}, fakeTool('linux').run, 'linux')?.name, 'the Secret Service keyring');
	assert.equal(systemKeychain({}, fakeTool('linux').run, 'win32'), null);
	assert.equal(systemKeychain({GATEWAY_TUI_KEYCHAIN_TIMEOUT_MS: '250'}, fakeTool('linux').run, 'linux')?.timeoutMs, 250);
});

function home(): {env: NodeJS.ProcessEnv; file: string; marker: string; done(): void} {
	const dir = mkdtempSync(join(tmpdir(), 'gateway-tui-keychain-'));
	const file = join(dir, 'config', 'gateway-tui', 'master.key');
	return {env: {XDG_CONFIG_HOME: join(dir, 'config'), HOME: dir}, file, marker: keychainMarker(file), done: () => rmSync(dir, {recursive: true, force: true})};
}

test('precedence: environment, key file, an existing master.key, the keychain (found, else created), a new file', () => {
	const {env, file, marker, done: cleanup} = home();
	try {
		const tool = fakeTool('macos');
		const keychain = new CommandKeychain(macosCommands, tool.run);
		const warnings: string[] = [];
		const warn = (line: string) => void warnings.push(line);
		assert.equal(loadSealer({...env, GATEWAY_TUI_MASTER_KEY: hex}, {keychain, warn}).source.kind, 'env');
		assert.equal(loadSealer({...env, GATEWAY_TUI_MASTER_KEY_FILE: join(file, '..', 'other.key')}, {keychain, warn}).source.kind, 'file');
		assert.equal(tool.calls.length, 0, 'the keychain is not asked when the key is given');
		const created = loadSealer(env, {keychain, warn});
		assert.deepEqual(created.source, {kind: 'keychain', where: 'the macOS keychain (service gateway-tui, account master-key)'});
		assert.match(tool.entry() ?? '', /^[0-9a-f]{64}$/);
		assert.ok(!existsSync(file) && existsSync(marker), 'no key file; the marker (no secret in it) says where the key is');
		assert.ok(!readFileSync(marker, 'utf8').includes(tool.entry()!));
		const again = loadSealer(env, {keychain, warn});
		assert.equal(again.open(created.seal('x')), 'x', 'the same key next time');
		// An existing master.key is used as it is, never moved silently.
		writeFileSync(file, `${'cd'.repeat(32)}\n`);
		assert.equal(loadSealer(env, {keychain, warn}).source.kind, 'file');
		assert.deepEqual(warnings, []);
	} finally {
		cleanup();
	}
});

test('a keychain that does not answer in time: the file, with one line that says so and how to choose; never once the key is there', () => {
	const {env, file, marker, done: cleanup} = home();
	try {
		const warnings: string[] = [];
		const warn = (line: string) => void warnings.push(line);
		const slow = new CommandKeychain(secretToolCommands, () => timedOut, 500);
		assert.equal(loadSealer(env, {keychain: slow, warn}).source.kind, 'file');
		assert.equal(warnings.length, 1);
		assert.match(warnings[0]!, /^the Secret Service keyring could not be read \(secret-tool did not answer within 0.5 s.*\), so the master key goes in .*master\.key\. Set GATEWAY_TUI_MASTER_KEY_STORE=keychain .* or =file/);
		assert.ok(existsSync(file));
		// No Secret Service at all (a headless box): the file, silently; no tool: the same.
		rmSync(file);
		warnings.length = 0;
		const none = new CommandKeychain(secretToolCommands, () => done('', 1, 'secret-tool: Cannot autolaunch D-Bus without X11 $DISPLAY\n'));
		assert.equal(loadSealer(env, {keychain: none, warn}).source.kind, 'file');
		rmSync(file);
		assert.equal(loadSealer(env, {keychain: new CommandKeychain(secretToolCommands, () => notInstalled), warn}).source.kind, 'file');
		assert.deepEqual(warnings, []);
		// Once the key went to the keychain, a locked keychain is an error, not a new key in a file.
		rmSync(file);
		mkdirSync(join(file, '..'), {recursive: true});
		writeFileSync(marker, 'the key is in the keychain\n');
		assert.throws(() => loadSealer(env, {keychain: slow, warn}), /The master key is in the Secret Service keyring .* which cannot be read: secret-tool did not answer .*GATEWAY_TUI_MASTER_KEY/);
		assert.ok(!existsSync(file));
		// With the key on a macOS keychain's entry forced: the same, and a write it refuses stops too.
		rmSync(marker);
		const refuses = new CommandKeychain(macosCommands, fakeTool('macos', {writeFails: done('', 1, 'security: User interaction is not allowed.\n')}).run);
		assert.throws(() => loadSealer({...env, GATEWAY_TUI_MASTER_KEY_STORE: 'keychain'}, {keychain: refuses, warn}), /Cannot store the master key in the macOS keychain .*GATEWAY_TUI_MASTER_KEY_STORE=keychain/);
		assert.equal(loadSealer(env, {keychain: refuses, warn}).source.kind, 'file', 'unforced: the file');
		assert.match(warnings.at(-1)!, /^the macOS keychain did not take the master key \(security failed \(exit 1\).*\), so it goes in /);
		assert.throws(() => loadSealer({...env, GATEWAY_TUI_MASTER_KEY_STORE: 'nope'}), /GATEWAY_TUI_MASTER_KEY_STORE=nope is not valid/);
	} finally {
		cleanup();
	}
});

test('the real runner: a tool that hangs is killed at the time-out (the file, one warning); the key reaches the tool on stdin, not argv', () => {
	const dir = mkdtempSync(join(tmpdir(), 'gateway-tui-keychain-bin-'));
	const {env, file, done: cleanup} = home();
	try {
		// A stand-in `secret-tool` (a fake of the OS command): a locked keyring waiting for a password forever.
		mkdirSync(join(dir, 'hang'));
		writeFileSync(join(dir, 'hang', 'secret-tool'), '#!/bin/sh\nexec sleep 30\n', {mode: 0o755});
		const hanging = {...env, PATH: `${join(dir, 'hang')}:${process.env.PATH}`, GATEWAY_TUI_KEYCHAIN_TIMEOUT_MS: '300'};
		const warnings: string[] = [];
		const started = Date.now();
		const sealer = loadSealer(hanging, {keychain: systemKeychain(hanging, commandRunner(hanging), 'linux'), warn: line => void warnings.push(line)});
		assert.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`);
		assert.equal(sealer.source.kind, 'file');
		assert.ok(existsSync(file));
		assert.equal(warnings.length, 1);
		assert.match(warnings[0]!, /did not answer within 0.3 s.*GATEWAY_TUI_MASTER_KEY_STORE=keychain/);
		// One that records what it was given, and keeps the entry in a file.
		mkdirSync(join(dir, 'log'));
		const log = join(dir, 'argv.log');
		const entry = join(dir, 'entry');
		writeFileSync(
			join(dir, 'log', 'secret-tool'),
			`#!/bin/sh\necho "$@" >> '${log}'\ncase "$1" in\n  store) cat > '${entry}' ;;\n  lookup) [ -f '${entry}' ] && cat '${entry}' || exit 1 ;;\nesac\n`,
			{mode: 0o755},
		);
		const logging = {...env, XDG_CONFIG_HOME: join(dir, 'config2'), PATH: `${join(dir, 'log')}:${process.env.PATH}`};
		const stored = loadSealer(logging, {keychain: systemKeychain(logging, commandRunner(logging), 'linux')});
		assert.equal(stored.source.kind, 'keychain');
		const key = readFileSync(entry, 'utf8');
		assert.match(key, /^[0-9a-f]{64}$/, 'the whole of stdin, no newline');
		assert.ok(!readFileSync(log, 'utf8').includes(key.slice(0, 16)), 'never in argv');
		assert.match(readFileSync(log, 'utf8'), /^lookup service gateway-tui account master-key\nstore --label gateway-tui master key service gateway-tui account master-key\nlookup /);
	} finally {
		cleanup();
		rmSync(dir, {recursive: true, force: true});
	}
});
