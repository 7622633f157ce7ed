/**
 * `npm run bench`: gateway-tui against its references, side by side in one run — the fake upstream
 * asked directly, a bare Fastify + undici relay, `gateway-tui serve`, and the TUI (in tmux, on its
 * Usage pane). Prints tables and PASS / FAIL per target, and writes the figures as JSON. Failing
 * targets do not fail the run: only a setup error or a crash exits non-zero. Settings (env):
 *
 *   BENCH_DURATION_MS=5000  BENCH_ROUNDS=5  BENCH_WARMUP_MS=500  BENCH_PAUSE_MS=1100  BENCH_CONNECTIONS=32
 *                            throughput rows: each measured for DURATION/ROUNDS in each round, after WARMUP, PAUSE between rows
 *   BENCH_PRIME_MS=1000      a first, unmeasured warm-up of every endpoint and mode
 *   BENCH_STREAMS=1000,2000  BENCH_SLOW_CHUNKS=10  BENCH_SLOW_INTERVAL_MS=150  BENCH_STREAM_CAP_MS=15000
 *   BENCH_STREAM_RAMP_MS=500  the streams start evenly over this time (0: all in the same instant)
 *   BENCH_STREAM_ROUNDS=3    rounds of each count, taking the rows (direct, bare relay, serve passthrough, translated) in turn
 *   BENCH_RSS_REQUESTS=10000,100000   cumulative request counts after which the RSS of serve and of the TUI is read
 *   BENCH_RSS_SETTLE_MS=40000   and read again after this long idle (past the gateway's trim after 30 s quiet)
 *   BENCH_IDLE_SETTLE_MS=40000   idle RSS is read 2 s after start and again this long after start (past the start-up trim)
 *   BENCH_LARGE_TURNS=100  BENCH_LARGE_CONNECTIONS=4  BENCH_LARGE_MS=2000
 *                            large requests: a conversation of this many turns (~1.8 KB each), each row measured for LARGE_MS
 *                            over the rounds (0 turns skips the section)
 *   BENCH_STARTS=3  BENCH_KEYS_LIST_RUNS=5   BENCH_TUI=0 skips the TUI   BENCH_OUT=test/bench/last-run.json
 *   BENCH_TUI_STARTS=5       the TUI's start is timed this many times with its code cache, after one start without
 */
import {spawnSync} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {availableParallelism, cpus, loadavg, totalmem} from 'node:os';
import {join, resolve} from 'node:path';
import {closedLoop, concurrentStreams, fixedCount, measuredLoop, mergeRounds, mergeStreamRounds, type LoadResult, type StreamsRun, type Target} from './load.js';
import {cleanupNow, cli, cpuMsOf, installCleanup, mainThreadCpuMsOf, listenDrops, memoryOf, nodeStart, resetPeak, root, sampleRss, startEnv, startHelper, startServe, startTui, stop, stopTui, tempDir, timeTuiStart, type Serve, type Tui} from './procs.js';
import {checksOf, newResults, render, type Mode, type Results, type StreamRow, type TargetName, type ThroughputRow} from './report.js';

const numberEnv = (name: string, fallback: number) => {
	const value = Number(process.env[name] ?? fallback);
	if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
	return value;
};
const listEnv = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').filter(Boolean).map(Number).filter(value => Number.isInteger(value) && value > 0);

/** How many certificates a PEM file holds (null when it cannot be read). */
function certificatesIn(file: string): number | null {
	try {
		return readFileSync(file, 'latin1').split('-----BEGIN CERTIFICATE-----').length - 1;
	} catch {
		return null;
	}
}

