/**
 * One gateway: the object that owns all runtime state — registry, channel health, limiter, usage
 * recorder, upstream pools, signature memory, round-robin turns, tokenizer, image fetcher, kept
 * Responses conversations — and the Fastify proxy over them. Nothing of it lives at module level, so two gateways in one process share
 * nothing and each closes only its own pools. `serve` runs it directly; the TUI in a worker thread.
 */
import type {FastifyInstance} from 'fastify';
import {systemClock, type Clock} from '../base/clock.js';
import {UserError} from '../base/errors.js';
import {EventBus} from '../base/events.js';
import {IsoTime} from '../base/iso-time.js';
import {gatewayUrl} from '../base/paths.js';
import {BoundedSignatureMemory} from '../formats/signature.js';
import {Store} from '../store/index.js';
import {reasonOf} from '../store/backend.js';
import {retentionFromEnv} from '../store/usage-retention.js';
import {keepProbeRound, type ProbeRound} from '../store/channel-tests.js';
import type {RelayOptions} from './attempt.js';
import {ChannelHealth, defaultHealthOptions, reconfigured, type HealthOptions} from './health.js';
import {HealthPublisher} from './health-publisher.js';
import {startHealthProbe} from './health-probe.js';
import {countLimitedUse, reseedChangedLimits, restoreLimits} from './limit-sync.js';
import type {KeyLimiter} from './limits.js';
import {createLimiter, type SharedLimitOptions} from './shared-limits.js';
import {Registry} from './registry.js';
import {ConversationPins} from './conversation-pins.js';
import {RouteOrder} from './routing.js';
import {createServer} from './server.js';
import {OpenExchanges} from './exchange.js';
import {ConnectionCap, surfaceOptions, type SurfaceSettings} from './surface.js';
import {Tokenizer} from './tokenizer.js';
import {BodyCapture, bodyCaptureFromEnv, type BodyCaptureOptions} from './bodies.js';
import {ImageFetcher} from './translation-context.js';
import {UpstreamPools} from './upstream.js';
import {UsageRecorder, type RecorderOptions} from './usage-recorder.js';
import {IdleTrim, type IdleTrimOptions} from '../base/idle-trim.js';
import {KeptResponses, type KeptResponsesOptions} from './kept-responses.js';
import {responsesRetentionFromEnv} from '../store/responses-retention.js';

export type {RelayOptions} from './attempt.js';

export const defaultRelayOptions: RelayOptions = {
	defaultMaxTokens: 8192,
	imageFetch: {maxBytes: 20 * 1024 * 1024, timeoutMs: 15_000},
};

export type GatewayOptions = {
	readonly home: string;
	/** The store's URL (`sqlite:///…`, `redis://…`, `postgres://…`); by default `home`'s sqlite file. */
	readonly storeUrl?: string;
	readonly host: string;
	readonly port: number;
	readonly relay?: RelayOptions;
	readonly health?: HealthOptions;
	readonly probeEveryMs?: number;
	/** The clock of the limiter, channel health and the usage recorder (tests advance a fake one). */
	readonly clock?: Clock;
	readonly usage?: Omit<RecorderOptions, 'events'>;
	/** A store opened by the caller (and closed by it); by default the gateway opens `home`'s. */
	readonly store?: Store;
	readonly events?: EventBus;
	/** Host names accepted besides the listen address and localhost (`--allow-host`), body limits, client time-outs, the connection cap. */
	readonly surface?: SurfaceSettings;
	/** Limits on a shared store (Redis, PostgreSQL): fail open or closed, time-outs; by default GATEWAY_TUI_LIMITS_FAIL, else open. */
	readonly limits?: Partial<SharedLimitOptions>;
	/** Stored Responses conversations: retention and size cap (by default GATEWAY_TUI_KEEP_RESPONSES_DAYS and _MB), timers. */
	readonly responses?: Partial<Omit<KeptResponsesOptions, 'clock' | 'events'>>;
	/** Request and response bodies kept for the request log's details (opt-in); by default GATEWAY_TUI_CAPTURE_BODIES, else off. */
	readonly bodies?: Partial<BodyCaptureOptions>;
	/** The memory trim after traffic (idle-trim.ts): its timings, or a counting `collect` in tests. */
	readonly idleTrim?: Omit<IdleTrimOptions, 'clock'>;
};

