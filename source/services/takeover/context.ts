/** Options resolved once: the home directory, the environment, the gateway's URL. */
import {homedir} from 'node:os';
import {resolve} from 'node:path';
import {UserError} from '../../base/errors.js';
import {resolveHome} from '../../base/paths.js';
import type {TakeoverOptions} from './types.js';
import {gatewayUrl} from '../../base/paths.js';

export type Context = {
	readonly home: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The gateway's root URL, without a trailing slash. */
	readonly gateway: string;
	readonly dataDir: string;
};

export function resolveContext(options: TakeoverOptions = {}, dataDir?: string): Context {
	const env = options.env ?? process.env;
	const home = resolve(options.home ?? (env.HOME || homedir()));
	const gateway = (options.gatewayUrl ?? gatewayUrl()).replace(/\/+$/, '').replace(/\/v1$/, '');
	try {
		new URL(gateway);
	} catch {
		throw new UserError(`Invalid gateway URL "${options.gatewayUrl}": give one like http://127.0.0.1:11580.`);
	}
	return {home, env, gateway, dataDir: resolve(options.dataDir ?? dataDir ?? resolveHome(undefined, env as NodeJS.ProcessEnv))};
}

const loopback: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function parts(url: string): {protocol: string; host: string; port: string; path: string} | null {
	try {
		const parsed = new URL(url);
		const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
		const host = loopback.has(parsed.hostname) ? 'loopback' : parsed.hostname;
		return {protocol: parsed.protocol, host, port, path: parsed.pathname.replace(/\/+$/, '').replace(/\/v1(beta)?$/, '')};
	} catch {
		return null;
	}
}

/** True when `value` is this gateway's root or `/v1` URL (localhost, 127.0.0.1 and ::1 are the same host). */
export function pointsAtGateway(value: unknown, gateway: string): boolean {
	if (typeof value !== 'string') return false;
	const a = parts(value.trim());
	const b = parts(gateway);
	return a !== null && b !== null && a.protocol === b.protocol && a.host === b.host && a.port === b.port && a.path === b.path;
}

export const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