const config = {
	durationMs: numberEnv('BENCH_DURATION_MS', 5000),
	warmupMs: numberEnv('BENCH_WARMUP_MS', 500),
	pauseMs: numberEnv('BENCH_PAUSE_MS', 1100),
	rounds: Math.max(1, Math.round(numberEnv('BENCH_ROUNDS', 5))),
	primeMs: numberEnv('BENCH_PRIME_MS', 1000),
	connections: numberEnv('BENCH_CONNECTIONS', 32),
	streams: listEnv('BENCH_STREAMS', '1000,2000'),
	slowChunks: numberEnv('BENCH_SLOW_CHUNKS', 10),
	slowIntervalMs: numberEnv('BENCH_SLOW_INTERVAL_MS', 150),
	streamCapMs: numberEnv('BENCH_STREAM_CAP_MS', 15_000),
	streamRampMs: numberEnv('BENCH_STREAM_RAMP_MS', 500),
	streamRounds: Math.max(1, Math.round(numberEnv('BENCH_STREAM_ROUNDS', 3))),
	rssRequests: listEnv('BENCH_RSS_REQUESTS', '10000,100000').sort((a, b) => a - b),
	rssSettleMs: numberEnv('BENCH_RSS_SETTLE_MS', 40_000),
	idleSettleMs: numberEnv('BENCH_IDLE_SETTLE_MS', 40_000),
	largeTurns: Math.round(numberEnv('BENCH_LARGE_TURNS', 100)),
	largeConnections: Math.max(1, Math.round(numberEnv('BENCH_LARGE_CONNECTIONS', 4))),
	largeMs: numberEnv('BENCH_LARGE_MS', 2000),
	starts: Math.max(1, numberEnv('BENCH_STARTS', 3)),
	keysListRuns: Math.max(1, numberEnv('BENCH_KEYS_LIST_RUNS', 5)),
	tui: process.env.BENCH_TUI !== '0',
	tuiStarts: Math.max(1, Math.round(numberEnv('BENCH_TUI_STARTS', 5))),
	out: resolve(root, process.env.BENCH_OUT ?? join('test', 'bench', 'last-run.json')),
};

const sleep = (ms: number) => new Promise(done => setTimeout(done, ms));
const log = (text: string) => process.stderr.write(`bench: ${text}\n`);

/** Two channels (OpenAI passthrough, Anthropic translated) on the fake upstream, and a key; returns its secret. */
async function setupHome(home: string, upstream: string): Promise<string> {
	await cli(home, ['channels', 'add', '--name', 'bench-openai', '--format', 'openai', '--base-url', `${upstream}/v1`, '--api-key', 'sk-bench-upstream', '--models', 'bench-model']);
	await cli(home, ['channels', 'add', '--name', 'bench-anthropic', '--format', 'anthropic', '--base-url', upstream, '--api-key', 'sk-ant-bench-upstream', '--models', 'bench-translated']);
	const {stdout} = await cli(home, ['keys', 'create', '--name', 'bench', '--json']);
	const created = JSON.parse(stdout) as {key?: unknown};
	if (typeof created.key !== 'string') throw new Error(`keys create --json printed no "key": ${stdout}`);
	return created.key;
}

/**
 * A coding agent's context: `turns` messages of about 1.8 KB of prose and code each, user and
 * assistant in turn, ending with the user's.
 */
function conversation(turns: number): Array<{role: 'user' | 'assistant'; content: string}> {
	const text = (index: number) => `Turn ${index}. The build fails in parser.ts: ${'function parse(input: string): Node { return new Parser(input).program(); } // why does the "for" loop skip the last token? '.repeat(16)}`;
	return Array.from({length: turns}, (_, index) => ({role: (turns - 1 - index) % 2 === 0 ? 'user' : 'assistant', content: text(index)}));
}

function request(origin: string, secret: string | null, model: string, options: {stream?: boolean; slow?: boolean; large?: boolean} = {}): Target {
	const messages = options.large ? conversation(config.largeTurns) : [{role: 'user', content: options.slow ? 'BENCH_SLOW: count slowly.' : 'Say hello in five words.'}];
	const body = {model, max_tokens: 32, messages, ...(options.stream ? {stream: true} : {})};
	return {
		origin,
		path: '/v1/chat/completions',
		headers: {'content-type': 'application/json', ...(secret ? {authorization: `Bearer ${secret}`} : {})},
		body: JSON.stringify(body),
		expect: options.stream ? 'data: [DONE]' : '"choices"',
	};
}