export class Gateway {
	readonly events: EventBus;
	readonly registry: Registry;
	readonly health: ChannelHealth;
	readonly limiter: KeyLimiter;
	/** Records every finished request and flushes usage to the store twice a second. */
	readonly usage: UsageRecorder;
	readonly pools = new UpstreamPools();
	readonly signatures = new BoundedSignatureMemory();
	readonly order = new RouteOrder();
	readonly pins: ConversationPins;
	readonly tokenizer = new Tokenizer();
	readonly images: ImageFetcher;
	/** Bodies of the newest requests, while capture is on (it can be switched at run time). */
	readonly bodies: BodyCapture;
	/** Responses API answers kept for `previous_response_id` and GET /v1/responses/{id} (translated channels). */
	readonly kept: KeptResponses;
	readonly app: FastifyInstance;
	url = '';
	private readonly publisher: HealthPublisher;
	/** Requests whose record is not out yet: stopping waits for them (see exchange.ts). */
	private readonly exchanges = new OpenExchanges();
	/** Open client connections, counted for the connection cap and read by the memory trim after a surge. */
	private readonly connections: ConnectionCap;
	private readonly stops: Array<() => void> = [];
	/** The close under way or done: a second caller waits for the same one (see close). */
	private closing: Promise<void> | null = null;

	constructor(
		readonly store: Store,
		private readonly options: GatewayOptions,
	) {
		this.events = options.events ?? new EventBus();
		this.registry = new Registry(store, this.events);
		this.usage = new UsageRecorder(store, {clock: options.clock, ...options.usage, retention: options.usage?.retention ?? retentionFromEnv(), events: this.events});
		// Health reasons are shown by `channels show`, the TUI and serve's log: masked like every outbound text.
		const scrub = (text: string) => this.registry.snapshot.scrubber.scrub(text);
		this.health = new ChannelHealth(this.events, {...defaultHealthOptions, clock: options.clock, ...options.health, scrub});
		this.pins = new ConversationPins(options.clock?.now);
		this.limiter = createLimiter(store, this.events, options.clock?.now, options.limits);
		this.publisher = new HealthPublisher(store, this.events);
		const relay = options.relay ?? defaultRelayOptions;
		this.images = new ImageFetcher(relay.imageFetch);
		this.kept = new KeptResponses(store, {...responsesRetentionFromEnv(), ...options.responses, clock: options.clock ?? systemClock, events: this.events});
		this.bodies = new BodyCapture({...bodyCaptureFromEnv(), ...options.bodies});
		const {registry, health, limiter, events, pools, signatures, order, pins, tokenizer, images, bodies, kept} = this;
		const surface = surfaceOptions(options.host, options.surface);
		this.connections = new ConnectionCap(surface.maxConnections);
		this.app = createServer({registry, health, limiter, events, pools, signatures, order, pins, tokenizer, images, bodies, kept, options: relay, surface, isoTime: new IsoTime(), exchanges: this.exchanges}, this.connections);
	}

	/** Requests received whose answer is not finished yet (a stream counts until its record is out): the TUI's "in flight". */
	get requestsInFlight(): number {
		return this.exchanges.size;
	}

	/** `listener` is called each time `requestsInFlight` changes (one listener: the TUI's core). */
	watchInFlight(listener: (() => void) | null): void {
		this.exchanges.onChange = listener;
	}

	/**
	 * A `--probe-every` round kept as the channels' last tests: a new finding moves the store's
	 * revision (every reader reloads); the same findings again are news only to this process's UI
	 * (its details' "checked by the gateway at …"), told without a write other processes would act on.
	 */
	private async keepProbeRound(round: ProbeRound): Promise<void> {
		if (round.length > 0 && !(await keepProbeRound(this.store, round))) this.registry.announce();
	}

