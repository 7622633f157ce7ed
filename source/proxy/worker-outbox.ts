/**
 * What the gateway worker sends the UI, gathered between two posts so the UI's cost does not grow
 * with traffic: finished requests as one batch (the newest few for the live log, and how many in
 * all), traffic charts as a snapshot about once a second, other events as they are. The request log
 * lines go straight to the log file from here, in one write per batch.
 */
import {createWriteStream, type WriteStream} from 'node:fs';
import {isFailure, type RequestFinished} from '../base/events.js';
import {formatRequestLine} from '../base/request-line.js';
import {TrafficCounter} from '../base/traffic.js';
import type {CoreMessage, EventMessage} from './worker-protocol.js';

/** The live log shows the newest requests only: more per batch would be work for nothing. */
const recentPerBatch = 30;

export class WorkerOutbox {
	private events: EventMessage[] = [];
	private recent: RequestFinished[] = [];
	private count = 0;
	private failed = 0;
	private lines: string[] = [];
	private readonly traffic = new TrafficCounter();
	private trafficDirty = true;
	private trafficSentAt = 0;
	private readonly log: WriteStream | null;

	constructor(
		private readonly post: (message: CoreMessage) => void,
		logFile: string | undefined,
		private readonly trafficEveryMs = 1000,
	) {
		this.log = logFile ? createWriteStream(logFile, {flags: 'a', mode: 0o600}) : null;
		this.log?.on('error', () => {});
	}

	request(event: RequestFinished): void {
		this.count++;
		if (isFailure(event)) this.failed++;
		this.recent.push(event);
		if (this.recent.length > 2 * recentPerBatch) this.recent = this.recent.slice(-recentPerBatch);
		this.traffic.record(event);
		this.trafficDirty = true;
		if (this.log) this.lines.push(`${new Date().toISOString()} request ${formatRequestLine(event)}`);
	}

	event(message: EventMessage): void {
		this.events.push(message);
	}

	flush(now = Date.now()): void {
		if (this.count > 0) {
			this.post({type: 'requests', batch: {recent: this.recent.slice(-recentPerBatch), count: this.count, failed: this.failed}});
			[this.recent, this.count, this.failed] = [[], 0, 0];
		}
		if (this.events.length > 0) {
			this.post({type: 'events', batch: this.events});
			this.events = [];
		}
		// Sent when something changed, and every 15 s anyway so the charts move on when idle.
		if (now - this.trafficSentAt >= this.trafficEveryMs && (this.trafficDirty || now - this.trafficSentAt >= 15_000)) {
			this.post({type: 'traffic', snapshot: this.traffic.snapshot(now)});
			this.trafficSentAt = now;
			this.trafficDirty = false;
		}
		if (this.lines.length > 0) {
			this.log?.write(`${this.lines.join('\n')}\n`);
			this.lines = [];
		}
	}

	async close(): Promise<void> {
		this.flush();
		await new Promise<void>(resolve => (this.log ? this.log.end(resolve) : resolve()));
	}
}
