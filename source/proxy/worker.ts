/**
 * The gateway core in its own thread, under the TUI: the proxy serves on this thread's event loop,
 * so React rendering on the main thread never delays a request. Events are queued and posted in
 * batches; nothing here waits for the UI.
 */
import {parentPort, workerData} from 'node:worker_threads';
import {closeOnCrash, crashReport} from '../base/close-on-crash.js';
import {UserError} from '../base/errors.js';
import {reasonOf} from '../store/backend.js';
import type {GatewayEvents} from '../base/events.js';
import {startGateway, type Gateway} from './gateway.js';
import type {CoreCommand, CoreMessage, EventMessage, WorkerOptions} from './worker-protocol.js';
import {BatchPacer} from './batch-pacer.js';
import {WorkerOutbox} from './worker-outbox.js';

const eventNames: ReadonlyArray<Exclude<keyof GatewayEvents, 'request:finished' | 'requests:batch' | 'traffic:snapshot' | 'requests:in-flight'>> = ['channel:health', 'key:budget', 'store:changed', 'warning'];

function post(message: CoreMessage): void {
	parentPort!.postMessage(message);
}

function forwardEvents(gateway: Gateway, options: WorkerOptions): {readonly outbox: WorkerOutbox; readonly pacer: BatchPacer; stop(): Promise<void>} {
	const outbox = new WorkerOutbox(post, options.logFile);
	const pacer = new BatchPacer(now => {
		outbox.flush(now, gateway.requestsInFlight);
		return outbox.dueAt(now);
	}, options.batchMs);
	const offRequests = gateway.events.on('request:finished', event => {
		outbox.request(event);
		pacer.soon();
	});
	const offs = eventNames.map(name =>
		gateway.events.on(name, (...args: GatewayEvents[typeof name]) => {
			outbox.event({name, args} as EventMessage);
			pacer.soon();
		}),
	);
	gateway.watchInFlight(() => pacer.soon());
	pacer.soon(); // the first batch: the charts' first snapshot
	return {
		outbox,
		pacer,
		async stop() {
			pacer.stop();
			gateway.watchInFlight(null);
			offRequests();
			for (const off of offs) off();
			await outbox.close();
		},
	};
}

async function handle(gateway: Gateway, forwarding: {readonly outbox: WorkerOutbox; readonly pacer: BatchPacer}, command: CoreCommand, stop: () => Promise<void>): Promise<void> {
	switch (command.type) {
		case 'reload':
			// A store that cannot be read now (an outage, a record another version wrote) is not a crash:
			// the gateway keeps serving what it last read, and its own poll reads again within a second.
			await gateway.registry.refresh().catch((error: unknown) => {
				gateway.events.emit('warning', {message: `could not reload keys and channels after a change (${reasonOf(error)}); still serving what was read before, and reading again within a second`});
			});
			post({type: 'reloaded', id: command.id});
			return;
		case 'limit-use':
			post({type: 'limit-use', id: command.id, use: [...gateway.limiter.useOfKeys(command.keys)]});
			return;
		case 'usage-instance':
			post({type: 'usage-instance', id: command.id, instance: await gateway.usage.claimedInstance()});
			return;
		case 'bodies':
			post({type: 'bodies', id: command.id, lookup: gateway.bodies.lookup(command.requestId)});
			return;
		case 'capture-bodies':
			gateway.bodies.capturing = command.on;
			post({type: 'bodies', id: command.id, lookup: gateway.bodies.lookup('')});
			return;
		case 'traffic-stored':
			forwarding.outbox.stored(command.records);
			forwarding.pacer.soon();
			return;
		case 'shutdown':
			await stop();
			return;
	}
}

async function main(options: WorkerOptions): Promise<void> {
	let gateway: Gateway | undefined;
	// A bug that throws on this thread ends the core once its gateway is closed (usage saved, store closed); the TUI is told after.
	closeOnCrash({
		close: async () => gateway?.close(),
		end: error => {
			post({type: 'crashed', ...crashReport(error)});
			process.exit(1);
		},
	});
	try {
		gateway = await startGateway({home: options.home, storeUrl: options.storeUrl, host: options.host, port: options.port, probeEveryMs: options.probeEveryMs});
	} catch (error) {
		if (error instanceof UserError) post({type: 'not-listening', error: error.message});
		else post({type: 'crashed', ...crashReport(error)});
		return;
	}
	const running = gateway;
	const forwarding = forwardEvents(running, options);
	const stop = async () => {
		await running.close();
		await forwarding.stop();
		post({type: 'closed'});
		parentPort!.close();
	};
	parentPort!.on('message', (command: CoreCommand) => {
		handle(running, forwarding, command, stop).catch((error: unknown) => post({type: 'crashed', ...crashReport(error)}));
	});
	post({type: 'listening', url: running.url});
}

// Not awaited at the top level: built, this module is a CommonJS script (worker-entry.ts). A failure
// once closeOnCrash is installed ends the core through it; before, it is the worker's error event.
void main(workerData as WorkerOptions);