/** An Anthropic client's request (Claude Code's format) for a model of the OpenAI channel: translated both ways. */
function anthropicRequest(origin: string, secret: string, model: string, stream: boolean): Target {
	const body = {model, max_tokens: 32, system: 'You are a coding agent.', messages: [{role: 'user', content: 'Say hello in five words.'}], ...(stream ? {stream: true} : {})};
	return {
		origin,
		path: '/v1/messages',
		headers: {'content-type': 'application/json', 'x-api-key': secret, 'anthropic-version': '2023-06-01'},
		body: JSON.stringify(body),
		expect: stream ? 'event: message_stop' : '"stop_reason"',
	};
}

/** pid: the process whose CPU a row's requests cost (null for direct: the fake provider's own). */
type Endpoint = {name: TargetName; origin: string; secret: string | null; pid: number | null};

/** The modes an endpoint is measured in: direct and the bare relay only speak to the OpenAI endpoint. */
function targetsOf(endpoint: Endpoint, streaming: boolean, large = false): Array<{mode: Mode; target: Target}> {
	const make = (model: string) => request(endpoint.origin, endpoint.secret, model, {stream: streaming, large});
	const modes: Array<{mode: Mode; target: Target}> = [{mode: streaming ? 'passthrough stream' : 'passthrough', target: make('bench-model')}];
	if (endpoint.secret === null) return modes;
	modes.push({mode: streaming ? 'translated stream' : 'translated', target: make('bench-translated')});
	// The large requests compare passthrough with translation one way only: no Anthropic client there.
	if (!large) modes.push({mode: streaming ? 'anthropic client stream' : 'anthropic client', target: anthropicRequest(endpoint.origin, endpoint.secret, 'bench-model', streaming)});
	return modes;
}

/**
 * Every row of one table section, in `config.rounds` rounds that take the rows in turn (direct, the
 * bare relay, serve, the TUI, then again): a machine that speeds up or slows down during the
 * section (another tenant, the CPU's clock) weighs on every row alike, where one block of 3 s per
 * row put all of a slow spell on whichever row ran in it. A row's figures pool its rounds; its
 * ratios to another row are the median of the per-round ratios (report.ts).
 */
async function measure(results: Results, endpoints: readonly Endpoint[], streaming: boolean, connections: number): Promise<void> {
	const rows = endpoints.flatMap(endpoint => targetsOf(endpoint, streaming).map(({mode, target}) => ({endpoint, mode, target, rounds: [] as Array<Awaited<ReturnType<typeof measuredLoop>>>, cpuMs: 0, mainThreadMs: 0})));
	for (let round = 0; round < config.rounds; round++) {
		for (const row of rows) {
			const {pid} = row.endpoint;
			const measured = await measuredLoop(row.target, connections, config.warmupMs, config.durationMs / config.rounds, () => (pid === null ? [] : [cpuMsOf(pid), mainThreadCpuMsOf(pid)]));
			row.rounds.push(measured);
			row.cpuMs += measured.cpuMs[0] ?? 0;
			row.mainThreadMs += measured.cpuMs[1] ?? 0;
			// What a process does after its load (the usage flush every second, the TUI's redraw) runs here, not in the next row.
			await sleep(config.pauseMs);
		}
	}
	for (const {endpoint, mode, rounds, cpuMs, mainThreadMs} of rows) {
		const result: LoadResult = mergeRounds(rounds);
		const perRequest = (ms: number) => (endpoint.pid === null || result.requests === 0 ? null : (1000 * ms) / result.requests);
		const row: ThroughputRow = {target: endpoint.name, mode, result, roundRps: rounds.map(round => round.result.rps), cpuUsPerRequest: perRequest(cpuMs)};
		// The TUI's main thread is its UI (React, Ink, the terminal); the gateway serves on a worker thread.
		if (endpoint.name === 'TUI') row.uiCpuUsPerRequest = perRequest(mainThreadMs);
		results.throughput.push(row);
		log(`${endpoint.name.padEnd(10)} ${mode.padEnd(18)} @${String(connections).padEnd(3)} ${result.rps.toFixed(0).padStart(6)} req/s (rounds ${rounds.map(round => round.result.rps.toFixed(0)).join(' ')})  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms${result.errors ? `  ${result.errors} errors: ${result.firstError}` : ''}`);
	}
}

