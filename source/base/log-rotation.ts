/**
 * The TUI's log file (`<home>/gateway-tui.log`) gets a line per request for as long as the TUI is
 * used. Past `logRotateBytes` it is moved to `gateway-tui.log.1`, replacing the one before, and a new
 * log begins: when the TUI starts, and while it runs (the gateway worker, which writes the request
 * lines, checks after each batch). The UI thread appends its rare lines by path, so they follow.
 */
import {realpathSync, renameSync, statSync} from 'node:fs';

export const logRotateBytes = 20 * 1024 * 1024;

/** The log's size now; 0 when there is none yet. */
export function logSize(path: string): number {
	try {
		return statSync(path).size;
	} catch {
		return 0;
	}
}

/**
 * Move the log to `.1` (one old generation kept). False when it could not be moved: keep appending.
 * Only a regular file is moved. A log that is a link is followed: the file it names is moved (and
 * the link, opened again, makes a new one there), so a log the user sends elsewhere stays where they
 * sent it. A log that is not a file — linked to `/dev/null` to keep no log, or a FIFO a collector
 * reads — is never moved: a rename would put a regular file in the device's place.
 */
export function rotateLog(path: string): boolean {
	try {
		const file = realpathSync(path);
		if (!statSync(file).isFile()) return false;
		renameSync(file, `${file}.1`);
		return true;
	} catch {
		return false;
	}
}
