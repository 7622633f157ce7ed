/**
 * The bench's processes: children it spawns (fake upstream, bare relay, `gateway-tui serve`), the
 * TUI in a private tmux server, temp homes, and their cleanup — on a normal end, on Ctrl+C /
 * SIGTERM, and on a crash. Only what this file started is ever stopped, by its own pid or socket.
 */
import {execFile, spawn, type ChildProcess} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {performance} from 'node:perf_hooks';
import {createInterface} from 'node:readline';
import {fileURLToPath} from 'node:url';
import {buildSync} from 'esbuild';
import {appEnv, startTmux, type Tmux} from '../e2e/tmux.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const cliPath = join(root, 'dist', 'cli.js');

const children = new Set<ChildProcess>();
/** Each private tmux server and its socket file, which tmux leaves behind when killed. */
const sessions = new Map<Tmux, string | null>();
const dirs = new Set<string>();

export function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), 'gateway-tui-bench-'));
	dirs.add(dir);
	return dir;
}

function alive(child: ChildProcess): boolean {
	return child.exitCode === null && child.signalCode === null;
}

/** Kill everything still running (by pid / tmux socket) and remove the temp dirs. Synchronous: safe in 'exit'. */
export function cleanupNow(): void {
	for (const [tmux, socket] of sessions) {
		tmux.kill();
		if (socket) rmSync(socket, {force: true});
	}
	sessions.clear();
	for (const child of children) if (alive(child)) child.kill('SIGKILL');
	children.clear();
	for (const dir of dirs) rmSync(dir, {recursive: true, force: true, maxRetries: 5}); // a TUI still stopping may write its log meanwhile
	dirs.clear();
}

let installed = false;
export function installCleanup(): void {
	if (installed) return;
	installed = true;
	process.on('exit', cleanupNow);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => {
			process.stderr.write(`\nbench: ${signal}, stopping the children and removing the temp dirs…\n`);
			cleanupNow();
			process.exit(130);
		});
	}
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export async function stop(child: ChildProcess, graceMs = 5_000): Promise<void> {
	if (alive(child)) {
		const gone = new Promise<void>(resolve => child.once('exit', () => resolve()));
		child.kill('SIGTERM');
		const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
		await gone;
		clearTimeout(timer);
	}
	children.delete(child);
}

function track(child: ChildProcess): ChildProcess {
	children.add(child);
	child.once('exit', () => children.delete(child));
	return child;
}

/** Resolves with the first stdout/stderr line matching `pattern`; rejects on exit or after `ms`. */
function waitForLine(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp, ms: number, what: string): Promise<RegExpExecArray> {
	const source = child[stream];
	if (!source) return Promise.reject(new Error(`${what}: its ${stream} is not piped`));
	const seen: string[] = [];
	let matched = false;
	return new Promise((resolve, reject) => {
		const lines = createInterface({input: source});
		const fail = (why: string) => {
			clearTimeout(timer);
			reject(new Error(`${what} ${why}; it printed:\n${seen.join('\n').slice(-2000)}`));
		};
		const timer = setTimeout(() => fail(`did not start within ${ms} ms`), ms);
		child.once('exit', code => {
			if (!matched) fail(`exited (code ${code})`);
		});
		// Reading goes on after the match, so the pipe never fills up.
		lines.on('line', line => {
			if (matched) return;
			seen.push(line);
			const match = pattern.exec(line);
			if (match) {
				matched = true;
				clearTimeout(timer);
				resolve(match);
			}
		});
	});
}

/**
 * A bench helper (upstream.ts, bare-relay.ts) as a child; resolves with its port. Through tsx, or —
 * `bundled`, for a process whose CPU and memory are compared with serve's — bundled by esbuild as
 * serve is and run by plain node, so tsx's loader thread is not counted against it.
 */
