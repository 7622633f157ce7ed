/** `gateway-tui serve` — the proxy alone, headless, one log line per finished request. */
import type {Command} from 'commander';
import {closeOnCrash, defaultCrashCloseMs, crashText} from '../base/close-on-crash.js';
import {UserError} from '../base/errors.js';
import {defaultHost, defaultPort, isLoopback} from '../base/paths.js';
import {formatRequestLine} from '../base/request-line.js';
import type {RequestBodies, RequestFinished} from '../base/events.js';
import {homeOf, storeUrlOf} from './context.js';
import {Store} from '../store/index.js';
import {parseDuration} from '../services/parse.js';
import {periodWords} from '../base/periods.js';
import {budgetDollars} from '../base/digits.js';

export function parsePort(text: string): number {
	const port = Number(text);
	if (!/^\d+$/.test(text) || port > 65_535) throw new UserError(`Invalid port "${text}": give a number from 1 to 65535 (0 picks a free port), e.g. --port ${defaultPort}.`);
	return port;
}

export function registerServe(program: Command): void {
	program
		.command('serve')
		.description('run the proxy without the TUI (for servers, scripts and CI)')
		.option('--port <port>', 'port to listen on', String(defaultPort))
		.option('--host <host>', 'address to listen on (other machines can reach a non-loopback address)', defaultHost)
		.option('--json-logs', 'print one JSON object per request instead of a text line')
		.option('--probe-every <duration>', probeEveryHelp)
		.option('--allow-host <name>', allowHostHelp, collectHosts, [])
		.option('--body-limit <size>', bodyLimitHelp)
		.option('--capture-bodies', captureBodiesHelp)
		.option('--limits-fail <mode>', 'on a shared store (Redis, PostgreSQL) that cannot be reached: open (each gateway counts limits alone) or closed (refuse keys with limits); default: GATEWAY_TUI_LIMITS_FAIL, else open')
		.action(async (options: {port: string; host: string; jsonLogs?: boolean; probeEvery?: string; limitsFail?: string; captureBodies?: boolean} & SurfaceFlags, command: Command) => {
			captureBodiesFlag(options.captureBodies);
			const probeEveryMs = parseProbeEvery(options.probeEvery);
			await serve({home: homeOf(command), storeUrl: storeUrlOf(command)}, options.host, parsePort(options.port), options.jsonLogs === true, probeEveryMs, surfaceFlags(options), parseLimitsFail(options.limitsFail));
		});
}

export type SurfaceFlags = {allowHost?: string[]; bodyLimit?: string};

export const probeEveryHelp = "also check every enabled channel's model list this often (e.g. 60s): a refusal counts against the channel, a model the list no longer names or retires is a warning; off by default";

export function parseProbeEvery(text: string | undefined): number | undefined {
	return text === undefined ? undefined : parseDuration(text, '--probe-every interval');
}

/** `--limits-fail open|closed`; absent: the gateway reads GATEWAY_TUI_LIMITS_FAIL. */
export function parseLimitsFail(text: string | undefined): 'open' | 'closed' | undefined {
	if (text === undefined) return undefined;
	const mode = text.trim().toLowerCase();
	if (mode === 'open' || mode === 'closed') return mode;
	throw new UserError(`Invalid --limits-fail "${text}": use open (count limits per gateway while the shared store is unreachable) or closed (refuse requests of keys with limits meanwhile).`);
}

export const captureBodiesHelp = 'keep the request and response bodies of the newest 100 requests (the first 64 KiB of each, keys masked) for the request details; also GATEWAY_TUI_CAPTURE_BODIES=1';

/** `--capture-bodies`: the gateway (or the TUI's worker, whose environment is a copy of ours) reads GATEWAY_TUI_CAPTURE_BODIES. */
export function captureBodiesFlag(on: boolean | undefined): void {
	if (on) process.env.GATEWAY_TUI_CAPTURE_BODIES = '1';
}

export const allowHostHelp = 'also answer requests addressed to this host name (repeatable; for a gateway deliberately reached under a name, e.g. through a tunnel); localhost and the listen address are always accepted';
export const bodyLimitHelp = 'largest request body, e.g. 32mb (the default), 100mb, 512kb';
export const collectHosts = (value: string, previous: string[]) => [...previous, ...value.split(',').map(name => name.trim()).filter(Boolean)];

/** `--body-limit 32mb` → bytes. */
export function parseSize(text: string): number {
	const match = /^(\d+(?:\.\d+)?)\s*(b|kb|k|kib|mb|m|mib|gb|g|gib)?$/i.exec(text.trim());
	const unit = (match?.[2] ?? 'b').toLowerCase()[0]!;
	const bytes = match ? Math.round(Number(match[1]) * ({b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3} as Record<string, number>)[unit]!) : NaN;
	if (!(bytes >= 1024)) throw new UserError(`Invalid --body-limit "${text}": give a size of at least 1kb, like 32mb or 512kb.`);
	return bytes;
}

