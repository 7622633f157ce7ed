/**
 * Run the real CLI as a child process, as a user's shell would: the built `dist/cli.js` that the
 * `gateway-tui` bin points to (`npm test` builds it first; `node test/run.mjs` alone uses what was
 * last built — run `npm run build` after changing source/).
 */
import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const cliArgs = [`${root}dist/cli.js`];

export type Ran = {code: number | null; stdout: string; stderr: string};

export function runCli(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...cliArgs, ...args], {cwd: root, env: {...process.env, NODE_NO_WARNINGS: '1', ...env}, stdio: ['ignore', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', chunk => (stdout += chunk));
		child.stderr.on('data', chunk => (stderr += chunk));
		child.on('error', reject);
		child.on('close', code => resolve({code, stdout, stderr}));
	});
}

/** Start `gateway-tui serve` and resolve once it listens, with its URL. */
export function startServe(args: readonly string[], env: Record<string, string | undefined>): Promise<{child: ChildProcess; url: string; stdout: () => string; stderr: () => string}> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...cliArgs, 'serve', ...args], {cwd: root, env: {...process.env, NODE_NO_WARNINGS: '1', ...env}, stdio: ['ignore', 'pipe', 'pipe']});
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', chunk => (stdout += chunk));
		child.stderr!.on('data', chunk => {
			stderr += chunk;
			const match = /listening on (http:\/\/\S+)/.exec(stderr);
			if (match) resolve({child, url: match[1]!, stdout: () => stdout, stderr: () => stderr});
		});
		child.on('close', code => reject(new Error(`serve exited with ${code}: ${stderr}`)));
	});
}

export async function stopChild(child: ChildProcess): Promise<number | null> {
	if (child.exitCode !== null) return child.exitCode;
	const closed = new Promise<number | null>(resolve => child.once('close', code => resolve(code)));
	child.kill('SIGINT');
	return closed;
}

/** A refused command: exit code 1, nothing on stdout, and one line on stderr that matches `message`. */
/** A command that succeeded: its stdout (else the test fails with its stderr). */
export function ok(result: Ran): string {
	assert.equal(result.code, 0, result.stderr);
	return result.stdout;
}

export function assertRefused(result: Ran, message: RegExp): void {
	assert.equal(result.code, 1, result.stderr);
	assert.equal(result.stdout, '');
	const lines = result.stderr.trim().split('\n');
	assert.equal(lines.length, 1, result.stderr);
	assert.match(lines[0]!, /^gateway-tui: /);
	assert.match(lines[0]!, message);
}