export async function startHelper(file: string, env: Record<string, string>, options: {bundled?: boolean} = {}): Promise<{child: ChildProcess; port: number}> {
	let args = ['--import', 'tsx', join(root, 'test', 'bench', file)];
	if (options.bundled) {
		const outfile = join(tempDir(), file.replace(/\.ts$/, '.mjs'));
		buildSync({entryPoints: [join(root, 'test', 'bench', file)], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning', banner: {js: "import {createRequire as __benchRequire} from 'node:module'; const require = __benchRequire(import.meta.url);"}});
		args = [outfile];
	}
	const child = track(spawn(process.execPath, args, {cwd: root, env: {...process.env, ...env, NODE_NO_WARNINGS: '1'}, stdio: ['ignore', 'pipe', 'inherit']}));
	const match = await waitForLine(child, 'stdout', /^\{"port":(\d+)\}$/, 30_000, file);
	return {child, port: Number(match[1])};
}

/**
 * The environment the start figures are judged in: the bench's own without NODE_EXTRA_CA_CERTS. With
 * it set, Node parses its own root certificates and the file's at every start, before any of the
 * process's code runs (Node 20's `InitCryptoOnce`): a cost of the machine's setup (here, a proxy's
 * CA), paid by every Node process alike, which the bench measures and prints beside the figures.
 */
export function startEnv(): NodeJS.ProcessEnv {
	const env = {...process.env};
	delete env.NODE_EXTRA_CA_CERTS;
	return env;
}

/** `gateway-tui --home HOME …args`; resolves with stdout and the wall time from spawn to exit. */
export function cli(home: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{stdout: string; ms: number}> {
	const started = performance.now();
	return new Promise((resolve, reject) => {
		execFile(process.execPath, [cliPath, '--home', home, ...args], {cwd: root, env: {...env, NODE_NO_WARNINGS: '1'}, timeout: 60_000}, (error, stdout, stderr) => {
			if (error) reject(new Error(`gateway-tui ${args.join(' ')} failed: ${stderr || error.message}`));
			else resolve({stdout, ms: performance.now() - started});
		});
	});
}

/** Node's own start in `env`: the wall time of `node -e 0`, the floor under every start figure. */
export function nodeStart(env: NodeJS.ProcessEnv): Promise<number> {
	const started = performance.now();
	return new Promise((resolve, reject) => {
		execFile(process.execPath, ['-e', '0'], {cwd: root, env, timeout: 60_000}, error => {
			if (error) reject(new Error(`node -e 0 failed: ${error.message}`));
			else resolve(performance.now() - started);
		});
	});
}

export type Serve = {child: ChildProcess; pid: number; url: string; startMs: number};

/** `gateway-tui serve --port 0` (request lines to /dev/null); startMs = spawn → its "listening on" line. */
export async function startServe(home: string, env: NodeJS.ProcessEnv = process.env): Promise<Serve> {
	const started = performance.now();
	const child = track(spawn(process.execPath, [cliPath, '--home', home, 'serve', '--port', '0'], {cwd: root, env: {...env, NODE_NO_WARNINGS: '1'}, stdio: ['ignore', 'ignore', 'pipe']}));
	const match = await waitForLine(child, 'stderr', /listening on (http:\/\/127\.0\.0\.1:\d+)/, 30_000, 'gateway-tui serve');
	const startMs = performance.now() - started;
	if (child.pid === undefined) throw new Error('gateway-tui serve has no pid');
	return {child, pid: child.pid, url: match[1], startMs};
}

export type Tui = {tmux: Tmux; pid: number; url: string};

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * `gateway-tui --home HOME --port 0` in a private tmux server of `size`, known to the cleanup until
 * `forget`; `before`: shell commands the pane runs first.
 */
function tuiInTmux(home: string, size: {columns: number; rows: number}, env: NodeJS.ProcessEnv, before = ''): Tmux {
	const tmux = startTmux({dir: home, cwd: root, ...size, env, command: `${before}exec ${shellQuote(process.execPath)} ${shellQuote(cliPath)} --home ${shellQuote(home)} --port 0`});
	sessions.set(tmux, null);
	sessions.set(tmux, tmux.run('display', '-p', '#{socket_path}').trim() || null);
	return tmux;
}

/** A tmux server that was stopped: its socket file (which tmux leaves behind) removed, and no longer cleaned up on exit. */
function forget(tmux: Tmux): void {
	const socket = sessions.get(tmux);
	if (socket) rmSync(socket, {force: true});
	sessions.delete(tmux);
}

/** The TUI (`gateway-tui --home HOME --port 0`) in a private 120×40 tmux server, without CI set. */
export async function startTui(home: string): Promise<Tui> {
	const tmux = tuiInTmux(home, {columns: 120, rows: 40}, appEnv({}));
	const screen = await tmux.waitFor(/● (http:\/\/127\.0\.0\.1:\d+)/, 30_000);
	const url = /● (http:\/\/127\.0\.0\.1:\d+)/.exec(screen)?.[1];
	const pid = Number(tmux.run('display', '-p', '#{pane_pid}').trim());
	if (!url || !Number.isInteger(pid) || pid <= 0) throw new Error(`the TUI's address or pid not found; the screen shows:\n${screen}`);
	return {tmux, pid, url};
}

/** One start of the TUI, timed: spawn → its first frame (the Keys pane), and → its address on screen (the core listening). */
export type TuiStart = {firstFrameMs: number; addressMs: number};

/** Text of a terminal's output stream without its escape sequences (CSI, OSC and two-byte ones). */
const plainText = (raw: string) => raw.replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '').replace(/\x1b\[[0-9;?<>=]*[ -/]*[@-~]/g, '').replace(/\x1b[@-_]/g, '');

/**
 * Start the TUI in a private 100×30 tmux server and time it as a person sees it: from the moment it
 * is launched to its first frame and to its address on screen, read from the pane's output as tmux
 * receives it (`pipe-pane` into a file, read every 2 ms) — not by capturing the screen in a loop,
 * which would spawn a tmux client per look on the cores the TUI starts on. The pane's shell waits
 * for a key before it `exec`s the TUI, so the pipe is in place before its first byte; the clock
 * starts as the key is sent. Waits `holdMs` after the address (the TUI writes its code cache a
 * second after it loads), then stops it and waits for its exit. `codeCache` is its
 * GATEWAY_TUI_CODE_CACHE: a fresh directory times a start that compiles everything. Judged without
 * NODE_EXTRA_CA_CERTS, as the other starts are (see `startEnv`).
 */
export async function timeTuiStart(home: string, options: {codeCache: string; holdMs: number; timeoutMs?: number}): Promise<TuiStart> {
	const output = join(home, `tui-output-${Date.now()}.raw`);
	writeFileSync(output, '');
	const env = appEnv({GATEWAY_TUI_CODE_CACHE: options.codeCache});
	delete env.NODE_EXTRA_CA_CERTS;
	const tmux = tuiInTmux(home, {columns: 100, rows: 30}, env, 'read go; ');
	try {
		tmux.run('pipe-pane', '-O', `cat >> ${shellQuote(output)}`);
		const started = performance.now();
		tmux.run('send-keys', 'Enter');
		const deadline = started + (options.timeoutMs ?? 30_000);
		let firstFrameMs = Number.NaN;
		for (;;) {
			const text = plainText(readFileSync(output, 'utf8'));
			const now = performance.now() - started;
			if (Number.isNaN(firstFrameMs) && text.includes('Virtual keys')) firstFrameMs = now;
			if (!Number.isNaN(firstFrameMs) && /● http:\/\/127\.0\.0\.1:\d+/.test(text)) {
				await new Promise(resolve => setTimeout(resolve, options.holdMs));
				return {firstFrameMs, addressMs: now};
			}
			if (performance.now() > deadline) throw new Error(`the TUI showed ${Number.isNaN(firstFrameMs) ? 'no Keys pane' : 'no address'} within ${options.timeoutMs ?? 30_000} ms; the screen shows:\n${tmux.screen()}`);
			await new Promise(resolve => setTimeout(resolve, 2));
		}
	} finally {
		await tmux.stop();
		forget(tmux);
	}
}

export function stopTui(tui: Tui): void {
	tui.tmux.kill();
	forget(tui.tmux);
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
export function memoryOf(pid: number): {rssMb: number; peakMb: number} {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
	return {rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024};
}

/**
 * CPU time a process has used so far, all its threads, user and system, in ms (/proc/PID/stat,
 * counted in the kernel's USER_HZ ticks of 10 ms — read over a second or more).
 */
export function cpuMsOf(pid: number): number {
	return ticksMs(`/proc/${pid}/stat`);
}

/** The same for a process's main thread alone (the TUI's UI: its gateway runs in a worker thread). */
export function mainThreadCpuMsOf(pid: number): number {
	return ticksMs(`/proc/${pid}/task/${pid}/stat`);
}

function ticksMs(statFile: string): number {
	const fields = readFileSync(statFile, 'utf8').split(') ')[1]?.split(' ') ?? [];
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Reset the kernel's peak-RSS mark (VmHWM) of a process we own; false where the kernel refuses. */
export function resetPeak(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** Samples VmRSS every `everyMs` until stopped; returns the highest, in MB. */
export function sampleRss(pid: number, everyMs = 50): () => number {
	let highest = memoryOf(pid).rssMb;
	const timer = setInterval(() => {
		try {
			highest = Math.max(highest, memoryOf(pid).rssMb);
		} catch {
			// the process is gone; keep what was seen
		}
	}, everyMs);
	return () => {
		clearInterval(timer);
		return highest;
	};
}

/** The kernel's count of connections dropped because a listen queue was full (TcpExt ListenDrops), or null. */
export function listenDrops(): number | null {
	try {
		const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
		for (let index = 0; index + 1 < lines.length; index += 2) {
			const names = lines[index].split(' ');
			if (names[0] !== 'TcpExt:') continue;
			const value = Number(lines[index + 1].split(' ')[names.indexOf('ListenDrops')]);
			return Number.isFinite(value) ? value : null;
		}
	} catch {
		// not Linux, or no /proc/net
	}
	return null;
}
