/**
 * A private file written in one step: a temporary file beside it, renamed over it, so a reader sees
 * the old file or the new one, never half of one. For the master key file (store/sealing.ts) and the
 * code cache (code-cache.ts).
 */
import {chmodSync, mkdirSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {dirname} from 'node:path';

/** Writes `data` to `file` (0600; its directory made 0700 when missing), replacing it in one step. */
export function writeFileAtomically(file: string, data: string | Uint8Array): void {
	mkdirSync(dirname(file), {recursive: true, mode: 0o700});
	// The thread too: the TUI's core runs in a worker of the same process. node:worker_threads is
	// loaded here, on the first write, not with this module: ~4 ms of every command's start.
	const temporary = `${file}.${process.pid}-${process.getBuiltinModule('node:worker_threads').threadId}.tmp`;
	try {
		writeFileSync(temporary, data, {mode: 0o600});
		chmodSync(temporary, 0o600);
		renameSync(temporary, file);
	} catch (error) {
		rmSync(temporary, {force: true});
		throw error;
	}
}
