#!/usr/bin/env node
// Finds every *.test.ts / *.test.tsx under test/ and runs them with Node's own test runner
// (through tsx, so the TypeScript sources run without a separate build of the tests).
// Usage: node test/run.mjs [filter…]  — a filter keeps only files whose path contains it.
import {chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join, relative} from 'node:path';
import {spawn} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testDir = join(root, 'test');
const filters = process.argv.slice(2);

function walk(dir) {
	const out = [];
	for (const name of readdirSync(dir)) {
		if (name === 'node_modules' || name.startsWith('.')) continue;
		const path = join(dir, name);
		if (statSync(path).isDirectory()) out.push(...walk(path));
		else if (/\.test\.tsx?$/.test(name)) out.push(relative(root, path));
	}
	return out;
}

const files = walk(testDir).filter(f => filters.length === 0 || filters.some(x => f.includes(x))).sort();
if (files.length === 0) {
	console.error(`No test files matched ${filters.join(', ') || 'test/**/*.test.ts'}.`);
	process.exit(1);
}
// Everything the run puts in a temp folder — the tests' stores and homes, tmux's sockets, the
// servers' data — goes in one folder of its own (TMPDIR, TMUX_TMPDIR), removed when the run ends: a
// run used to leave some seventy folders and sockets in the system's temp folder.
const runDir = mkdtempSync(join(tmpdir(), 'gateway-tui-test-run-'));
// Others may pass through it, not list it: run as root, the tests start PostgreSQL as its own user in a folder of its own in here.
chmodSync(runDir, 0o711);
// The store's master key (store/sealing.ts) of this run lives there too, never the user's config.
const keyDir = join(runDir, 'key');
mkdirSync(keyDir, {mode: 0o700});
// And the code cache of the HTTP stack (base/code-cache.ts) that the built serve and TUI write: a run
// starts with none, as a fresh install does, and leaves nothing in the user's cache directory.
const codeCacheDir = join(runDir, 'code-cache');
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
	cwd: root,
	stdio: 'inherit',
	env: {...process.env, NODE_NO_WARNINGS: '1', TMPDIR: runDir, TMUX_TMPDIR: runDir, GATEWAY_TUI_MASTER_KEY_FILE: process.env.GATEWAY_TUI_MASTER_KEY_FILE ?? join(keyDir, 'master.key'), GATEWAY_TUI_CODE_CACHE: process.env.GATEWAY_TUI_CODE_CACHE ?? codeCacheDir},
});
child.on('exit', (code, signal) => {
	rmSync(runDir, {recursive: true, force: true});
	process.exit(signal ? 1 : code ?? 1);
});