/**
 * The large requests: direct, the bare relay and `serve`, non-streamed and streamed, in rounds as
 * above, each row warmed up before each of its rounds; the CPU time of the process under test is
 * read around each measured round.
 */
async function largeRequests(results: Results, endpoints: readonly Endpoint[]): Promise<void> {
	const rows = endpoints.flatMap(endpoint =>
		[false, true].flatMap(streaming => targetsOf(endpoint, streaming, true).map(({mode, target}) => ({endpoint, mode, target, rounds: [] as Array<Awaited<ReturnType<typeof measuredLoop>>>, cpuMs: 0}))),
	);
	for (let round = 0; round < config.rounds; round++) {
		for (const row of rows) {
			await closedLoop(row.target, config.largeConnections, 0, config.warmupMs);
			const {pid} = row.endpoint;
			const measured = await measuredLoop(row.target, config.largeConnections, 0, config.largeMs / config.rounds, () => (pid === null ? [] : [cpuMsOf(pid)]));
			row.rounds.push(measured);
			row.cpuMs += measured.cpuMs[0] ?? 0;
			await sleep(config.pauseMs);
		}
	}
	for (const {endpoint, mode, rounds, cpuMs} of rows) {
		if (endpoint.name === 'TUI') continue;
		const result = mergeRounds(rounds);
		const cpuUsPerRequest = endpoint.pid === null || result.requests === 0 ? null : (1000 * cpuMs) / result.requests;
		results.large.push({target: endpoint.name, mode, result, roundRps: rounds.map(item => item.result.rps), cpuUsPerRequest});
		log(`large ${endpoint.name.padEnd(10)} ${mode.padEnd(18)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2)} ms${cpuUsPerRequest === null ? '' : `  ${cpuUsPerRequest.toFixed(0)} µs CPU a request`}${result.errors ? `  ${result.errors} errors: ${result.firstError}` : ''}`);
	}
}

/**
 * Each process measured here streams one mode only, as the bare relay (passthrough) does: `serve`'s
 * passthrough streams run in the serve of the throughput rows, its translated ones in a second
 * serve on the same home, warmed up as the first was — else each peak RSS would carry the heap the
 * other mode's 2,000 streams left behind (V8 gives it back only after a full collection), and the
 * translated peak would say more about the order of the rows than about translation.
 */