/** The surface settings the flags give (the rest keeps the gateway's defaults). */
export function surfaceFlags(options: SurfaceFlags): {allowHosts?: string[]; bodyLimitBytes?: number} {
	return {...(options.allowHost?.length ? {allowHosts: options.allowHost} : {}), ...(options.bodyLimit === undefined ? {} : {bodyLimitBytes: parseSize(options.bodyLimit)})};
}

/** The local data directory and the store URL (`--store`, GATEWAY_TUI_STORE or `<home>/gateway.sqlite`). */
export type StoreChoice = {readonly home: string; readonly storeUrl: string};

export async function serve(where: StoreChoice, host: string, port: number, jsonLogs: boolean, probeEveryMs?: number, surface: ReturnType<typeof surfaceFlags> = {}, limitsFail?: 'open' | 'closed'): Promise<void> {
	// Listening for Ctrl+C / SIGTERM / SIGHUP from the start, for the whole run: a signal that arrives while the
	// gateway starts, or between two listeners, must never fall back to the default (dying without
	// saving the last second of usage).
	const stopping = stopSignals();
	// Opened here, not by startGateway, so that the store URL reaches it; the gateway leaves closing a
	// store it was given to its caller. Its file is opened on libuv's threads while this one loads the
	// proxy's modules (fastify, undici, the format adapters), which load only when a gateway starts.
	const opening = Store.open(where.storeUrl, {home: where.home});
	opening.catch(() => {}); // awaited below: a store that fails meanwhile is no unhandled rejection
	const {startGateway} = await import('../proxy/gateway.js').catch(async (error: unknown) => {
		await (await opening.catch(() => null))?.close();
		throw error;
	});
	const store = await opening;
	const gateway = await startGateway({home: where.home, host, port, probeEveryMs, store, surface, ...(limitsFail ? {limits: {fail: limitsFail}} : {})}).catch(async (error: unknown) => {
		await store.close();
		throw error;
	});
	// With --capture-bodies, a JSON line carries the request's bodies (a text line stays one line): looked up when the
	// request ends, while they are surely still kept. Lines are formatted when the batch is written, off the request.
	const requestLines = batchedLines<{event: RequestFinished; bodies: RequestBodies | null}>(
		({event, bodies}) => (jsonLogs ? JSON.stringify(withBodies(event, bodies)) : formatRequestLine(event)),
		text => process.stdout.write(text),
	);
	gateway.events.on('request:finished', event => requestLines.push({event, bodies: jsonLogs ? gateway.bodies.get(event.id) : null}));
	if (gateway.bodies.capturing) process.stderr.write(`gateway-tui: capturing request and response bodies (the first ${gateway.bodies.maxBytes / 1024} KiB of each, of the newest ${gateway.bodies.keep} requests, keys masked)${jsonLogs ? ': each JSON log line carries them as "bodies"' : '; they are printed only with --json-logs'}.\n`);
	gateway.events.on('warning', ({message}) => process.stderr.write(`warning: ${message}\n`));
	for (const message of store.warnings) process.stderr.write(`warning: ${message}\n`);
	gateway.events.on('key:budget', warning => {
		const line = {time: new Date().toISOString(), key: warning.keyName, budget: 'warning', percent: warning.percent, spentUsd: Number(warning.spentUsd.toFixed(4)), budgetUsd: warning.budgetUsd, period: warning.period};
		process.stdout.write(`${jsonLogs ? JSON.stringify(line) : `${line.time}  key=${warning.keyName}  budget warning: ${warning.percent}% spent (${budgetDollars(warning.spentUsd, warning.budgetUsd)} of ${budgetDollars(warning.budgetUsd, warning.budgetUsd)} ${periodWords[warning.period]})`}\n`);
	});
	gateway.events.on('channel:health', view => {
		const lacks = view.lacking && view.lacking.length > 0 ? view.lacking.map(({model}) => model).join(',') : null;
		const line = {time: new Date().toISOString(), channel: view.channelName, health: view.state, reason: view.reason, retryAt: view.retryAt, ...(lacks ? {lacking: view.lacking} : {})};
		process.stdout.write(`${jsonLogs ? JSON.stringify(line) : `${line.time}  channel=${view.channelName}  health=${view.state}${view.reason ? `  reason="${view.reason}"` : ''}${view.retryAt ? `  retry-at=${view.retryAt}` : ''}${lacks ? `  lacks=${lacks}` : ''}`}\n`);
	});
	if (!isLoopback(host)) {
		process.stderr.write(`warning: listening on ${host}: other machines can now reach the gateway. Every request still needs a virtual key; requests must be addressed to an IP of this machine or a name given with --allow-host.\n`);
	}
	// Ctrl+C, SIGTERM, its terminal closing or a crash: the gateway saves what it holds and closes, the last request lines are written, then the store closes.
	const shutdown = async () => {
		await gateway.close();
		requestLines.flush();
		await store.close();
	};
	// A bug that throws where nothing catches it ends serve with exit code 1, but with the usage of what it answered saved, as on Ctrl+C.
	const unguard = closeOnCrash({
		close: shutdown,
		begin: error => process.stderr.write(`gateway-tui: crashed (a bug in gateway-tui; please report it with these lines): ${crashText(error)}\ngateway-tui: saving usage and stopping…\n`),
		end: (_error, outcome) => {
			// The gateway's close reports what it could not save as warnings (above), and never throws.
			const saved = outcome === 'closed' ? 'usage saved unless a warning above says otherwise' : outcome === 'late' ? `usage not saved within ${defaultCrashCloseMs / 1000} s` : 'usage could not be saved';
			process.stderr.write(`gateway-tui: stopped after a crash (${saved}). Start it again with \`gateway-tui serve\`.\n`);
			process.exit(1);
		},
	});
	process.stderr.write(`gateway-tui listening on ${gateway.url} (data: ${gateway.store.file}). Press Ctrl+C to stop.\n`);
	await stopping.requested;
	process.stderr.write('gateway-tui: shutting down…\n');
	await shutdown();
	stopping.dispose();
	unguard();
}

