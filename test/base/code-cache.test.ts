/**
 * V8's code cache for the HTTP stack's bundle (source/base/code-cache.ts): written after a first
 * load, used by the next process, replaced when V8 refuses it, never read from a directory others
 * can write into, never in the way of the script loading; stack traces point into the file as they
 * would under Node's own loader. And the built `serve` compiles its stack from the cache it wrote.
 */
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, test} from 'node:test';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath} from 'node:url';
import {promisify} from 'node:util';
import {codeCacheDir, loadCached} from '../../source/base/code-cache.js';
import {runCli, startServe, stopChild} from '../helpers/cli.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'gateway-tui-code-cache-'));
after(() => rmSync(base, {recursive: true, force: true}));

let made = 0;
/** A fresh directory with a CommonJS script in it (its first line throws from a known column). */
function setup(text = script()): {dir: string; file: string; cache: string} {
	const dir = join(base, String(made++));
	mkdirSync(dir);
	const file = join(dir, 'bundle.cjs');
	writeFileSync(file, text);
	return {dir, file, cache: join(dir, 'cache')};
}

function script(extra = ''): string {
	return [
		"exports.fail = function fail() { throw new Error('thrown on line one'); };",
		"exports.name = require('node:path').basename(__filename);",
		'exports.sum = function sum(values) { let total = 0; for (const value of values) total += value; return total; };',
		extra,
	].join('\n');
}

type Exports = {fail: () => never; name: string; sum: (values: number[]) => number};

/** What a new process sees loading `file` with the cache in `cache` (it lives on 200 ms, for a cache it writes after 10). */
async function loadInChild(file: string, cache: string): Promise<{cache: string; name: string; sum: number}> {
	const code = `import {loadCached} from ${JSON.stringify(join(root, 'source/base/code-cache.ts'))}; const {exports, cache} = loadCached(${JSON.stringify(file)}, ${JSON.stringify(cache)}, 10); console.log(JSON.stringify({cache, name: exports.name, sum: exports.sum([1, 2, 3])})); setTimeout(() => {}, 200);`;
	const {stdout} = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {cwd: root});
	return JSON.parse(stdout.trim().split('\n').at(-1)!) as {cache: string; name: string; sum: number};
}

async function cacheFiles(cache: string, wanted = 1): Promise<string[]> {
	for (let waited = 0; waited < 5_000; waited += 20) {
		if (existsSync(cache) && readdirSync(cache).filter(name => name.endsWith('.bin')).length >= wanted) break;
		await sleep(20);
	}
	return existsSync(cache) ? readdirSync(cache).filter(name => name.endsWith('.bin')) : [];
}

test('the first load writes the cache (0600 in a 0700 directory) and the next process compiles from it', {timeout: 30_000}, async () => {
	const {file, cache} = setup();
	const first = loadCached(file, cache, 10);
	assert.equal(first.cache, 'missing');
	assert.equal((first.exports as Exports).name, 'bundle.cjs');
	const [written] = await cacheFiles(cache);
	assert.match(written!, /^bundle\.cjs\.[0-9a-f]{32}\.bin$/);
	assert.equal(statSync(cache).mode & 0o777, 0o700);
	assert.equal(statSync(join(cache, written!)).mode & 0o777, 0o600);
	assert.deepEqual(await loadInChild(file, cache), {cache: 'used', name: 'bundle.cjs', sum: 6});
	assert.deepEqual(await cacheFiles(cache), [written], 'a used cache is not written again');
});

test('a cache V8 refuses (here: garbage) costs only the compile, and is replaced by a good one', {timeout: 30_000}, async () => {
	const {file, cache} = setup();
	loadCached(file, cache, 10);
	const [written] = await cacheFiles(cache);
	writeFileSync(join(cache, written!), Buffer.alloc(4096, 7));
	assert.deepEqual(await loadInChild(file, cache), {cache: 'rejected', name: 'bundle.cjs', sum: 6});
	for (let waited = 0; waited < 5_000 && readFileSync(join(cache, written!))[0] === 7; waited += 20) await sleep(20);
	assert.deepEqual(await loadInChild(file, cache), {cache: 'used', name: 'bundle.cjs', sum: 6});
});

test('a changed script has a cache of its own, and at most three caches of a script are kept', {timeout: 30_000}, async () => {
	const {file, cache} = setup();
	const names: string[] = [];
	for (let version = 0; version < 5; version++) {
		writeFileSync(file, script(`exports.version = ${version};`));
		assert.deepEqual(await loadInChild(file, cache), {cache: 'missing', name: 'bundle.cjs', sum: 6});
		let added: string[] = [];
		for (let waited = 0; waited < 5_000 && added.length === 0; waited += 20) {
			await sleep(20);
			added = (await cacheFiles(cache, 0)).filter(name => !names.includes(name));
		}
		assert.equal(added.length, 1, `version ${version} wrote one cache of its own`);
		names.push(added[0]!);
	}
	assert.deepEqual((await cacheFiles(cache)).sort(), names.slice(-3).sort());
	assert.deepEqual(await loadInChild(file, cache), {cache: 'used', name: 'bundle.cjs', sum: 6});
});

