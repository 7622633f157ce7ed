/**
 * What the gateway worker sends the UI, gathered between two posts so the UI's cost does not grow
 * with traffic: finished requests as one batch (the newest few for the live log, and how many in
 * all), how many requests are in flight when that changed, traffic charts as a snapshot about once
 * a second, other events as they are. The request log lines go straight to the log file from here,
 * in one write per batch; past `rotateBytes` the log is moved to `.1` and a new one begun (see
 * base/log-rotation.ts).
 *
 * A line is encoded into the batch's bytes as its request finishes, not kept as a string until the
 * batch is written: at thousands of requests a second, a tenth of a second of lines (a few hundred
 * KB) lived through several collections of the young generation, each of which copied them — the
 * worker's scavenges took ~30 % longer than `serve`'s, and its throughput ~5 % less than without a
 * log (measured side by side). Bytes in a Buffer are outside the heap the collector copies.
 */
import {createWriteStream, fstatSync, openSync, type WriteStream} from 'node:fs';
import {logRotateBytes, rotateLog} from '../base/log-rotation.js';
import {isFailure, type RequestFinished} from '../base/events.js';
import {IsoTime} from '../base/iso-time.js';
import {formatRequestLine} from '../base/request-line.js';
import {minuteMs, minuteOf, TrafficCounter} from '../base/traffic.js';
import type {CoreMessage, EventMessage} from './worker-protocol.js';

/** The live log shows the newest requests only: more per batch would be work for nothing. */
const recentPerBatch = 30;

/** The batch's bytes start this large (about 350 lines) and grow by doubling; the next batch starts at twice what the last one used, within those bounds. */
const initialLogBytes = 64 * 1024;

export class WorkerOutbox {
	private events: EventMessage[] = [];
	private recent: RequestFinished[] = [];
	private count = 0;
	private failed = 0;
	/** This batch's log lines, encoded: `used` bytes of `pending`. */
	private pending = Buffer.allocUnsafe(0);
	private used = 0;
	private readonly traffic = new TrafficCounter();
	/** The log line's time, as the request log record's (toISOString costs 360 ns a line). */
	private readonly isoTime = new IsoTime();
	private trafficDirty = true;
	/** The count of requests in flight the UI was last sent. */
	private inFlightSent = 0;
	private trafficSentAt = 0;
	private log: WriteStream | null;
	/** Bytes in the log file: its size when opened, plus what this outbox wrote since. */
	private logBytes = 0;
	/** Logs moved aside whose streams are still writing what they hold. */
	private readonly ending: Array<Promise<void>> = [];

	constructor(
		private readonly post: (message: CoreMessage) => void,
		private readonly logFile: string | undefined,
		private readonly trafficEveryMs = 1000,
		private readonly rotateBytes = logRotateBytes,
	) {
		this.log = logFile ? this.openLog(logFile) : null;
	}

	/** Opened at once (not by the stream, later): the descriptor is the file's, so a rename never redirects what it writes. */
	private openLog(path: string): WriteStream | null {
		try {
			const fd = openSync(path, 'a', 0o600);
			this.logBytes = fstatSync(fd).size; // the file written to, whatever the path names by now
			const stream = createWriteStream('', {fd});
			stream.on('error', () => {});
			return stream;
		} catch {
			return null; // no log (the directory is gone, a full disk): the TUI goes on without its lines
		}
	}

	/** Move the log aside once it is past the size; what the old stream still holds lands in `.1`, in order. */
	private rotateWhenLarge(): void {
		if (!this.log || !this.logFile || this.logBytes <= this.rotateBytes) return;
		if (!rotateLog(this.logFile)) {
			this.logBytes = 0; // could not be moved: keep appending, and try again after as much again
			return;
		}
		const old = this.log;
		this.ending.push(new Promise<void>(resolve => old.end(resolve)));
		this.log = this.openLog(this.logFile);
	}

	request(event: RequestFinished): void {
		this.count++;
		if (isFailure(event)) this.failed++;
		this.recent.push(event);
		if (this.recent.length > 2 * recentPerBatch) this.recent = this.recent.slice(-recentPerBatch);
		this.traffic.record(event);
		this.trafficDirty = true;
		if (this.log) this.append(`${this.isoTime.text()} request ${formatRequestLine(event)}\n`);
	}

	/** `text` encoded at the end of the batch's bytes (room made first: UTF-8 takes at most three bytes a UTF-16 unit). */
	private append(text: string): void {
		const room = this.used + 3 * text.length;
		if (room > this.pending.length) {
			const grown = Buffer.allocUnsafe(Math.max(initialLogBytes, 2 * this.pending.length, room));
			this.pending.copy(grown, 0, 0, this.used);
			this.pending = grown;
		}
		this.used += this.pending.write(text, this.used, 'utf8');
	}

	/** Requests other gateways recorded in the shared store, read by the TUI: counted in the charts (at the time each finished), never logged or sent back. */
	stored(records: readonly RequestFinished[], now = Date.now()): void {
		for (const record of records) this.traffic.recordStored(record, now);
		if (records.length > 0) this.trafficDirty = true;
	}

	event(message: EventMessage): void {
		this.events.push(message);
	}

	/** Posts what gathered since the last flush; `inFlight`: the requests received and not finished now, sent when it changed. */
	flush(now = Date.now(), inFlight = this.inFlightSent): void {
		if (this.count > 0) {
			this.post({type: 'requests', batch: {recent: this.recent.slice(-recentPerBatch), count: this.count, failed: this.failed}});
			[this.recent, this.count, this.failed] = [[], 0, 0];
		}
		if (this.events.length > 0) {
			this.post({type: 'events', batch: this.events});
			this.events = [];
		}
		if (inFlight !== this.inFlightSent) {
			this.post({type: 'in-flight', count: inFlight});
			this.inFlightSent = inFlight;
		}
		// Sent when something changed (at most every `trafficEveryMs`), and once a new minute has begun,
		// when the charts' hour moves on by a minute: nothing else makes an idle snapshot differ (every
		// snapshot sent is a redraw of the whole screen in the TUI).
		if ((this.trafficDirty && now - this.trafficSentAt >= this.trafficEveryMs) || minuteOf(now) !== minuteOf(this.trafficSentAt)) {
			this.post({type: 'traffic', snapshot: this.traffic.snapshot(now)});
			this.trafficSentAt = now;
			this.trafficDirty = false;
		}
		if (this.used > 0 && this.log) {
			// The stream holds the bytes until they are written: the next batch gets a Buffer of its own.
			this.log.write(this.pending.subarray(0, this.used));
			this.logBytes += this.used;
			this.pending = Buffer.allocUnsafe(Math.max(initialLogBytes, Math.min(this.pending.length, 2 * this.used)));
			this.used = 0;
			this.rotateWhenLarge();
		}
	}

	/**
	 * When this outbox next has something to send though nothing else happens: the traffic snapshot
	 * held back by `trafficEveryMs`, or the next minute's (the charts' hour moves on). The worker
	 * flushes then, and otherwise only after a request, an event or a change of the count in flight:
	 * an idle TUI's core wakes once a minute, not ten times a second.
	 */
	dueAt(now = Date.now()): number {
		const nextMinute = (minuteOf(now) + 1) * minuteMs;
		return this.trafficDirty ? Math.min(nextMinute, Math.max(now, this.trafficSentAt + this.trafficEveryMs)) : nextMinute;
	}

	async close(): Promise<void> {
		this.flush();
		const log = this.log;
		await Promise.all([...this.ending, new Promise<void>(resolve => (log ? log.end(resolve) : resolve()))]);
	}
}