/** A request's JSON log line, with its bodies when they were captured. */
function withBodies(event: RequestFinished, bodies: RequestBodies | null): RequestFinished | (RequestFinished & {bodies: Omit<RequestBodies, 'id'>}) {
	if (!bodies) return event;
	const {id: _id, ...rest} = bodies;
	return {...event, bodies: rest};
}

/** Signals that ask serve to stop: Ctrl+C, a service manager's stop, and its terminal closing (SIGHUP). */
const stopSignalNames = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * The first SIGINT, SIGTERM or SIGHUP asks for a clean stop; another SIGINT or SIGTERM while stopping forces it.
 * Output that can no longer be written asks for the clean stop too: a terminal that is gone (its
 * window closed — SIGHUP comes with it — or its SSH connection dropped) or a pipe whose reader went
 * away fails every write with EIO or EPIPE, which would otherwise be an uncaught error (a crash) at
 * the next request line. Those listeners stay for the rest of the run: the way out writes too.
 */
function stopSignals(): {requested: Promise<void>; dispose(): void} {
	let asked = false;
	let resolve: () => void = () => {};
	const requested = new Promise<void>(done => (resolve = done));
	const ask = () => {
		asked = true;
		resolve();
	};
	const onSignal = (signal: NodeJS.Signals) => {
		if (!asked) return ask();
		// A closing terminal can hang up more than once (the terminal program, then the kernel as the
		// terminal goes): only a person's second Ctrl+C or a second SIGTERM forces the stop.
		if (signal === 'SIGHUP') return;
		try {
			process.stderr.write(`gateway-tui: ${signal} again: stopping now, without saving the last second of usage.\n`);
		} finally {
			process.exit(130);
		}
	};
	for (const signal of stopSignalNames) process.on(signal, onSignal);
	// A clean stop only, however often it fails: asking twice is asking once.
	process.stdout.on('error', ask);
	process.stderr.on('error', ask);
	return {
		requested,
		dispose() {
			for (const signal of stopSignalNames) process.off(signal, onSignal);
		},
	};
}

/**
 * Request lines are written in one write per ~50 ms, not one per request: at thousands of requests a
 * second, a write each (synchronous when stdout is a file) would cost the proxy as much as a request.
 * They are formatted then too, so a request pays only for a push.
 */
export function batchedLines<T>(format: (item: T) => string, write: (text: string) => void, delayMs = 50): {push(item: T): void; flush(): void} {
	let items: T[] = [];
	let timer: NodeJS.Timeout | undefined;
	const flush = () => {
		if (timer) clearTimeout(timer);
		timer = undefined;
		if (items.length === 0) return;
		const batch = items;
		items = [];
		let text = '';
		for (const item of batch) text += `${format(item)}\n`;
		write(text);
	};
	return {
		push(item) {
			items.push(item);
			timer ??= setTimeout(flush, delayMs);
		},
		flush,
	};
}
