/**
 * What a command loads decides how fast it starts (issue: `serve` listening in ≤ 300 ms, CLI
 * subcommands in ≤ 150 ms). Not a timing test: it pins the structure behind those figures — the build
 * is a bundle of a few chunks, `keys list` loads none of the proxy's or the TUI's code, `serve` none
 * of the TUI's, and the tokenizer's 2 MB of ranks are read on the first count, not at start.
 */
import assert from 'node:assert/strict';
import {execFile} from 'node:child_process';
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {createRequire, SourceMap, type SourceMapPayload} from 'node:module';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {after, test} from 'node:test';
import {promisify} from 'node:util';
import {Tokenizer} from '../../source/proxy/tokenizer.js';
import {wrapperHead} from '../../source/base/code-cache.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'gateway-tui-start-'));
after(() => rmSync(home, {recursive: true, force: true}));

/** Run `node argv…` to its end; `untilListening`: a serve, stopped with SIGTERM once it listens. */
async function runToEnd(argv: string[], env: NodeJS.ProcessEnv, untilListening: boolean): Promise<void> {
	if (!untilListening) {
		await run(process.execPath, argv, {env});
		return;
	}
	const {spawn} = await import('node:child_process');
	const child = spawn(process.execPath, argv, {env, stdio: ['ignore', 'pipe', 'pipe']});
	await new Promise<void>((resolve, reject) => {
		const onData = (data: Buffer) => {
			if (String(data).includes('listening on')) resolve();
		};
		child.stdout.on('data', onData);
		child.stderr.on('data', onData);
		child.once('exit', code => reject(new Error(`serve exited with ${code} before listening`)));
	});
	child.kill('SIGTERM');
	await new Promise(resolve => child.once('exit', resolve));
}

/**
 * The source files whose code a run of the built CLI ran: every source of each ES module chunk it
 * loaded (a module's top level runs as it loads), and of the CommonJS bundles it compiled (the
 * commands, the HTTP stack: one file each, whose modules esbuild initialises only when first
 * imported) those with a function that ran, from V8's coverage mapped through the bundle's source map.
 * In the order the files were loaded.
 */
async function sourcesLoadedBy(args: string[], untilListening = false): Promise<string[]> {
	const record = join(home, `loads-${args.join('-')}.txt`);
	const coverage = join(home, `coverage-${args.join('-')}`);
	rmSync(coverage, {recursive: true, force: true});
	const env = {...process.env, RECORD_LOADS_FILE: record, GATEWAY_TUI_HOME: home, NODE_V8_COVERAGE: coverage};
	const argv = ['--import', join(root, 'test/helpers/record-loads.mjs'), join(root, 'dist/cli.js'), ...args];
	await runToEnd(argv, env, untilListening);
	const ran = ranInBundles(coverage);
	const urls = readFileSync(record, 'utf8').split('\n').filter(url => url.startsWith('file://'));
	const sources = new Set<string>();
	for (const url of urls) {
		const file = fileURLToPath(url);
		if (!file.startsWith(join(root, 'dist'))) {
			sources.add(file);
			continue;
		}
		if (file.endsWith('.cjs')) {
			for (const source of ran.get(file) ?? []) sources.add(source);
			continue;
		}
		const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as {sources: string[]};
		for (const source of map.sources) sources.add(source);
	}
	return [...sources];
}