test('a directory others can write into is neither read nor written', {skip: process.platform === 'win32' ? 'POSIX modes' : false, timeout: 30_000}, async () => {
	const {file, cache} = setup();
	loadCached(file, cache, 10);
	const [written] = await cacheFiles(cache);
	chmodSync(cache, 0o777);
	assert.deepEqual(await loadInChild(file, cache), {cache: 'untrusted', name: 'bundle.cjs', sum: 6});
	rmSync(join(cache, written!));
	await sleep(100);
	assert.deepEqual(await cacheFiles(cache, 0), [], 'nothing written into it');
});

test('a cache directory that cannot be made leaves the script loading as ever', {timeout: 30_000}, async () => {
	const {dir, file} = setup();
	const blocked = join(dir, 'a-file');
	writeFileSync(blocked, '');
	const loaded = await loadInChild(file, join(blocked, 'cache'));
	assert.deepEqual(loaded, {cache: 'missing', name: 'bundle.cjs', sum: 6});
});

test('stack traces point into the file, first line included, cached or not', {timeout: 30_000}, async () => {
	const {file, cache} = setup();
	const column = script().split('\n')[0]!.indexOf('new Error') + 1;
	const first = loadCached(file, cache, 10).exports as Exports;
	assert.throws(() => first.fail(), (error: Error) => error.stack!.includes(`${file}:1:${column}`));
	await cacheFiles(cache);
	const code = `import {loadCached} from ${JSON.stringify(join(root, 'source/base/code-cache.ts'))}; const {exports, cache} = loadCached(${JSON.stringify(file)}, ${JSON.stringify(cache)}); try { exports.fail(); } catch (error) { console.log(cache, error.stack.split('\\n')[1].trim()); }`;
	const {stdout} = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {cwd: root});
	assert.equal(stdout.trim(), `used at Object.fail (${file}:1:${column})`);
});

test('GATEWAY_TUI_CODE_CACHE chooses the directory, `off` turns the cache off; the default is the platform\'s cache directory', () => {
	assert.equal(codeCacheDir({GATEWAY_TUI_CODE_CACHE: 'off'}), null);
	assert.equal(codeCacheDir({GATEWAY_TUI_CODE_CACHE: '/somewhere/else'}), '/somewhere/else');
	assert.match(codeCacheDir({})!, /gateway-tui[/\\].*code$|gateway-tui[/\\]code$/);
	const {file} = setup();
	const off = loadCached(file, null);
	assert.equal(off.cache, 'off');
	assert.equal((off.exports as Exports).sum([2, 3]), 5);
});

/** A process's compiles of `bundle`, from record-compiles.mjs's file: whether each came with a cache, and whether V8 refused it. */
function compilesOf(record: string, bundle: string): {cachedData: boolean; rejected: boolean}[] {
	const compiles = readFileSync(record, 'utf8').trim().split('\n').map(line => JSON.parse(line) as {filename: string; cachedData: boolean; rejected: boolean});
	return compiles.filter(item => item.filename.endsWith(bundle)).map(({cachedData, rejected}) => ({cachedData, rejected}));
}

test('the built serve writes its HTTP stack\'s cache, and the next serve compiles the stack from it', {timeout: 30_000}, async () => {
	const cache = join(base, 'serve-cache');
	const home = join(base, 'serve-home');
	const env = {GATEWAY_TUI_HOME: home, GATEWAY_TUI_CODE_CACHE: cache};
	const first = await startServe(['--port', '0'], env);
	const written = await cacheFiles(cache, 2);
	await stopChild(first.child);
	assert.equal(written.filter(name => /^stack-bundle\.cjs\.[0-9a-f]{32}\.bin$/.test(name)).length, 1, written.join(', '));
	// A second serve, its compile of the bundle watched: V8 took the cache.
	const record = join(base, 'compiles.txt');
	const second = await startServe(['--port', '0'], {...env, NODE_OPTIONS: `--import ${join(root, 'test/helpers/record-compiles.mjs')}`, RECORD_COMPILES_FILE: record});
	const answer = await fetch(`${second.url}/v1/models`);
	assert.equal(answer.status, 401, 'the stack answers (a request without a key)');
	await stopChild(second.child);
	assert.deepEqual(compilesOf(record, 'stack-bundle.cjs'), [{cachedData: true, rejected: false}]);
});

test('the built CLI compiles its commands from the cache a first command wrote as it exited, however short it ran', {timeout: 30_000}, async () => {
	// A command such as `keys list` ends long before the cache's usual second: it is written at exit.
	const cache = join(base, 'commands-cache');
	const home = join(base, 'commands-home');
	const record = join(base, 'command-compiles.txt');
	const env = {GATEWAY_TUI_HOME: home, GATEWAY_TUI_CODE_CACHE: cache, NODE_OPTIONS: `--import ${join(root, 'test/helpers/record-compiles.mjs')}`, RECORD_COMPILES_FILE: record};
	const first = await runCli(['keys', 'list'], env);
	assert.equal(first.code, 0, first.stderr);
	assert.match(first.stdout, /No virtual keys yet|NAME/);
	assert.deepEqual(readdirSync(cache).filter(name => name.startsWith('commands.cjs.')).length, 1, 'written as the first command exited');
	assert.deepEqual(compilesOf(record, 'commands.cjs'), [{cachedData: false, rejected: false}]);
	writeFileSync(record, '');
	const second = await runCli(['keys', 'list'], env);
	assert.equal(second.code, 0, second.stderr);
	assert.equal(second.stdout, first.stdout);
	assert.deepEqual(compilesOf(record, 'commands.cjs'), [{cachedData: true, rejected: false}], 'the second compiled from the cache');
});
