/**
 * Where gateway-tui keeps its data: `--home DIR`, else `GATEWAY_TUI_HOME`, else the per-user data
 * directory of the platform (env-paths: ~/.local/share/gateway-tui on Linux).
 */
import envPaths from 'env-paths';
import {statSync} from 'node:fs';
import {resolve} from 'node:path';

export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
	if (flag) return resolve(flag);
	if (env.GATEWAY_TUI_HOME) return resolve(env.GATEWAY_TUI_HOME);
	return envPaths('gateway-tui', {suffix: ''}).data;
}

/** A path that exists and is not a directory: given where a data directory is expected, it is not one. */
export function isFileAt(path: string): boolean {
	try {
		return !statSync(path).isDirectory();
	} catch {
		return false;
	}
}

export const defaultPort = 11580;
export const defaultHost = '127.0.0.1';

/** The URL clients use for a listen address (a wildcard address is reached through loopback). */
export function gatewayUrl(host = defaultHost, port = defaultPort): string {
	const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
	return `http://${shown}:${port}`;
}

/** Whether only this machine can reach an address. */
export function isLoopback(host: string): boolean {
	return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