	/**
	 * Load keys and channels, restore the limits' counters, and listen. A failure on the way (a port
	 * in use, secrets sealed with another master key, a store that refuses) stops what was started and
	 * closes the store before it is thrown: nothing is left running or half-written, and a worker
	 * thread that ends then has no store call in flight.
	 */
	async start(): Promise<void> {
		try {
			await this.registry.start();
			this.stops.push(this.usage.listen(this.events));
			await restoreLimits(this.limiter, this.store, [...this.registry.snapshot.keysById.values()]);
			this.stops.push(countLimitedUse(this.limiter, this.registry, this.events));
			const reseed = reseedChangedLimits({limiter: this.limiter, store: this.store, events: this.events, flushUsage: () => this.usage.flush()});
			this.registry.prepare = async (next, previous) => {
				for (const channel of reconfigured(next.channels, previous.channels)) this.health.reset(channel);
				await reseed.prepare(next, previous);
			};
			this.stops.push(() => {
				this.registry.prepare = null;
				reseed.stop();
			});
			const {connections} = this;
			this.stops.push(new IdleTrim({clock: this.options.clock ?? systemClock, connections: () => connections.load(), ...this.options.idleTrim}).start(this.events));
			if (this.options.probeEveryMs) this.stops.push(startHealthProbe(this.registry, this.health, this.pools, this.options.probeEveryMs, this.events, round => this.keepProbeRound(round)));
			try {
				// A burst of new clients (an agent's sub-agents, a team) must queue in the kernel, not be dropped: Node's default backlog is 511.
				await this.app.listen({host: this.options.host, port: this.options.port, backlog: 4096});
			} catch (error) {
				throw listenError(error, this.options);
			}
		} catch (error) {
			await this.close(); // never throws: each step's failure is a warning
			throw error;
		}
		const address = this.app.server.address();
		this.url = gatewayUrl(this.options.host, typeof address === 'object' && address ? address.port : this.options.port);
		this.usage.start();
		this.kept.start();
		// Only a gateway that listens tells other processes it runs (one whose port was taken never did).
		this.publisher.start();
	}

	/**
	 * Stop serving, save what is held in memory, close connections and (when the gateway opened it) the
	 * store. Every step runs whatever failed before it, and a failure is a warning, never a throw: a
	 * store that went away (a Redis that stopped) must not leave upstream pools, timers or the store's
	 * own reconnecting client open — the process would never end. A second call — the core's own crash
	 * handler while the UI's shutdown is closing it, or the other way round — waits for the first one to
	 * end: answered at once, its caller could end the worker with the store's statements still in flight.
	 */
	close(): Promise<void> {
		this.closing ??= this.closeOnce();
		return this.closing;
	}

	private async closeOnce(): Promise<void> {
		const {exchanges} = this;
		exchanges.stopping = true;
		const inFlight = exchanges.size;
		const steps: Array<readonly [string, () => Promise<unknown>]> = [
			// Closes every client connection: the answers in flight end there (streams included).
			['stop listening', () => this.app.close()],
			// ...and their records follow as each relay lets go of its provider: recorded and counted
			// (the usage listener and the limits' counting stop only after), as aborted, by the stop.
			[
				'record the requests in flight',
				async () => {
					const left = await exchanges.settled(exchangesSettleMs);
					if (inFlight > 0) this.events.emit('warning', {message: `stopped with ${inFlight} request${inFlight === 1 ? '' : 's'} in flight: ${inFlight === 1 ? 'its answer was' : 'their answers were'} cut off (in the request log as aborted)`});
					if (left > 0) throw new Error(`${left} of them did not end within ${exchangesSettleMs / 1000} s and are not in the request log`);
				},
			],
			[
				'stop the timers',
				async () => {
					for (const stop of this.stops.splice(0)) stop();
				},
			],
			['settle the key limits', () => this.limiter.settle()],
			['save usage', () => this.usage.close()],
			['save the kept Responses conversations', () => this.kept.close()],
			["save the keys' last-used times", () => this.registry.stop()],
			["withdraw this gateway's channel health", () => this.publisher.close()],
			['close the upstream connections', () => Promise.all([this.pools.close(), this.images.close()])],
			...(this.options.store ? [] : [['close the store', () => this.store.close()] as const]),
		];
		for (const [what, step] of steps) {
			try {
				await step();
			} catch (error) {
				this.events.emit('warning', {message: `while stopping, could not ${what}: ${reasonOf(error)}`});
			}
		}
	}
}

/** How long stopping waits for the records of the requests its connections' close cut off (each takes a few ticks). */
const exchangesSettleMs = 2000;

/** A port in use is a UserError that names the port and the --port flag. */
function listenError(error: unknown, options: GatewayOptions): unknown {
	const code = (error as {code?: string}).code;
	if (code === 'EADDRINUSE') return new UserError(`Port ${options.port} is already in use (another gateway-tui?). Stop that process or choose another port with --port.`);
	if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new UserError(`Cannot listen on ${options.host}: no such local address. Use --host 127.0.0.1 or an address of this machine.`);
	if (code === 'EACCES') return new UserError(`Not allowed to listen on port ${options.port}. Choose a port above 1024 with --port.`);
	return error;
}

/** Open the store (unless given) and start a gateway on it. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
	const gateway = new Gateway(options.store ?? (await Store.open(options.storeUrl ?? options.home, {home: options.home})), options);
	await gateway.start();
	return gateway;
}
