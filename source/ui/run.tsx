/**
 * `gateway-tui` with no subcommand: the proxy and the full-screen TUI in one process. The core's
 * worker is started first (start-core.ts), then the store is read here before the screen is taken
 * (an unreadable one is reported on the normal screen, like any CLI error); a port in
 * use does not stop the TUI: keys and channels can still be managed, and the status bar says which
 * port is taken and how to choose another.
 */
import {render} from 'ink';
import {App, type AppProps} from './app.js';
import type {ListenState} from './components/chrome.js';
import {ExternalStore} from './external-store.js';
import {useExternalStore} from './hooks/use-external-store.js';
import type {CoreHandle} from '../proxy/worker-host.js';
import {persistedUse} from '../store/limit-use.js';
import {crashText} from '../base/close-on-crash.js';
import {systemClock} from '../base/clock.js';
import {trimWhenQuiet} from './request-events.js';
import {openRequestLog, SettledDays, usageSummaries} from '../store/usage-summary.js';
import {readUsage} from './usage-view.js';
import type {UsageSource} from './session-usage.js';
import {Store} from '../store/index.js';
import {lastUsed, listKeys} from '../store/keys.js';
import {listChannels} from '../store/channels.js';
import {createClipboard} from './clipboard.js';
import {writeSync} from 'node:fs';
import {PassThrough} from 'node:stream';
import {Keyboard} from './keyboard.js';
import {KeypressProvider} from './hooks/use-keypress.js';
import type {CoreStart, StartingCore, TuiOptions} from './start-core.js';
import {createModel} from './model.js';
import {BodiesContext, type BodiesSource} from './request-bodies.js';
import {guardProcess, takeTerminal} from './terminal.js';
import type {StatusMessage} from './theme.js';
import {gatewayUrl} from '../base/paths.js';
import {isLoopback} from '../base/paths.js';

/**
 * The first status line: a gateway reachable from other machines says so; a store without channels
 * or keys says what to do first (nothing can be answered before both exist); else where the help and
 * the log are.
 */
export function welcome(options: Pick<TuiOptions, 'host'>, logPath: string, counts: {readonly keys: number; readonly channels: number}): StatusMessage {
	if (!isLoopback(options.host)) return {kind: 'warn', text: `Listening on ${options.host}: other machines can reach the gateway (every request still needs a virtual key).`};
	if (counts.channels === 0) return {kind: 'info', text: 'No channels yet: press 2, then n to add a provider (its base URL and real key); then 1, n for a virtual key for your tools.'};
	if (counts.keys === 0) return {kind: 'info', text: 'No virtual keys yet: press n to create one for your tools; 3 then shows the lines that point them here.'};
	return {kind: 'info', text: `Press ? for the keys of each pane. Log: ${logPath}`};
}

/**
 * `core`: the worker, started (by the CLI, before it loaded this module) so that it boots while this
 * thread loads the UI. `writeClipboard`: the system clipboard (system-clipboard.ts).
 */