async function slowStreams(results: Results, upstream: string, bare: {origin: string; pid: number}, serve: Serve, serveSecret: string, home: string): Promise<void> {
	const translating = await startServe(home);
	for (const streaming of [false, true]) await closedLoop(request(translating.url, serveSecret, 'bench-translated', {stream: streaming}), config.connections, 0, config.primeMs);
	const cases: Array<{target: StreamRow['target']; mode: StreamRow['mode']; request: Target; pid: number | null}> = [
		{target: 'direct', mode: 'passthrough', request: request(upstream, null, 'bench-model', {stream: true, slow: true}), pid: null},
		{target: 'bare relay', mode: 'passthrough', request: request(bare.origin, null, 'bench-model', {stream: true, slow: true}), pid: bare.pid},
		{target: 'serve', mode: 'passthrough', request: request(serve.url, serveSecret, 'bench-model', {stream: true, slow: true}), pid: serve.pid},
		{target: 'serve', mode: 'translated', request: request(translating.url, serveSecret, 'bench-translated', {stream: true, slow: true}), pid: translating.pid},
	];
	for (const count of config.streams) {
		const measured = cases.map(() => ({runs: [] as StreamsRun[], peakRssMb: null as number | null, listenDrops: 0 as number | null}));
		for (let round = 0; round < config.streamRounds; round++) {
			for (const [index, item] of cases.entries()) {
				const {pid} = item;
				const resetWorked = pid !== null && resetPeak(pid);
				const sampled = pid === null ? null : sampleRss(pid);
				const dropsBefore = listenDrops();
				const run = await concurrentStreams(item.request, count, config.streamCapMs, config.streamRampMs);
				const highest = sampled ? sampled() : null;
				const peakRssMb = highest === null || pid === null ? null : Math.max(highest, resetWorked ? memoryOf(pid).peakMb : 0);
				const dropsAfter = listenDrops();
				const drops = dropsBefore === null || dropsAfter === null ? null : dropsAfter - dropsBefore;
				const row = measured[index];
				row.runs.push(run);
				if (peakRssMb !== null) row.peakRssMb = Math.max(row.peakRssMb ?? 0, peakRssMb);
				row.listenDrops = row.listenDrops === null || drops === null ? null : row.listenDrops + drops;
				const {result} = run;
				log(`${count} slow streams ${item.target} ${item.mode}, round ${round + 1}: ${result.completed} completed in ${result.wallSeconds.toFixed(2)} s, first byte p99 ${result.firstByteP99Ms.toFixed(1)} ms${peakRssMb === null ? '' : `, peak RSS ${peakRssMb.toFixed(1)} MB`}${drops ? `, ${drops} SYN drops` : ''}${result.firstError ? ` (${result.firstError})` : ''}`);
				await sleep(config.pauseMs);
			}
		}
		for (const [index, item] of cases.entries()) {
			const {runs, peakRssMb, listenDrops: drops} = measured[index];
			results.streams.push({target: item.target, mode: item.mode, result: mergeStreamRounds(runs), roundWalls: runs.map(run => run.result.wallSeconds), peakRssMb, listenDrops: drops});
		}
	}
	if (!resetPeak(serve.pid)) results.notes.push('the kernel refused to reset VmHWM (/proc/PID/clear_refs): peak RSS is the highest VmRSS sampled every 50 ms.');
	await stop(translating.child);
}

/**
 * A fresh serve on a fresh home: its RSS after each cumulative request count (passthrough and
 * translated alternating), and its CPU time after each batch — the second that follows it, then per
 * second of the idle wait (the bare relay's, idle all along, over the same waits).
 */
