/**
 * The TUI's side of the gateway worker: start the core in a worker thread, mirror its batched
 * events onto a local EventBus (so the panes subscribe as before), and send it commands.
 */
import {extname} from 'node:path';
import {fileURLToPath} from 'node:url';
import {Worker} from 'node:worker_threads';
import {UserError} from '../base/errors.js';
import {reportedCrash} from '../base/close-on-crash.js';
import {EventBus, type BodiesLookup, type RequestFinished} from '../base/events.js';
import type {LimitUse} from '../base/periods.js';
import type {KeyRecord} from '../base/records.js';
import type {CoreCommand, CoreMessage, EventMessage, WorkerOptions} from './worker-protocol.js';

export type CoreHandle = {
	readonly url: string;
	/** The core's events, re-emitted on the main thread. */
	readonly events: EventBus;
	/** Reload keys and channels now (after the TUI changed them). */
	reload(): Promise<void>;
	/** What limited keys used in their current windows, from the live limiter. */
	limitUse(keys: readonly KeyRecord[]): Promise<Map<string, LimitUse>>;
	/** A request's bodies, if capture was on for it and it is among the newest kept; and whether capture is on. */
	bodies(requestId: string): Promise<BodiesLookup>;
	/** Switch body capture on or off (from the next request on); answers the new state. */
	captureBodies(on: boolean): Promise<BodiesLookup>;
	/** The usage instance the core records its requests as (store/usage.ts): its requests in the stored log are the ones already seen live. */
	usageInstance(): Promise<string>;
	/** Requests other gateways recorded in the shared store (the TUI follows its log): the core counts them in the charts' traffic. */
	countStored(records: readonly RequestFinished[]): void;
	close(): Promise<void>;
};

export type StartCoreOptions = Omit<WorkerOptions, 'batchMs'> & {
	readonly batchMs?: number;
	/** Where the worker's own stdout/stderr go (never the terminal: Ink owns it). */
	readonly output: (text: string) => void;
	readonly events?: EventBus;
	/** The core failed after it started. */
	readonly onCrash: (error: Error) => void;
	/**
	 * A module that runs the worker's entry (given as its last argv) — tests pass one that loads the
	 * TypeScript sources, which a worker thread of Node 20 cannot import under `--import tsx`.
	 */
	readonly loader?: URL;
};

function workerUrl(): URL {
	// `.ts` under the test runner (tsx), `.js` in the build.
	return new URL(`./worker-entry${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
}

function emit(events: EventBus, message: EventMessage): void {
	(events.emit as (name: string, ...args: readonly unknown[]) => void)(message.name, ...message.args);
}

function lookupOf(reply: CoreMessage): BodiesLookup {
	if (reply.type !== 'bodies') throw new Error(`The gateway worker answered "${reply.type}" to a question about request bodies.`);
	return reply.lookup;
}

/** How long a worker whose core could not start has to end by itself before it is terminated. */
const startFailureGraceMs = 5000;

/** The worker's exit, or its termination once `graceMs` passed without one. */
function ended(worker: Worker, graceMs: number): Promise<void> {
	return new Promise(resolve => {
		const timer = setTimeout(() => void worker.terminate().then(() => resolve()), graceMs);
		worker.once('exit', () => {
			clearTimeout(timer);
			resolve();
		});
	});
}

/** Start the gateway core in a worker. A port in use or an unreadable store is a UserError, as with startGateway. */
export async function startCoreWorker(options: StartCoreOptions): Promise<CoreHandle> {
	const events = options.events ?? new EventBus();
	const entry = workerUrl();
	const workerData = {home: options.home, storeUrl: options.storeUrl, host: options.host, port: options.port, probeEveryMs: options.probeEveryMs, batchMs: options.batchMs ?? 100, logFile: options.logFile} satisfies WorkerOptions;
	const worker = new Worker(options.loader ?? entry, {workerData, argv: options.loader ? [entry.href] : [], stdout: true, stderr: true});
	worker.stdout.on('data', (chunk: Buffer) => options.output(chunk.toString()));
	worker.stderr.on('data', (chunk: Buffer) => options.output(chunk.toString()));
	let nextId = 1;
	const pending = new Map<number, (message: CoreMessage) => void>();
	let closed: (() => void) | undefined;
	const started = new Promise<string>((resolve, reject) => {
		worker.on('message', (message: CoreMessage) => {
			switch (message.type) {
				case 'listening':
					return resolve(message.url);
				case 'not-listening':
					return reject(new UserError(message.error));
				case 'crashed': {
					// The worker's own text: wrapped in a new Error here it read "Error: Error: …", this thread's stack after the worker's.
					const crash = reportedCrash(message);
					reject(crash);
					return options.onCrash(crash);
				}
				case 'events':
					for (const event of message.batch) emit(events, event);
					return;
				case 'requests':
					return events.emit('requests:batch', message.batch);
				case 'traffic':
					return events.emit('traffic:snapshot', message.snapshot);
				case 'in-flight':
					return events.emit('requests:in-flight', message.count);
				case 'reloaded':
				case 'limit-use':
				case 'bodies':
				case 'usage-instance':
					pending.get(message.id)?.(message);
					pending.delete(message.id);
					return;
				case 'closed':
					return closed?.();
			}
		});
		worker.once('error', error => {
			reject(error);
			options.onCrash(error);
		});
		worker.once('exit', code => reject(new Error(`The gateway worker exited (code ${code}) before it was listening.`)));
	});
	const ask = (command: (id: number) => CoreCommand) =>
		new Promise<CoreMessage>(resolve => {
			const id = nextId++;
			pending.set(id, resolve);
			worker.postMessage(command(id));
		});
	let exited = false;
	worker.once('exit', () => (exited = true));
	let url: string;
	try {
		url = await started;
	} catch (error) {
		// The worker ends by itself once its gateway has closed the store (a failed start closes it).
		// Ended from here while a store call is still in flight, the whole process would abort.
		if (!exited) await ended(worker, startFailureGraceMs);
		throw error;
	}
	let closing = false;
	worker.on('exit', code => {
		if (!closing) options.onCrash(new Error(`The gateway worker stopped unexpectedly (exit code ${code}); requests are no longer served. Restart gateway-tui; the log file has details.`));
	});
	return {
		url,
		events,
		async reload() {
			await ask(id => ({type: 'reload', id}));
		},
		async limitUse(keys) {
			const reply = await ask(id => ({type: 'limit-use', id, keys}));
			return new Map(reply.type === 'limit-use' ? reply.use : []);
		},
		async bodies(requestId) {
			return lookupOf(await ask(id => ({type: 'bodies', id, requestId})));
		},
		async captureBodies(on) {
			return lookupOf(await ask(id => ({type: 'capture-bodies', id, on})));
		},
		async usageInstance() {
			const reply = await ask(id => ({type: 'usage-instance', id}));
			if (reply.type !== 'usage-instance') throw new Error(`The gateway worker answered "${reply.type}" to a question about its usage instance.`);
			return reply.instance;
		},
		countStored(records) {
			if (!closing && !exited && records.length > 0) worker.postMessage({type: 'traffic-stored', records} satisfies CoreCommand);
		},
		async close() {
			if (closing) return;
			closing = true;
			// A core that crashed has closed its gateway and ended already: nothing to wait for.
			if (exited) return;
			const done = new Promise<void>(resolve => {
				closed = resolve;
				worker.once('exit', () => resolve());
			});
			worker.postMessage({type: 'shutdown'} satisfies CoreCommand);
			await done;
			await worker.terminate();
		},
	};
}