export async function runTui(options: TuiOptions, core: StartingCore, writeClipboard: (text: string) => Promise<void>): Promise<void> {
	const store = await Store.open(options.store ?? options.home, {home: options.home}).catch(async (failure: unknown) => {
		await core.abandon();
		throw failure;
	});
	// Secrets sealed with another master key leave every pane unreadable: fail here, on the normal
	// screen, with the same message as the CLI's commands (the worker, which fails on them too, is
	// waited for and closed first: one ended with a store call in flight would abort the process).
	// Last-used times and the usage totals too, so the first frame has them instead of '-' and zeros
	// (a failure there is the panes' to report, not the start's).
	// Read again every few seconds: the days long past are kept between reads, not parsed each time.
	const settledDays = new SettledDays();
	const storedUsage: UsageSource = queries => usageSummaries(store, queries, settledDays);
	const [keys, channels, used, usage] = await Promise.all([
		listKeys(store),
		listChannels(store),
		lastUsed(store).catch(() => new Map<string, string>()),
		// None of the Usage view's queries tells the days of a month long over apart: each such month is
		// read merged over its days (a dozen buckets, not a day's each), and kept so.
		readUsage(storedUsage).catch(() => undefined),
	]).catch(async (failure: unknown) => {
		await core.abandon();
		await store.close();
		throw failure;
	});
	const {events, logFile, release} = core;
	// The first frame does not wait for the core's worker to listen (it boots beside this thread, and
	// on a slow host finishes a few hundred milliseconds after the store was read): the status bar says
	// it is starting, and what depends on it — the keys' live limit use, channel health, the bodies,
	// the stored log's own requests — is bound once it has (or could not: its port taken).
	const gatewayLater: Promise<CoreHandle | null> = core.started.then(started => started.gateway, () => null);
	let settled: CoreStart | undefined;
	void core.started.then(start => (settled = start), () => {});
	// Keys with limits are the exception: their first frame shows what each used (`rpd 3/100`, not a
	// bare `rpd 100`), which only the core's counters know cheaply, so it waits for the core.
	const initialLimits = keys.some(key => key.limits) ? await gatewayLater.then(gateway => gateway?.limitUse(keys)).catch(() => undefined) : undefined;
	const model = createModel(store, events, {
		initial: {keys, channels, lastUsed: used},
		initialUsage: usage,
		initialLimits,
		afterChange: async () => (await gatewayLater)?.reload(),
		pollMs: gatewayLater.then(gateway => (gateway ? undefined : 1000)),
		storedUsage,
		// Requests recorded before open the live log, which then follows what the store's other gateways
		// record (all of its requests, when this process serves none: its port taken by another); this
		// gateway's own arrive live.
		storedLog: {
			open: async want => {
				const gateway = await gatewayLater;
				return openRequestLog(store, {...want, skip: await gateway?.usageInstance()});
			},
			followMs: 1000,
		},
		// ...and the charts count those followed requests too (the core's snapshots hold them, where it serves).
		countStored: gatewayLater.then(gateway => (gateway ? records => gateway.countStored(records) : undefined)),
		serving: settled ? settled.gateway !== null : gatewayLater.then(gateway => gateway !== null),
		// What the keys used of their limits: the gateway's own counters (memory, a message away); without
		// a gateway here, the stored usage (the last minute's requests: read less often).
		limitUse: async keys => {
			const gateway = await gatewayLater;
			return gateway ? gateway.limitUse(keys) : persistedUse(store, keys);
		},
		limitPollMs: gatewayLater.then(gateway => (gateway ? 2000 : 5000)),
	});
	const coreViewOf = ({gateway, error}: CoreStart): CoreView => ({
		listen: {url: gateway?.url ?? null, error},
		baseUrl: gateway?.url ?? gatewayUrl(options.host, options.port),
		// A request's bodies are asked of the core when its details open (only kept while capture is on).
		bodies: gateway ? {lookup: id => gateway.bodies(id), capture: on => gateway.captureBodies(on)} : null,
	});
	const starting: CoreView = {listen: {url: options.port === 0 ? null : gatewayUrl(options.host, options.port), error: null, starting: true}, baseUrl: gatewayUrl(options.host, options.port), bodies: null};
	const coreView = new ExternalStore<CoreView>(settled ? coreViewOf(settled) : starting, {intervalMs: 0});
	const stopTrim = trimWhenQuiet(events, {clock: systemClock});
	const terminal = takeTerminal(process.stdout, process.stdin);
	// The app reads the keys itself (keyboard.ts); Ink gets an input that never has any, so it neither
	// reads the terminal nor acts on Ctrl+C (the App's own handler quits).
	const keyboard = new Keyboard();
	const detachKeys = keyboard.attach(process.stdin);
	const instance = render(
		<KeypressProvider keyboard={keyboard}>
			<Root core={coreView} model={model} clipboard={createClipboard({terminal: process.stdout, writeSystem: writeClipboard})} initialStatus={welcome(options, logFile.path, {keys: keys.length, channels: channels.length})} />
		</KeypressProvider>,
		// Ink's type asks for a ReadStream; with isTTY unset it only keeps it (and never calls setRawMode).
		{stdin: new PassThrough() as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false},
	);
	// A crash (an error nothing caught here, or the core's worker reporting its own) takes the orderly
	// way out below — the core's worker closed first, its usage saved — then exits 1 with the error on
	// the normal screen. Exiting at once would end the worker with a store call in flight, which aborts
	// the whole process (SIGABRT from node-sqlite3); a watchdog exits anyway if the way out hangs.
	// Set by a closure: a holder, so the check after the way out is not narrowed away.
	const crash: {text: string | null; reported: boolean; watchdog?: NodeJS.Timeout} = {text: null, reported: false};
	const report = () => {
		if (crash.text === null || crash.reported) return;
		crash.reported = true;
		process.stderr.write(`gateway-tui crashed: ${crash.text}\n(also in ${logFile.path})\n`);
		process.exitCode = 1;
	};
	const crashed = (failure: unknown) => {
		if (crash.text !== null) return;
		crash.text = crashText(failure);
		logFile.write('crash', crash.text);
		crash.watchdog = setTimeout(() => {
			terminal.restore();
			report();
			process.exit(1);
		}, crashExitMs);
		try {
			instance.unmount();
		} catch {
			// the watchdog ends it
		}
	};
	core.onCrash(crashed);
	core.started.then(start => {
		if (coreView.current === starting) coreView.setNow(coreViewOf(start));
	}, crashed);
	const unguard = guardProcess(() => instance.unmount(), crashed);
	// A terminal that is gone (its window closed) is a hang-up, as SIGHUP is: the same way out.
	terminal.whenGone(() => instance.unmount());
	try {
		await instance.waitUntilExit().catch((failure: unknown) => crashed(failure));
	} finally {
		// The core and the store are closed whatever the steps before them throw: a process left with
		// its worker running would keep the port, with no terminal to quit it from.
		try {
			detachKeys();
			stopTrim();
			instance.cleanup();
			terminal.restore();
			release();
			model.dispose();
		} finally {
			// What the core says as it stops — answers in flight it cut off, usage it could not save —
			// goes to the log and, the screen handed back, to the terminal, as `serve` prints it: with
			// the log's capture released above, nothing heard it.
			const stopWarnings = events.on('warning', ({message}) => {
				logFile.write('warning', message);
				try {
					writeSync(process.stderr.fd, `warning: ${message}\n`);
				} catch {
					// the terminal is gone: the log has it
				}
			});
			try {
				await core.close();
				await store.close();
			} finally {
				stopWarnings();
				// Only now: a signal during the way out (a closing terminal hangs up more than once) must
				// find the handler, which has nothing left to do, not the default, which ends the process
				// with the store half closed.
				unguard();
			}
		}
	}
	clearTimeout(crash.watchdog);
	report();
}

/** What the screen shows of the core: starting, listening (its address, its bodies) or why it does not. */
type CoreView = {readonly listen: ListenState; readonly baseUrl: string; readonly bodies: BodiesSource | null};

/** The App, given what it shows of the core as the core's start settles. */
function Root({core, ...app}: Omit<AppProps, 'listen' | 'baseUrl'> & {readonly core: ExternalStore<CoreView>}) {
	const {listen, baseUrl, bodies} = useExternalStore(core);
	return (
		<BodiesContext.Provider value={bodies}>
			<App {...app} listen={listen} baseUrl={baseUrl} />
		</BodiesContext.Provider>
	);
}

/** How long a crashed TUI's orderly way out may take before it exits anyway. */
const crashExitMs = 5000;
