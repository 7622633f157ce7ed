/**
 * Running the real AI CLIs (devDependencies) headless, as a user's shell would: HOME at a temporary
 * home, none of the tools' own variables, no CI, no network but loopback (see
 * test/takeover/e2e-tools.test.ts for what keeps each tool off it).
 */
import {spawn} from 'node:child_process';
import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

export type Tool = 'claude' | 'gemini' | 'codex';
export type Ran = {readonly code: number | null; readonly stdout: string; readonly stderr: string};

export const toolBins: Readonly<Record<Tool, string>> = {
	claude: fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url)),
	gemini: fileURLToPath(new URL('../../node_modules/.bin/gemini', import.meta.url)),
	codex: fileURLToPath(new URL('../../node_modules/.bin/codex', import.meta.url)),
};

export const toolArgs: Readonly<Record<Tool, (prompt: string) => string[]>> = {
	claude: prompt => ['-p', prompt],
	gemini: prompt => ['-p', prompt],
	codex: prompt => ['exec', '--skip-git-repo-check', '--color', 'never', prompt],
};

export const haveTools = (): boolean => Object.values(toolBins).every(bin => existsSync(bin));

/** A user's shell environment with HOME at `home`: no ANTHROPIC_*, GEMINI_*, … and no trust of the working folder. */
export function userEnv(home: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(process.env)) {
		if (/^(ANTHROPIC_|CLAUDE_|GEMINI_|GOOGLE_|OPENAI_|CODEX_|XDG_)/.test(name) || name === 'CI') continue;
		env[name] = value;
	}
	return {...env, HOME: home, NO_COLOR: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1'};
}

/** Runs a tool with closed stdin in `cwd`; its whole process group is killed after `timeoutMs`. */
export function runTool(tool: Tool, prompt: string, options: {cwd: string; home: string; timeoutMs?: number}): Promise<Ran> {
	return new Promise((resolve, reject) => {
		const child = spawn(toolBins[tool], toolArgs[tool](prompt), {cwd: options.cwd, env: userEnv(options.home), stdio: ['ignore', 'pipe', 'pipe'], detached: true});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => {
			stderr += '\n[killed: time-out]';
			if (child.pid) process.kill(-child.pid, 'SIGKILL');
		}, options.timeoutMs ?? 60_000);
		child.on('error', error => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', code => {
			clearTimeout(timer);
			resolve({code, stdout, stderr});
		});
	});
}
