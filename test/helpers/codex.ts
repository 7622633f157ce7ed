/**
 * The Codex CLI the tests run (npm `@openai/codex`, a Rust binary shipped as an optional platform
 * package), and why it cannot run here when it cannot (the tests then skip, saying so).
 */
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

export const codexBin = fileURLToPath(new URL('../../node_modules/.bin/codex', import.meta.url));

/** Why the binary cannot run here, or undefined when it can. */
export function codexCannotRun(): string | undefined {
	const probe = spawnSync(codexBin, ['--version'], {encoding: 'utf8', timeout: 15_000});
	if (probe.error) return `codex binary not runnable (${probe.error.message}); install @openai/codex's platform package`;
	if (probe.status !== 0) return `codex --version exited ${String(probe.status)}: ${probe.stderr.slice(0, 200)}`;
	return undefined;
}