async function rssGrowth(results: Results, upstream: string, barePid: number | null): Promise<void> {
	const home = tempDir();
	const secret = await setupHome(home, upstream);
	const serve = await startServe(home);
	// The TUI too (a user's complaint was the TUI at 389 MB after a day), on its own home, on the Usage
	// pane so the live log and charts draw the traffic. The two take their batches in turn and sit idle
	// together, so the TUI adds only its batches' time.
	let tui: Tui | null = null;
	let tuiSecret = '';
	if (config.tui && spawnSync('tmux', ['-V']).status === 0) {
		const tuiHome = tempDir();
		tuiSecret = await setupHome(tuiHome, upstream);
		tui = await startTui(tuiHome);
		await tui.tmux.keys('4');
		await tui.tmux.waitFor('Live requests', 10_000);
	}
	const processes = [
		{name: 'serve', pid: serve.pid, targets: [request(serve.url, secret, 'bench-model'), request(serve.url, secret, 'bench-translated')], rows: results.memory.afterRequests},
		...(tui ? [{name: 'TUI', pid: tui.pid, targets: [request(tui.url, tuiSecret, 'bench-model'), request(tui.url, tuiSecret, 'bench-translated')], rows: results.memory.tuiAfterRequests}] : []),
	];
	let sent = 0;
	const idle = {bareMs: 0, seconds: 0};
	for (const total of config.rssRequests) {
		const batch = total - sent;
		sent = total;
		const loaded: Array<{rssMb: number; run: Awaited<ReturnType<typeof fixedCount>>; tailCpuMs: number}> = [];
		for (const item of processes) {
			const run = await fixedCount(item.targets, config.connections, batch, 10 * 60_000);
			const endCpu = cpuMsOf(item.pid);
			await sleep(1000);
			loaded.push({rssMb: memoryOf(item.pid).rssMb, run, tailCpuMs: cpuMsOf(item.pid) - endCpu});
			if (run.requests < batch) results.notes.push(`the ${item.name} RSS run to ${total} requests stopped at its 10-minute cap, after ${run.requests} of ${batch}.`);
		}
		// Read again once the processes have been idle a while: what traffic left behind, not the heap V8 sized for it.
		const idleFrom = {at: performance.now(), cpu: processes.map(item => cpuMsOf(item.pid)), bare: barePid ? cpuMsOf(barePid) : null};
		await sleep(config.rssSettleMs);
		const idleSeconds = (performance.now() - idleFrom.at) / 1000;
		// Under a second of idle time says nothing at the /proc clock's 10 ms.
		const perSecond = (ms: number) => (idleSeconds >= 1 ? ms / idleSeconds : null);
		if (barePid && idleFrom.bare !== null && idleSeconds >= 1) {
			idle.bareMs += cpuMsOf(barePid) - idleFrom.bare;
			idle.seconds += idleSeconds;
		}
		processes.forEach((item, index) => {
			const {rssMb, run, tailCpuMs} = loaded[index]!;
			const settledMb = memoryOf(item.pid).rssMb;
			const idleCpuMsPerS = perSecond(cpuMsOf(item.pid) - idleFrom.cpu[index]!);
			const rps = (run.requests - run.errors) / run.seconds;
			item.rows.push({requests: total, rssMb, settledMb, rps, errors: run.errors, tailCpuMs, idleCpuMsPerS});
			log(`${item.name} RSS after ${total} requests: ${rssMb.toFixed(1)} MB, ${settledMb.toFixed(1)} MB after ${config.rssSettleMs / 1000} s idle (${rps.toFixed(0)} req/s${run.errors ? `, ${run.errors} errors: ${run.firstError}` : ''})`);
		});
	}
	results.memory.bareIdleCpuMsPerS = idle.seconds > 0 ? idle.bareMs / idle.seconds : null;
	if (tui) stopTui(tui);
	await stop(serve.child);
}

/**
 * The TUI's start as a person sees it, on a home with two channels and a key: the first start with
 * an empty code cache (it compiles its UI and its core from source and writes the cache), then
 * `tuiStarts` more that read it, each held past the moment the cache is written.
 */
async function tuiStarts(upstreamOrigin: string): Promise<NonNullable<Results['start']['tui']>> {
	const home = tempDir();
	await setupHome(home, upstreamOrigin);
	const codeCache = tempDir();
	const options = {codeCache, holdMs: 1500};
	const cold = await timeTuiStart(home, options);
	const warm = [];
	for (let run = 0; run < config.tuiStarts; run++) warm.push(await timeTuiStart(home, options));
	return {coldFirstFrameMs: cold.firstFrameMs, coldAddressMs: cold.addressMs, firstFrameMs: warm.map(start => start.firstFrameMs), addressMs: warm.map(start => start.addressMs)};
}

/**
 * Idle RSS of a `serve` and a TUI started for it (fresh, at the end, so the processes measured for
 * throughput never sit through the idle trim before their rows): 2 s after start, and settled.
 * The bare relay's was read at the start, before any load.
 */