/** For each CommonJS bundle of dist/ in a run's V8 coverage, the sources of the functions that ran. */
function ranInBundles(coverage: string): Map<string, Set<string>> {
	const ran = new Map<string, Set<string>>();
	for (const name of readdirSync(coverage)) {
		const {result} = JSON.parse(readFileSync(join(coverage, name), 'utf8')) as {result: {url: string; functions: {ranges: {startOffset: number; count: number}[]}[]}[]};
		for (const script of result) {
			if (!script.url.startsWith('file://')) continue;
			const file = fileURLToPath(script.url);
			if (!file.startsWith(join(root, 'dist')) || !file.endsWith('.cjs')) continue;
			const text = readFileSync(file, 'utf8');
			const lineStarts = [0];
			for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
			const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
			const sources = ran.get(file) ?? new Set<string>();
			for (const fn of script.functions) {
				const [whole] = fn.ranges;
				// Offsets count the wrapper code-cache.ts compiles the bundle in, on its first line.
				const offset = whole!.startOffset - wrapperHead.length;
				if (whole!.count === 0 || offset < 0 || offset >= text.length) continue;
				let line = lineStarts.length - 1;
				while (lineStarts[line]! > offset) line--;
				const entry = map.findEntry(line, offset - lineStarts[line]!) as {originalSource?: string};
				if (entry.originalSource) sources.add(entry.originalSource.replace(/^file:\/\//, ''));
			}
			ran.set(file, sources);
		}
	}
	return ran;
}

const matching = (sources: string[], pattern: RegExp) => sources.filter(source => pattern.test(source));

test('the build is a bundle: keys list reads at most a couple of dozen files, not hundreds of modules', async () => {
	const record = join(home, 'count.txt');
	await run(process.execPath, ['--import', join(root, 'test/helpers/record-loads.mjs'), join(root, 'dist/cli.js'), 'keys', 'list'], {env: {...process.env, RECORD_LOADS_FILE: record, GATEWAY_TUI_HOME: home}});
	const ours = readFileSync(record, 'utf8').split('\n').filter(url => url.startsWith(`file://${root}dist/`));
	assert.ok(ours.length > 0 && ours.length <= 24, `keys list loaded ${ours.length} files of dist/`);
});

test('the store\'s driver is in the bundle: keys list reads no module of node_modules as an ES module (sqlite3 is required), and has one copy of keyv', async () => {
	const record = join(home, 'packages.txt');
	await run(process.execPath, ['--import', join(root, 'test/helpers/record-loads.mjs'), join(root, 'dist/cli.js'), 'keys', 'list'], {env: {...process.env, RECORD_LOADS_FILE: record, GATEWAY_TUI_HOME: home}});
	const read = readFileSync(record, 'utf8').split('\n').filter(url => url.startsWith('file://'));
	// @keyv/sqlite as a package of its own was a second ES module graph: keyv (29 KB) and its serializer
	// loaded and compiled beside the bundle's copy, each resolved through its package.json. sqlite3
	// itself, imported by @keyv/sqlite, went through the ES module loader until the build required it
	// (source/store/sqlite3-driver.ts; the next test).
	assert.deepEqual(read.filter(url => url.includes('/node_modules/')).map(url => url.slice(url.indexOf('/node_modules/') + 1)), []);
	const bundled = await sourcesLoadedBy(['keys', 'list']);
	assert.equal(matching(bundled, /node_modules\/keyv\/dist\//).length, 1, 'one copy of keyv');
	assert.ok(matching(bundled, /node_modules\/@keyv\/sqlite\//).length === 1, '@keyv/sqlite is loaded, from the bundle');
});

test('keys list loads neither the proxy, the TUI nor the takeover editors', async () => {
	const sources = await sourcesLoadedBy(['keys', 'list']);
	assert.deepEqual(matching(sources, /node_modules\/(fastify|undici|ink|react|js-tiktoken|jsonc-parser|@decimalturn\/toml-patch)\/|source\/ui\/|source\/services\/takeover\/|source\/proxy\/(gateway|server|routes|relay|tokenizer)\.ts$/), []);
	assert.ok(matching(sources, /source\/cli\/keys\.ts$/).length === 1, 'the keys command itself is loaded');
});

test('keys list loads of zod only what validating stored records needs: its functional build, not the classic one, nor its error messages in 40 other languages', async () => {
	// `import {z} from 'zod'` takes zod's whole namespace object, and with it every export the bundler
	// cannot drop (`z.locales`, `z.fromJSONSchema`, …): 587 KB of chunk parsed and evaluated at every
	// start of every command. `import * as z` lets it keep only the schemas and checks used — still
	// 145 KB, most of it the classic schemas' methods and JSON Schema conversion that every schema
	// carries; `zod/mini` (source/base/schema.ts) has functions instead, kept only where used.
	const sources = await sourcesLoadedBy(['keys', 'list']);
	assert.ok(matching(sources, /node_modules\/zod\/v4\/mini\//).length > 0, 'zod/mini is loaded (it validates the stored keys)');
	// (The commands' CommonJS bundle keeps the locales' index, as an empty initialiser: its re-exports are dropped.)
	assert.deepEqual(matching(sources, /node_modules\/zod\/v4\/(locales\/(?!(en|index)\.js$)|classic\/)/), []);
});

test('serve loads the proxy but not the TUI, the takeover editors or the tokenizer ranks', async () => {
	const sources = await sourcesLoadedBy(['serve', '--port', '0'], true);
	assert.ok(matching(sources, /source\/proxy\/gateway\.ts$/).length === 1, 'the gateway is loaded');
	assert.deepEqual(matching(sources, /node_modules\/(ink|react|ink-select-input|ink-text-input|jsonc-parser|@decimalturn\/toml-patch)\/|source\/ui\/|source\/services\/takeover\/|js-tiktoken\/dist\/ranks\//), []);
});

test('serve parses none of Fastify\'s code paths the gateway never takes: schema compilers (Ajv, fast-json-stringify) and inject (light-my-request)', async () => {
	const sources = await sourcesLoadedBy(['serve', '--port', '0'], true);
	assert.ok(matching(sources, /node_modules\/fastify\//).length > 0, 'Fastify itself is loaded');
	// Fastify requires these only when a route has a schema or a test calls inject(); bundled, their
	// half a megabyte of source was read and parsed at every start all the same. (Fastify's own error
	// serializer uses two small files of fast-json-stringify's runtime, not its compiler.)
	assert.deepEqual(matching(sources, /node_modules\/(ajv|ajv-formats|fast-uri|json-schema-ref-resolver|light-my-request|@fastify\/(ajv-compiler|fast-json-stringify-compiler))\/|node_modules\/fast-json-stringify\/index\.js$/), []);
});

test('serve opens its store while the proxy\'s code loads: the store driver is loaded before Fastify', async () => {
	// sourcesLoadedBy keeps the order in which the files were loaded (a Set of their sources, in turn).
	const sources = await sourcesLoadedBy(['serve', '--port', '0'], true);
	const driver = sources.findIndex(source => /source\/store\/backend-sqlite\.ts$/.test(source));
	const fastify = sources.findIndex(source => /node_modules\/fastify\/fastify\.js$/.test(source));
	assert.ok(driver >= 0 && fastify >= 0, 'both are loaded');
	assert.ok(driver < fastify, `the sqlite driver (#${driver}) before Fastify (#${fastify})`);
});

test('neither keys list nor serve makes Node\'s ES module of node:process (it reads every property of process, creating the standard streams: ~6 ms of a start)', async () => {
	// The build gives source/base/node-process.cts for `node:process` (esbuild's --alias). The load
	// recorder lists Node's own modules too, as `node:NAME`.
	await sourcesLoadedBy(['keys', 'list']);
	await sourcesLoadedBy(['serve', '--port', '0'], true);
	for (const command of ['keys-list', 'serve---port-0']) {
		const loaded = readFileSync(join(home, `loads-${command}.txt`), 'utf8').split('\n');
		assert.ok(loaded.includes('node:path'), `${command}: the recorder sees Node's modules`);
		assert.ok(!loaded.includes('node:process'), `${command} loaded node:process`);
	}
});

test('neither keys list nor serve loads Node\'s export lexer for CommonJS or node:worker_threads, nor keys list node:child_process (~12 ms of a start between them)', async () => {
	// sqlite3 imported as an ES module made Node parse it with cjs-module-lexer to find its exports;
	// commander requires node:child_process at its top, and atomic-write.ts read node:worker_threads'
	// threadId at its import: none of them needed to list keys or to listen. process.moduleLoadList
	// names every Node module a process made ("NativeModule child_process").
	const exitRecorder = 'data:text/javascript,' + encodeURIComponent('import {appendFileSync} from "node:fs"; process.on("exit", () => appendFileSync(process.env.RECORD_NATIVE_FILE, process.moduleLoadList.join("\\n")));');
	for (const [name, args] of [['keys-list', ['keys', 'list']], ['serve', ['serve', '--port', '0']]] as const) {
		const record = join(home, `native-${name}.txt`);
		const env = {...process.env, RECORD_NATIVE_FILE: record, GATEWAY_TUI_HOME: home};
		const argv = ['--import', exitRecorder, join(root, 'dist/cli.js'), ...args];
		await runToEnd(argv, env, name === 'serve');
		const loaded = readFileSync(record, 'utf8').split('\n');
		assert.ok(loaded.includes('NativeModule fs'), `${name}: the record lists Node's modules`);
		// A listening server loads node:child_process all the same: Node's net.Server#listen requires
		// its cluster module, which requires it.
		const avoidable = name === 'serve' ? /cjs-module-lexer|^NativeModule worker_threads$/ : /cjs-module-lexer|^NativeModule (child_process|worker_threads)$/;
		assert.deepEqual(loaded.filter(line => avoidable.test(line)), [], `${name} loaded them`);
	}
});

test('the build\'s node:child_process forwards every function of Node\'s, loading it on first use', () => {
	const nodeRequire = createRequire(import.meta.url);
	const real = nodeRequire('node:child_process') as Record<string, unknown>;
	const lazy = nodeRequire(join(root, 'source/base/node-child-process.cts')) as Record<string, unknown>;
	const exported = Object.keys(real).filter(name => !name.startsWith('_'));
	assert.deepEqual(Object.keys(lazy).sort(), exported.sort(), 'the same names as Node\'s module');
	for (const name of exported) assert.equal(lazy[name], real[name], name);
});

test('the CommonJS bundles call no import(): compiled by code-cache.ts, Node 20 would run one only with an experimental option, which warns', () => {
	for (const bundle of ['commands.cjs', 'stack-bundle.cjs', 'run.cjs', 'worker.cjs']) {
		const text = readFileSync(join(root, 'dist', bundle), 'utf8');
		assert.ok(text.length > 100_000, `${bundle} is built`);
		assert.deepEqual(text.match(/(?<![\w$.])import\(/g) ?? [], [], bundle);
	}
});

test('no bundle holds a copy of pg: @keyv/postgres loads it from node_modules, and a PostgreSQL store uses that one copy', () => {
	const maps = readdirSync(join(root, 'dist')).filter(name => name.endsWith('.map'));
	assert.ok(maps.includes('commands.cjs.map'), 'the build has source maps');
	for (const name of maps) {
		const {sources} = JSON.parse(readFileSync(join(root, 'dist', name), 'utf8')) as {sources: string[]};
		assert.deepEqual(matching(sources, /node_modules\/(pg|pg-[a-z-]+|postgres-[a-z-]+|pgpass)\//), [], name);
	}
});

test('run from the sources under tsx, the launcher imports the commands as they are: the same answers and exit codes as built', async () => {
	const sourceHome = mkdtempSync(join(tmpdir(), 'gateway-tui-sources-'));
	try {
		const env = {...process.env, GATEWAY_TUI_HOME: sourceHome};
		await run(process.execPath, ['--import', 'tsx', join(root, 'source/cli.tsx'), 'keys', 'create', '--name', 'laptop'], {env, cwd: root});
		const listed = await run(process.execPath, ['--import', 'tsx', join(root, 'source/cli.tsx'), 'keys', 'list'], {env, cwd: root});
		const built = await run(process.execPath, [join(root, 'dist/cli.js'), 'keys', 'list'], {env});
		assert.match(listed.stdout, /laptop/);
		assert.equal(listed.stdout, built.stdout);
		await assert.rejects(run(process.execPath, ['--import', 'tsx', join(root, 'source/cli.tsx'), 'keys', 'show', 'nosuch'], {env, cwd: root}), (error: {code?: number; stderr?: string}) => error.code === 1 && /^gateway-tui: No key named "nosuch"/.test(error.stderr ?? ''));
	} finally {
		rmSync(sourceHome, {recursive: true, force: true});
	}
});

test('the tokenizer reads its ranks on the first count, not when it is made', () => {
	const ranks = createRequire(import.meta.url).resolve('js-tiktoken/ranks/o200k_base');
	const tokenizer = new Tokenizer();
	const cache = createRequire(import.meta.url).cache;
	assert.equal(cache[ranks], undefined, 'no ranks loaded before the first count');
	assert.equal(tokenizer.countTexts(['hello world']), 2);
	assert.notEqual(cache[ranks], undefined, 'the ranks are loaded by the first count');
});
