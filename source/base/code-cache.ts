/**
 * V8's code cache for a CommonJS script — what Node 22 does for every module with its compile cache,
 * which Node 20 does not have. The script is compiled with the cache an earlier start of the same
 * script made under the same Node (the cache's file is named by a hash of the script, Node's version
 * and the architecture); the first start compiles it from source and, a second later, writes the
 * cache for the next — by then holding the functions the start ran, not only the script's top level.
 *
 * Where: GATEWAY_TUI_CODE_CACHE, else `code` in the platform's cache directory (env-paths:
 * ~/.cache/gateway-tui/code on Linux); `off` compiles from source every time. The directory is made
 * 0700 and the files 0600; a directory another user could write into is neither read nor written,
 * since its files become code. A cache V8 rejects (made under other V8 flags, say) is replaced, and
 * at most a few caches of one script are kept (an upgrade leaves the old one behind). Nothing about
 * the cache can stop the script from loading: a cache that cannot be read or written costs only the
 * compile.
 */
import envPaths from 'env-paths';
import {createHash} from 'node:crypto';
import {mkdirSync, readdirSync, readFileSync, statSync, unlinkSync} from 'node:fs';
import {createRequire} from 'node:module';
import {basename, dirname, join, resolve} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Script} from 'node:vm';
import {writeFileAtomically} from './atomic-write.js';

/** How long after the script ran its cache is written: the start's functions are compiled by then. */
export const codeCacheWriteDelayMs = 1000;

/** Caches of one script kept in the directory (the newest). */
const kept = 3;

// The wrapper Node puts around a CommonJS module, on the script's first line; `columnOffset` takes
// its length back off that line's columns, so stack traces point where the file does.
export const wrapperHead = '(function (exports, require, module, __filename, __dirname) { ';
const wrapperTail = '\n});';

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: {exports: unknown}, filename: string, dirname: string) => void;

/** The directory for code caches, or null when they are off. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
	const setting = env.GATEWAY_TUI_CODE_CACHE?.trim();
	if (setting === 'off') return null;
	if (setting) return resolve(setting);
	return join(envPaths('gateway-tui', {suffix: ''}).cache, 'code');
}

/** What became of the cache as a script loaded: none kept, read and used, read and refused by V8, or not read (a directory others can write into). */
export type CodeCacheOutcome = 'off' | 'missing' | 'used' | 'rejected' | 'untrusted';

/**
 * What `require(file)` returns, with the script compiled from (and for) the code cache in `dir`.
 * `writeAtExit`: a missing cache is written as the process exits, if that comes before the delay
 * (a command that ends in a fraction of a second would otherwise never make one).
 */
export function requireCached(file: string, dir: string | null = codeCacheDir(), options: {readonly writeAtExit?: boolean} = {}): unknown {
	return loadCached(file, dir, codeCacheWriteDelayMs, options.writeAtExit).exports;
}

/**
 * One of the build's CommonJS bundles, for the ES module at `metaUrl` beside it in dist/: compiled
 * with the code cache (requireCached). Run from the sources (under tsx, `metaUrl` a `.ts` or `.tsx`
 * file), the module `source` (relative to `metaUrl`) is imported as it is instead; its path is built
 * at run time, so that the build does not bundle it into the caller as well.
 */
export async function loadBundle(metaUrl: string, bundle: string, source: string, options: {readonly writeAtExit?: boolean} = {}): Promise<unknown> {
	const here = fileURLToPath(metaUrl);
	if (/\.tsx?$/.test(here)) return import(new URL(source, metaUrl).href);
	return requireCached(join(dirname(here), bundle), undefined, options);
}

/** requireCached, saying what became of the cache; the cache is written `writeDelayMs` after the script ran, when it is missing or refused. */
export function loadCached(file: string, dir: string | null, writeDelayMs = codeCacheWriteDelayMs, writeAtExit = false): {exports: unknown; cache: CodeCacheOutcome} {
	if (dir === null) return {exports: createRequire(file)(file), cache: 'off'};
	// Hashed as bytes: hashing the decoded text would encode it all again (~1 ms more for the stack).
	const bytes = readFileSync(file);
	const source = bytes.toString('utf8');
	const name = `${basename(file)}.${createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(bytes).digest('hex').slice(0, 32)}.bin`;
	const path = join(dir, name);
	const trusted = ownDirectory(dir);
	const cachedData = trusted ? readOrNull(path) : null;
	// No import() in the script: Node 20 runs one only with an experimental loader option, which warns.
	const script = new Script(wrapperHead + source + wrapperTail, {filename: file, columnOffset: -wrapperHead.length, ...(cachedData ? {cachedData} : {})});
	const wrapper = script.runInThisContext() as ModuleFunction;
	const module = {exports: {} as unknown};
	wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
	const cache: CodeCacheOutcome = !trusted ? 'untrusted' : cachedData === null ? 'missing' : script.cachedDataRejected === true ? 'rejected' : 'used';
	if (cache === 'missing' || cache === 'rejected') {
		let written = false;
		const write = () => {
			if (written) return;
			written = true;
			writeCache(script, dir, path, basename(file));
		};
		setTimeout(write, writeDelayMs).unref();
		if (writeAtExit) process.once('exit', write);
	}
	return {exports: module.exports, cache};
}

/** Whether `dir` is missing or ours alone to write: anyone who can write to it chooses our code. */
function ownDirectory(dir: string): boolean {
	try {
		const stat = statSync(dir);
		const uid = process.getuid?.();
		return stat.isDirectory() && (uid === undefined || stat.uid === uid) && (process.platform === 'win32' || (stat.mode & 0o022) === 0);
	} catch {
		return true;
	}
}

function readOrNull(path: string): Buffer | null {
	try {
		return readFileSync(path);
	} catch {
		return null;
	}
}

function writeCache(script: Script, dir: string, path: string, scriptName: string): void {
	try {
		mkdirSync(dir, {recursive: true, mode: 0o700});
		if (!ownDirectory(dir)) return;
		writeFileAtomically(path, script.createCachedData());
		const others = readdirSync(dir)
			.filter(entry => entry.startsWith(`${scriptName}.`) && entry.endsWith('.bin') && entry !== basename(path))
			.map(entry => ({entry, at: statSync(join(dir, entry)).mtimeMs}))
			.sort((a, b) => b.at - a.at);
		for (const {entry} of others.slice(kept - 1)) unlinkSync(join(dir, entry));
	} catch {
		// A cache not written is compiled again next time: nothing to tell the user.
	}
}
