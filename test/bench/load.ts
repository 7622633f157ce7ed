/**
 * The load generator: an undici Pool of N connections, each with one request in flight at a time
 * (a closed loop), per-request latency measured with performance.now(). Every loop is bounded in
 * time, and the fixed-count loop in count too.
 */
import {setMaxListeners} from 'node:events';
import {performance} from 'node:perf_hooks';
import {Pool} from 'undici';
import {median} from './report.js';

/** One kind of request against one server. */
export type Target = {
	readonly origin: string;
	readonly path: string;
	readonly headers: Readonly<Record<string, string>>;
	readonly body: string;
	/** A string a correct answer contains ('"choices"', or '[DONE]' for a stream). */
	readonly expect: string;
};

export type LoadResult = {
	connections: number;
	requests: number;
	errors: number;
	firstError: string | null;
	seconds: number;
	rps: number;
	p50Ms: number;
	p99Ms: number;
	maxMs: number;
};

export type StreamsResult = {
	streams: number;
	completed: number;
	firstError: string | null;
	wallSeconds: number;
	capped: boolean;
	firstByteP50Ms: number;
	firstByteP99Ms: number;
};

/** The p-th percentile (nearest rank) of ascending values; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
	if (sorted.length === 0) return Number.NaN;
	const rank = Math.ceil((p / 100) * sorted.length);
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

type Tally = {requests: number; errors: number; firstError: string | null; latencies: number[] | null};

/** One request, read to the end: an error text, or null when the answer is what `target` expects. */
async function once(pool: Pool, target: Target): Promise<string | null> {
	const answer = await pool.request({path: target.path, method: 'POST', headers: target.headers, body: target.body});
	const text = await answer.body.text();
	if (answer.statusCode !== 200) return `HTTP ${answer.statusCode}: ${text.slice(0, 300)}`;
	if (!text.includes(target.expect)) return `unexpected answer: ${text.slice(0, 300)}`;
	return null;
}

async function worker(pool: Pool, targets: readonly Target[], tally: Tally, stop: () => boolean): Promise<void> {
	while (!stop()) {
		const target = targets[tally.requests % targets.length];
		const started = performance.now();
		let error: string | null;
		try {
			error = await once(pool, target);
		} catch (thrown) {
			error = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
		}
		tally.requests++;
		if (error === null) tally.latencies?.push(performance.now() - started);
		else {
			tally.errors++;
			tally.firstError ??= error;
			await sleep(5); // a refusing server must not turn the loop into a busy spin
		}
	}
}

function newPool(origin: string, connections: number, timeoutMs: number): Pool {
	return new Pool(origin, {connections, pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs});
}

/** `connections` loops for `warmupMs` (not counted), then for `durationMs` (measured). */
export async function closedLoop(target: Target, connections: number, warmupMs: number, durationMs: number): Promise<LoadResult> {
	return (await measuredLoop(target, connections, warmupMs, durationMs)).result;
}

/**
 * The same, with the latency of every answered request (ascending), so that rounds can be merged;
 * `cpuMs` reads CPU counters of the process under test (its whole process, a thread of it), and
 * the answer has how much each moved during the measured part.
 */
export async function measuredLoop(target: Target, connections: number, warmupMs: number, durationMs: number, cpuMs: () => readonly number[] = () => []): Promise<{result: LoadResult; latencies: number[]; cpuMs: number[]}> {
	const pool = newPool(target.origin, connections, 30_000);
	try {
		const run = async (ms: number, tally: Tally) => {
			const end = performance.now() + ms;
			const started = performance.now();
			await Promise.all(Array.from({length: connections}, () => worker(pool, [target], tally, () => performance.now() >= end)));
			return (performance.now() - started) / 1000;
		};
		await run(warmupMs, {requests: 0, errors: 0, firstError: null, latencies: null});
		const tally: Tally = {requests: 0, errors: 0, firstError: null, latencies: []};
		// The CPU of the measured part only (the reader is the caller's: the process under test's, from /proc).
		const cpuBefore = cpuMs();
		const seconds = await run(durationMs, tally);
		const cpuUsed = cpuMs().map((ms, index) => ms - (cpuBefore[index] ?? 0));
		const sorted = (tally.latencies ?? []).sort((a, b) => a - b);
		return {result: summary(connections, [{requests: tally.requests, errors: tally.errors, firstError: tally.firstError, seconds}], sorted), latencies: sorted, cpuMs: cpuUsed};
	} finally {
		await pool.destroy();
	}
}

type Counts = {requests: number; errors: number; firstError: string | null; seconds: number};

function summary(connections: number, parts: readonly Counts[], sorted: readonly number[]): LoadResult {
	const requests = parts.reduce((sum, part) => sum + part.requests, 0);
	const errors = parts.reduce((sum, part) => sum + part.errors, 0);
	const seconds = parts.reduce((sum, part) => sum + part.seconds, 0);
	return {
		connections,
		requests,
		errors,
		firstError: parts.find(part => part.firstError !== null)?.firstError ?? null,
		seconds,
		rps: (requests - errors) / seconds,
		p50Ms: percentile(sorted, 50),
		p99Ms: percentile(sorted, 99),
		maxMs: sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN,
	};
}

