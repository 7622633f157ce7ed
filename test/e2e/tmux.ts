/**
 * Driving a real terminal for end-to-end tests and screenshots: a private tmux server (its own
 * socket, its own config), the app started in it without CI set (Ink prints only the last frame
 * when CI is set), keys sent one at a time as a person types, and the screen read back.
 */
import {execFileSync, spawnSync} from 'node:child_process';
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';

export function hasTmux(): boolean {
	return spawnSync('tmux', ['-V']).status === 0;
}

export type Tmux = {
	run(...args: string[]): string;
	/** Type keys (tmux key names, e.g. Enter, Escape, Down, or a character), one at a time. */
	keys(...names: string[]): Promise<void>;
	/** Type text literally, in one chunk (like a paste). */
	text(value: string): Promise<void>;
	screen(options?: {colors?: boolean}): string;
	/** Wait until the screen matches; fail with the screen otherwise. */
	waitFor(pattern: RegExp | string, ms?: number): Promise<string>;
	kill(): void;
	/** The pid of the process in the pane (the app, when the pane runs it without a shell), or 0 once the server is gone. */
	panePid(): number;
	/**
	 * Kill the server and wait (up to 10 s) until the app in its pane has exited: it writes to its
	 * data directory until then. An app still running then is killed, and this fails: closing its
	 * terminal must stop it (it would hold its port with no terminal to quit it from). The failure
	 * says where it was: a Node process in the pane writes a diagnostic report first (SIGUSR2), and
	 * the error carries its JavaScript stacks and the handles that kept it running.
	 */
	stop(): Promise<void>;
};

/** The processes `pid` started, and theirs (from /proc; none where there is no /proc). */
function descendants(pid: number): number[] {
	const found: number[] = [];
	let tasks: string[] = [];
	try {
		tasks = readdirSync(`/proc/${pid}/task`);
	} catch {
		return found;
	}
	for (const task of tasks) {
		let children = '';
		try {
			children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
		} catch {
			continue;
		}
		for (const child of children.split(' ').filter(Boolean).map(Number)) found.push(child, ...descendants(child));
	}
	return found;
}

/** Whether `pid` is a process that has not exited (a zombie has: it waits only to be collected). */
export function running(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
		return state !== 'Z' && state !== 'X';
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
	}
	// No /proc (macOS): whether a signal can reach it.
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** The environment of the app under test: no CI, no display (so no system clipboard), no outer tmux. */
export function appEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {...process.env, NODE_NO_WARNINGS: '1', TERM: 'xterm-256color', ...extra};
	for (const name of ['CI', 'TMUX', 'TMUX_PANE', 'DISPLAY', 'WAYLAND_DISPLAY', 'SSH_CONNECTION', 'SSH_TTY', 'SSH_CLIENT', 'NO_COLOR']) delete env[name];
	return env;
}

/** A diagnostic report (`process.report`) as far as a hang needs it. */
type Report = {
	header?: {processId?: number; threadId?: number | null};
	javascriptStack?: {message?: string; stack?: string[]};
	libuv?: Array<{type?: string; is_active?: boolean; is_referenced?: boolean; [detail: string]: unknown}>;
	workers?: Report[];
};

/** What kept a process running, from its report: each thread's JavaScript stack and its active, referenced handles. */
function hangSummary(report: Report, indent = ''): string {
	const stack = [report.javascriptStack?.message ?? '', ...(report.javascriptStack?.stack ?? []).slice(0, 12)].map(line => `${indent}  ${line.trim()}`);
	const handles = (report.libuv ?? []).filter(handle => handle.is_active && handle.is_referenced && handle.type !== 'loop').map(({type, is_active: _, is_referenced: __, ...details}) => `${indent}  ${type} ${JSON.stringify(details)}`);
	const workers = (report.workers ?? []).map(worker => hangSummary(worker, `${indent}  `));
	return [`${indent}thread ${report.header?.threadId ?? 0}: stack`, ...stack, `${indent}active handles:`, ...handles, ...workers].join('\n');
}

/** Start `command` in a new tmux server of `columns`×`rows`; OSC 52 from the app lands in tmux's buffer. */
export function startTmux(options: {dir: string; cwd: string; command: string; env: NodeJS.ProcessEnv; columns: number; rows: number}): Tmux {
	const socket = `gateway-tui-${process.pid}-${Date.now()}`;
	const config = join(options.dir, 'tmux.conf');
	writeFileSync(config, ['set -g escape-time 0', 'set -g set-clipboard on', 'set -g remain-on-exit on', 'set -g status off', 'set -g default-terminal xterm-256color', ''].join('\n'));
	// Where a Node process of the pane that outlives its terminal writes its report (see `stop`).
	const reports = join(options.dir, `reports-${socket}`);
	mkdirSync(reports, {recursive: true});
	const env = {...options.env, NODE_OPTIONS: [options.env.NODE_OPTIONS, '--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${reports}`].filter(Boolean).join(' ')};
	const run = (...args: string[]) => execFileSync('tmux', ['-L', socket, '-f', config, ...args], {env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']});
	run('new-session', '-d', '-x', String(options.columns), '-y', String(options.rows), '-c', options.cwd, options.command);
	const screen = ({colors = false} = {}) => run('capture-pane', '-p', ...(colors ? ['-e'] : []));
	/** The reports of the Node processes among `pids`, asked for with SIGUSR2 (up to 3 s; a process that is not Node writes none). */
	const reportsOf = async (pids: readonly number[]): Promise<Report[]> => {
		for (const pid of pids) {
			try {
				process.kill(pid, 'SIGUSR2');
			} catch {
				// gone meanwhile
			}
		}
		const deadline = Date.now() + 3000;
		let files: string[] = [];
		while (Date.now() < deadline) {
			files = readdirSync(reports).filter(name => name.endsWith('.json'));
			if (files.length >= pids.length) break;
			await delay(100);
		}
		await delay(200);
		return files.flatMap(name => {
			try {
				return [JSON.parse(readFileSync(join(reports, name), 'utf8')) as Report];
			} catch {
				return [];
			}
		});
	};
	return {
		run,
		async keys(...names) {
			for (const name of names) {
				run('send-keys', name);
				await delay(60);
			}
		},
		async text(value) {
			run('send-keys', '-l', value);
			await delay(60);
		},
		screen,
		async waitFor(pattern, ms = 8000) {
			const deadline = Date.now() + ms;
			for (;;) {
				const shown = screen();
				if (typeof pattern === 'string' ? shown.includes(pattern) : pattern.test(shown)) return shown;
				if (Date.now() > deadline) throw new Error(`the screen never showed ${String(pattern)}; it shows:\n${shown}`);
				await delay(50);
			}
		},
		kill() {
			try {
				run('kill-server');
			} catch {
				// already gone
			}
		},
		panePid() {
			try {
				return Number(run('display-message', '-p', '#{pane_pid}').trim());
			} catch {
				return 0;
			}
		},
		async stop() {
			const pane = this.panePid();
			// The pane's process and what it started (the app, under the shell that some tests run it with).
			const pids = pane > 0 ? [pane, ...descendants(pane)] : [];
			this.kill();
			const deadline = Date.now() + 10_000;
			for (;;) {
				const left = pids.filter(running);
				if (left.length === 0) return;
				if (Date.now() > deadline) {
					const found = await reportsOf(left);
					for (const pid of left) process.kill(pid, 'SIGKILL');
					throw new Error(`the pane's processes ${left.join(', ')} were still running 10 s after their terminal closed: killed${found.map(report => `\n${report.header?.processId}: ${hangSummary(report)}`).join('')}`);
				}
				await delay(50);
			}
		},
	};
}