async function idleMemory(results: Results, upstream: string): Promise<void> {
	const home = tempDir();
	await setupHome(home, upstream);
	const serve = await startServe(home);
	const serveStarted = performance.now();
	let tui: Tui | null = null;
	let tuiStarted = 0;
	if (config.tui && spawnSync('tmux', ['-V']).status === 0) {
		const tuiHome = tempDir();
		await setupHome(tuiHome, upstream);
		tui = await startTui(tuiHome);
		tuiStarted = performance.now();
	}
	await sleep(Math.max(0, serveStarted + 2000 - performance.now()));
	results.memory.serveIdleMb = memoryOf(serve.pid).rssMb;
	if (tui) {
		await sleep(Math.max(0, tuiStarted + 2000 - performance.now()));
		results.memory.tuiIdleMb = memoryOf(tui.pid).rssMb;
	}
	await sleep(Math.max(0, serveStarted + config.idleSettleMs - performance.now()));
	results.memory.serveSettledMb = memoryOf(serve.pid).rssMb;
	if (tui) {
		await sleep(Math.max(0, tuiStarted + config.idleSettleMs - performance.now()));
		results.memory.tuiSettledMb = memoryOf(tui.pid).rssMb;
		stopTui(tui);
	}
	await stop(serve.child);
}