/** Rounds of one row measured apart (alternating with other rows) as one result: their requests and time summed, their latencies pooled. */
export function mergeRounds(rounds: ReadonlyArray<{result: LoadResult; latencies: readonly number[]}>): LoadResult {
	const pooled = rounds.flatMap(round => round.latencies).sort((a, b) => a - b);
	return summary(rounds[0]?.result.connections ?? 0, rounds.map(round => round.result), pooled);
}

/** `total` requests over `connections`, alternating between `targets`; stops at `capMs` whatever the count. */
export async function fixedCount(targets: readonly Target[], connections: number, total: number, capMs: number): Promise<{requests: number; errors: number; firstError: string | null; seconds: number}> {
	const pool = newPool(targets[0].origin, connections, 30_000);
	try {
		const tally: Tally = {requests: 0, errors: 0, firstError: null, latencies: null};
		const started = performance.now();
		const end = started + capMs;
		let issued = 0;
		// Each worker claims a request number before sending it, so exactly `total` go out.
		await Promise.all(Array.from({length: connections}, () => worker(pool, targets, tally, () => issued++ >= total || performance.now() >= end)));
		return {requests: tally.requests, errors: tally.errors, firstError: tally.firstError, seconds: (performance.now() - started) / 1000};
	} finally {
		await pool.destroy();
	}
}

/** One run of `concurrentStreams`: its figures, and every stream's time to its first byte (ascending) for pooling rounds. */
export type StreamsRun = {result: StreamsResult; firstBytesMs: number[]};

/**
 * `count` streaming requests, each on its own connection, started evenly over `rampMs` (0: all at
 * once — then a listen backlog of 511 makes the kernel drop SYNs, which clients retry after 1 s). A stream is complete
 * when it answered 200 and ended with [DONE]; all still running at `capMs` are aborted, and one
 * with no byte by then counts as a first byte at `capMs`.
 */
export async function concurrentStreams(target: Target, count: number, capMs: number, rampMs: number): Promise<StreamsRun> {
	const pool = newPool(target.origin, count, capMs + 5_000);
	const abort = new AbortController();
	setMaxListeners(count + 16, abort.signal); // one listener per request in flight
	const cap = setTimeout(() => abort.abort(), capMs);
	const firstBytes: number[] = [];
	let completed = 0;
	let firstError: string | null = null;
	const one = async () => {
		const started = performance.now();
		try {
			const answer = await pool.request({path: target.path, method: 'POST', headers: target.headers, body: target.body, signal: abort.signal});
			let tail = '';
			let first = true;
			for await (const chunk of answer.body as AsyncIterable<Buffer>) {
				if (first) firstBytes.push(performance.now() - started);
				first = false;
				tail = (tail + chunk.toString('utf8')).slice(-256);
			}
			if (answer.statusCode === 200 && tail.includes(target.expect)) completed++;
			else firstError ??= `HTTP ${answer.statusCode}: ${tail.slice(-200)}`;
		} catch (thrown) {
			firstError ??= thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
		}
	};
	const started = performance.now();
	let ended = started;
	try {
		await Promise.all(Array.from({length: count}, async (_, index) => {
			if (rampMs > 0) await sleep((index * rampMs) / count);
			await one();
		}));
		ended = performance.now();
	} finally {
		clearTimeout(cap);
		await pool.destroy();
	}
	// A stream that got no byte before the cap counts as the cap (a lower bound), not as nothing.
	const sorted = [...firstBytes, ...Array.from({length: count - firstBytes.length}, () => capMs)].sort((a, b) => a - b);
	return {
		result: {
			streams: count,
			completed,
			firstError,
			wallSeconds: (ended - started) / 1000,
			capped: abort.signal.aborted,
			firstByteP50Ms: percentile(sorted, 50),
			firstByteP99Ms: percentile(sorted, 99),
		},
		firstBytesMs: sorted,
	};
}

/**
 * Rounds of the same streams as one row: `streams` per round, `completed` the fewest any round
 * finished (all complete means every round), the median round's wall time, first-byte percentiles
 * of every round's streams pooled, and the first error any round met.
 */
export function mergeStreamRounds(runs: readonly StreamsRun[]): StreamsResult {
	if (runs.length === 0) throw new Error('mergeStreamRounds needs at least one round');
	const pooled = runs.flatMap(run => run.firstBytesMs).sort((a, b) => a - b);
	return {
		streams: runs[0].result.streams,
		completed: Math.min(...runs.map(run => run.result.completed)),
		firstError: runs.find(run => run.result.firstError !== null)?.result.firstError ?? null,
		wallSeconds: median(runs.map(run => run.result.wallSeconds)),
		capped: runs.some(run => run.result.capped),
		firstByteP50Ms: percentile(pooled, 50),
		firstByteP99Ms: percentile(pooled, 99),
	};
}