async function main(): Promise<void> {
	installCleanup();
	const cpu = cpus()[0]?.model ?? 'unknown CPU';
	const results: Results = newResults(
		new Date().toISOString(),
		{nproc: availableParallelism(), cpu, node: process.version, memoryGb: Math.round(totalmem() / 2 ** 30), platform: `${process.platform} ${process.arch}`, loadAtStart: loadavg()[0], loadAtEnd: Number.NaN},
		{...config, streams: config.streams.join(','), rssRequests: config.rssRequests.join(','), tui: String(config.tui), largeBytes: Buffer.byteLength(JSON.stringify(conversation(config.largeTurns)))},
	);
	if (process.platform !== 'linux') throw new Error('the bench reads /proc: it runs on Linux only');

	log('starting the fake upstream and the bare relay');
	const upstream = await startHelper('upstream.ts', {BENCH_SLOW_CHUNKS: String(config.slowChunks), BENCH_SLOW_INTERVAL_MS: String(config.slowIntervalMs)});
	const upstreamOrigin = `http://127.0.0.1:${upstream.port}`;
	const bare = await startHelper('bare-relay.ts', {BENCH_UPSTREAM: upstreamOrigin}, {bundled: true});

	log('setting up a home with two channels and a key (the CLI)');
	const home = tempDir();
	const serveSecret = await setupHome(home, upstreamOrigin);
	// Judged without NODE_EXTRA_CA_CERTS (see startEnv); with it set, the same starts in the inherited environment, in turn.
	const judged = startEnv();
	const caFile = process.env.NODE_EXTRA_CA_CERTS;
	const inherited = caFile ? {file: caFile, certificates: certificatesIn(caFile), serveMs: [] as number[], keysListMs: [] as number[], nodeMs: [] as number[]} : null;
	results.start.withExtraCaCerts = inherited;
	for (let run = 0; run < config.keysListRuns; run++) {
		results.start.nodeMs.push(await nodeStart(judged));
		results.start.keysListMs.push((await cli(home, ['keys', 'list'], judged)).ms);
		if (!inherited) continue;
		inherited.nodeMs.push(await nodeStart(process.env));
		inherited.keysListMs.push((await cli(home, ['keys', 'list'])).ms);
	}

	log(`starting serve ${config.starts} time(s)${inherited ? ', and as often with NODE_EXTRA_CA_CERTS' : ''}`);
	let serve: Serve | null = null;
	for (let run = 0; run < config.starts; run++) {
		if (serve) await stop(serve.child);
		if (inherited) {
			const other = await startServe(home);
			inherited.serveMs.push(other.startMs);
			await stop(other.child);
		}
		serve = await startServe(home, judged);
		results.start.serveMs.push(serve.startMs);
	}
	if (!serve) throw new Error('serve did not start');
	if (config.tui && spawnSync('tmux', ['-V']).status === 0) {
		log(`timing the TUI's start in tmux: once with an empty code cache, then ${config.tuiStarts} time(s) with it`);
		results.start.tui = await tuiStarts(upstreamOrigin);
	}
	// The bare relay is read before any load (it has no trim: what it holds after load it keeps).
	results.memory.bareIdleMb = bare.child.pid ? memoryOf(bare.child.pid).rssMb : null;

	const endpoints: Endpoint[] = [
		{name: 'direct', origin: upstreamOrigin, secret: null, pid: null},
		{name: 'bare relay', origin: `http://127.0.0.1:${bare.port}`, secret: null, pid: bare.child.pid ?? null},
		{name: 'serve', origin: serve.url, secret: serveSecret, pid: serve.pid},
	];
	let tui: Tui | null = null;
	if (!config.tui) results.notes.push('BENCH_TUI=0: the TUI was not measured.');
	else if (spawnSync('tmux', ['-V']).status !== 0) results.notes.push('tmux is not installed: the TUI was not measured.');
	else {
		log('starting the TUI in tmux');
		const tuiHome = tempDir();
		const tuiSecret = await setupHome(tuiHome, upstreamOrigin);
		tui = await startTui(tuiHome);
		await tui.tmux.keys('4');
		await tui.tmux.waitFor('Live requests', 10_000);
		endpoints.push({name: 'TUI', origin: tui.url, secret: tuiSecret, pid: tui.pid});
	}
	log('warming up every endpoint and mode (not measured)');
	for (const endpoint of endpoints) {
		for (const streaming of [false, true]) {
			for (const {mode, target} of targetsOf(endpoint, streaming)) {
				const primed = await closedLoop(target, config.connections, 0, config.primeMs);
				if (primed.requests > 0 && primed.errors === primed.requests) throw new Error(`${endpoint.name} ${mode}: every request failed: ${primed.firstError}`);
			}
		}
	}
	log(`throughput: ${config.durationMs} ms per row after ${config.warmupMs} ms of warm-up`);
	await measure(results, endpoints, false, 1);
	await measure(results, endpoints, false, config.connections);
	await measure(results, endpoints, true, config.connections);
	if (tui) {
		// The live log must show the traffic, else the TUI was not really drawing it.
		await tui.tmux.waitFor(/bench-translated|bench-model/, 5_000);
		stopTui(tui);
	}

	log('concurrent slow streams');
	await slowStreams(results, upstreamOrigin, {origin: `http://127.0.0.1:${bare.port}`, pid: bare.child.pid ?? 0}, serve, serveSecret, home);
	// After the slow streams: their peak RSS is read from processes that have not held 200 KB requests.
	if (config.largeTurns > 0) {
		log(`large requests: a conversation of ${config.largeTurns} turns at ${config.largeConnections} connections`);
		await largeRequests(results, endpoints.filter(endpoint => endpoint.name !== 'TUI'));
	}

	await stop(serve.child);

	log(`idle RSS of a fresh serve and TUI, 2 s and ${config.idleSettleMs / 1000} s after start`);
	await idleMemory(results, upstreamOrigin);

	if (config.rssRequests.length > 0) {
		log(`serve RSS after ${config.rssRequests.join(' and ')} requests (a fresh serve)`);
		await rssGrowth(results, upstreamOrigin, bare.child.pid ?? null);
	}
	await stop(bare.child);
	await stop(upstream.child);

	results.machine.loadAtEnd = loadavg()[0];
	results.checks = checksOf(results, config.connections);
	process.stdout.write(`\n${render(results)}\n`);
	writeFileSync(config.out, `${JSON.stringify(results, null, '\t')}\n`);
	process.stdout.write(`\nFigures written to ${config.out}\n`);
}

main().then(
	() => {
		cleanupNow();
		process.exit(0);
	},
	(error: unknown) => {
		process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		cleanupNow();
		process.exit(1);
	},
);
