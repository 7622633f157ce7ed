/** The bench's results: their shape, the targets they are checked against, and the printed tables. */
import type {LoadResult, StreamsResult} from './load.js';

export type TargetName = 'direct' | 'bare relay' | 'serve' | 'TUI';
/**
 * passthrough: an OpenAI client to the OpenAI channel; translated: an OpenAI client to the Anthropic
 * channel; anthropic client: an Anthropic client to the OpenAI channel (Claude Code on a
 * chat-completions provider: the prompt counted for `message_start` on every stream).
 */
export type Mode = 'passthrough' | 'translated' | 'anthropic client' | 'passthrough stream' | 'translated stream' | 'anthropic client stream';

/** The gateway's modes that have targets of their own (non-streamed, as the issue's targets are). */
const gatewayModes = ['passthrough', 'translated', 'anthropic client'] as const;

/** roundRps: req/s in each round (the rows of a section take their rounds in turn). */
/**
 * cpuUsPerRequest: the CPU time of the process under test (all its threads, from /proc) over its
 * requests, all rounds; null for direct. uiCpuUsPerRequest (TUI rows): the part of it spent on the
 * TUI's main thread, its UI (the gateway serves on a worker thread).
 */
export type ThroughputRow = {target: TargetName; mode: Mode; result: LoadResult; roundRps?: number[]; cpuUsPerRequest?: number | null; uiCpuUsPerRequest?: number | null};
/**
 * The slow streams of one target and count, over the rounds (load.ts `mergeStreamRounds`): `roundWalls`
 * is each round's wall time in s, in the order the rounds ran (rows of the same count took their
 * rounds in turn); `peakRssMb` the highest of the rounds; listenDrops: connections the kernel dropped
 * meanwhile for a full accept queue, all rounds (the client retries after 1 s).
 */
export type StreamRow = {target: 'direct' | 'bare relay' | 'serve'; mode: 'passthrough' | 'translated'; result: StreamsResult; roundWalls?: number[]; peakRssMb: number | null; listenDrops: number | null};
/**
 * A row of the large requests: `cpuUsPerRequest` is the CPU time of the process under test (all its
 * threads) per request over the measured rounds; null for direct (the fake provider's own).
 */
export type LargeRow = {target: 'direct' | 'bare relay' | 'serve'; mode: Mode; result: LoadResult; roundRps: number[]; cpuUsPerRequest: number | null};
/**
 * RSS of a process after a number of requests, under load (1 s after) and once idle; and its CPU
 * time after the load: in the second after its last answer (the usage flush of what was still in
 * memory) and per second over the idle time that follows (null: no idle time was measured).
 */
export type RssAfter = {requests: number; rssMb: number; settledMb: number; rps: number; errors: number; tailCpuMs: number; idleCpuMsPerS: number | null};

/**
 * One target. `relay`: what the bare relay itself measured against the same target, where it has
 * one (latency added over direct, the slow streams, idle memory) — a target the stack misses on its
 * own says more about the machine than about the gateway.
 */
export type Check = {name: string; target: string; measured: string; pass: boolean | null; relay?: {measured: string; pass: boolean}};

/**
 * The TUI's start in tmux, spawn → its first frame and → its address on screen (the core listening):
 * once with an empty code cache (`cold…`), then with it. No target of its own; printed beside the others.
 */
export type TuiStarts = {coldFirstFrameMs: number; coldAddressMs: number; firstFrameMs: number[]; addressMs: number[]};

export type ExtraCaStarts = {file: string; certificates: number | null; serveMs: number[]; keysListMs: number[]; nodeMs: number[]};

export type Results = {
	date: string;
	machine: {nproc: number; cpu: string; node: string; memoryGb: number; platform: string; loadAtStart: number; loadAtEnd: number};
	config: Record<string, number | string>;
	throughput: ThroughputRow[];
	streams: StreamRow[];
	/** The same requests with a coding agent's context (see `config.largeTurns`); no target of its own. */
	large: LargeRow[];
	/**
	 * Start times, judged in the bench's environment without NODE_EXTRA_CA_CERTS; `nodeMs` is Node's own
	 * start there (`node -e 0`). With the variable set, `withExtraCaCerts` holds the same starts in the
	 * inherited environment, which Node's parse of its root certificates and the file's slows alike.
	 */
	start: {serveMs: number[]; keysListMs: number[]; nodeMs: number[]; withExtraCaCerts: ExtraCaStarts | null; tui: TuiStarts | null};
	memory: {serveIdleMb: number | null; tuiIdleMb: number | null; bareIdleMb: number | null; serveSettledMb: number | null; tuiSettledMb: number | null; afterRequests: RssAfter[]; tuiAfterRequests: RssAfter[]; bareIdleCpuMsPerS: number | null};
	notes: string[];
	checks: Check[];
};

/** A run's results before anything is measured. */
export function newResults(date: string, machine: Results['machine'], config: Results['config']): Results {
	return {
		date,
		machine,
		config,
		throughput: [],
		streams: [],
		large: [],
		start: {serveMs: [], keysListMs: [], nodeMs: [], withExtraCaCerts: null, tui: null},
		memory: {serveIdleMb: null, tuiIdleMb: null, bareIdleMb: null, serveSettledMb: null, tuiSettledMb: null, afterRequests: [], tuiAfterRequests: [], bareIdleCpuMsPerS: null},
		notes: [],
		checks: [],
	};
}

export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	if (sorted.length === 0) return Number.NaN;
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const fixed = (value: number | null | undefined, digits = 2) => (value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits));
const signed = (value: number, digits = 2) => (Number.isNaN(value) ? '-' : `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`);

function findRow(results: Results, target: TargetName, mode: Mode, connections: number): ThroughputRow | undefined {
	return results.throughput.find(row => row.target === target && row.mode === mode && row.result.connections === connections);
}

function find(results: Results, target: TargetName, mode: Mode, connections: number): LoadResult | undefined {
	return findRow(results, target, mode, connections)?.result;
}

/** The mode of the reference a row is compared with: direct and the bare relay ask the fake upstream's OpenAI endpoint. */
const referenceMode = (mode: Mode): Mode => (mode.endsWith('stream') ? 'passthrough stream' : 'passthrough');

function reference(results: Results, against: 'direct' | 'bare relay', mode: Mode, connections: number): LoadResult | undefined {
	return find(results, against, referenceMode(mode), connections);
}

/** A ratio of two rows: the median of the per-round ratios, with the lowest and highest. */
export type RoundRatio = {ratio: number; low: number; high: number};

/**
 * `value` over `base`: the median of the per-round ratios when both were measured in the same
 * rounds (each round's pair ran minutes apart at most, seconds usually), else the ratio of the
 * rows' own figures (`whole`); undefined when the base is not positive.
 */
function roundRatio(rounds: readonly number[] | undefined, baseRounds: readonly number[] | undefined, whole: number, baseWhole: number): RoundRatio | undefined {
	if (baseWhole <= 0) return undefined;
	const a = rounds ?? [];
	const b = baseRounds ?? [];
	if (a.length === 0 || a.length !== b.length || b.some(value => value <= 0)) {
		const ratio = whole / baseWhole;
		return {ratio, low: ratio, high: ratio};
	}
	const ratios = a.map((value, index) => value / b[index]);
	return {ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios)};
}

/** req/s of `row` over req/s of `base` (see roundRatio: pooled req/s when the rounds do not pair). */
export function throughputRatio(row: ThroughputRow | undefined, base: ThroughputRow | undefined): RoundRatio | undefined {
	return row && base ? roundRatio(row.roundRps, base.roundRps, row.result.rps, base.result.rps) : undefined;
}

/** Wall time of `row` over `base`, slow streams of the same count (see roundRatio: the median rounds' walls when the rounds do not pair). */
export function wallRatio(row: StreamRow | undefined, base: StreamRow | undefined): RoundRatio | undefined {
	return row && base ? roundRatio(row.roundWalls, base.roundWalls, row.result.wallSeconds, base.result.wallSeconds) : undefined;
}

function rssAfter(rows: readonly RssAfter[]): string {
	return rows.map(item => `after ${item.requests} requests ${item.rssMb.toFixed(1)} MB, ${item.settledMb.toFixed(1)} MB once idle (${item.rps.toFixed(0)} req/s, ${item.errors} errors)`).join('; ') || 'not measured';
}

function cpuAfter(rows: readonly RssAfter[]): string {
	return rows.map(item => `${item.requests} requests: ${item.tailCpuMs.toFixed(0)} ms in the second after the last answer, then ${fixed(item.idleCpuMsPerS, 1)} ms a second idle`).join('; ') || 'not measured';
}

function check(name: string, target: string, value: number | undefined, ok: (value: number) => boolean, show: (value: number) => string, relay?: number): Check {
	const measured = relay === undefined || Number.isNaN(relay) ? {} : {relay: {measured: show(relay), pass: ok(relay)}};
	if (value === undefined || Number.isNaN(value)) return {name, target, measured: 'not measured', pass: null, ...measured};
	return {name, target, measured: show(value), pass: ok(value), ...measured};
}

/** Every target from the project's issues, as PASS / FAIL (or not measured). */
export function checksOf(results: Results, connections: number): Check[] {
	const checks: Check[] = [];
	const ratio = (a?: ThroughputRow, b?: ThroughputRow) => throughputRatio(a, b)?.ratio;
	const times = (value: number) => `${value.toFixed(2)}×`;
	const ms = (value: number) => `${value.toFixed(2)} ms`;
	for (const mode of gatewayModes) {
		checks.push(check(`serve ${mode} throughput @${connections} vs bare relay`, '≥ 0.85×', ratio(findRow(results, 'serve', mode, connections), findRow(results, 'bare relay', referenceMode(mode), connections)), v => v >= 0.85, times));
	}
	for (const mode of gatewayModes) {
		const serve = find(results, 'serve', mode, 1);
		const direct = reference(results, 'direct', mode, 1);
		const bare = reference(results, 'bare relay', mode, 1);
		checks.push(check(`serve ${mode} added p50 @1 vs direct`, '≤ 0.2 ms', serve && direct ? serve.p50Ms - direct.p50Ms : undefined, v => v <= 0.2, ms, bare && direct ? bare.p50Ms - direct.p50Ms : undefined));
		checks.push(check(`serve ${mode} added p99 @1 vs direct`, '≤ 1 ms', serve && direct ? serve.p99Ms - direct.p99Ms : undefined, v => v <= 1, ms, bare && direct ? bare.p99Ms - direct.p99Ms : undefined));
	}
	const largest = Math.max(0, ...results.streams.map(row => row.result.streams));
	for (const mode of ['passthrough', 'translated'] as const) {
		const row = results.streams.find(item => item.target === 'serve' && item.mode === mode && item.result.streams === largest);
		const direct = results.streams.find(item => item.target === 'direct' && item.result.streams === largest);
		// The bare relay streams passthrough only: it is the reference for both modes.
		const bare = results.streams.find(item => item.target === 'bare relay' && item.result.streams === largest);
		const label = `serve ${largest} slow streams ${mode}`;
		checks.push(check(`${label}: all complete`, `${largest}/${largest}`, row?.result.completed, v => v === largest, v => `${v}/${largest}`, bare?.result.completed));
		checks.push(check(`${label}: wall vs direct`, '≤ 1.2×', wallRatio(row, direct)?.ratio, v => v <= 1.2, times, wallRatio(bare, direct)?.ratio));
		checks.push(check(`${label}: first byte p99 over direct`, '≤ 20 ms', row && direct ? row.result.firstByteP99Ms - direct.result.firstByteP99Ms : undefined, v => v <= 20, ms, bare && direct ? bare.result.firstByteP99Ms - direct.result.firstByteP99Ms : undefined));
		checks.push(check(`${label}: peak RSS`, '≤ 150 MB', row?.peakRssMb ?? undefined, v => v <= 150, v => `${v.toFixed(1)} MB`, bare?.peakRssMb ?? undefined));
	}
	for (const mode of gatewayModes) {
		checks.push(check(`TUI ${mode} throughput @${connections} vs serve`, '≥ 0.9×', ratio(findRow(results, 'TUI', mode, connections), findRow(results, 'serve', mode, connections)), v => v >= 0.9, times));
		const tui = find(results, 'TUI', mode, 1);
		const serve = find(results, 'serve', mode, 1);
		checks.push(check(`TUI ${mode} p99 @1 over serve`, '≤ 2 ms', tui && serve ? tui.p99Ms - serve.p99Ms : undefined, v => v <= 2, ms));
	}
	const mb = (value: number) => `${value.toFixed(1)} MB`;
	// Idle means settled: 2 s after start a process is still finishing its start-up work (the trim after it comes 30 and 36 s after start).
	checks.push(check('serve idle RSS (settled)', '≤ 70 MB', results.memory.serveSettledMb ?? undefined, v => v <= 70, mb, results.memory.bareIdleMb ?? undefined));
	checks.push(check('TUI idle RSS (settled)', '≤ 120 MB', results.memory.tuiSettledMb ?? undefined, v => v <= 120, mb));
	for (const [name, after] of [['serve', results.memory.afterRequests], ['TUI', results.memory.tuiAfterRequests]] as const) {
		if (after.length < 2) continue;
		const first = after[0];
		const last = after[after.length - 1];
		// Both read after the same idle time: what the traffic left behind, not the heap V8 grew for the load (it usually gives that back within the idle time, not always).
		checks.push(check(`${name} RSS after ${last.requests} vs after ${first.requests} requests (idle)`, '≤ +20 MB', last.settledMb - first.settledMb, v => v <= 20, v => `${signed(v, 1)} MB`));
	}
	checks.push(check('serve start (median)', '≤ 300 ms', median(results.start.serveMs), v => v <= 300, v => `${v.toFixed(0)} ms`));
	checks.push(check('keys list (median)', '≤ 150 ms', median(results.start.keysListMs), v => v <= 150, v => `${v.toFixed(0)} ms`));
	return checks;
}

/** `12 / 13 / 15 ms (median 13)`. */
function startTimes(values: readonly number[]): string {
	return `${values.map(ms => ms.toFixed(0)).join(' / ')} ms (median ${fixed(median(values), 0)})`;
}

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map(row => row[column].length)));
	const last = header.length - 1;
	const left = (column: number) => column < 2 || (column === last && header[last].includes('error'));
	const line = (cells: readonly string[]) => cells.map((cell, column) => (left(column) ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
	return [line(header), line(widths.map(width => '─'.repeat(width))), ...rows.map(line)].join('\n');
}

export function render(results: Results): string {
	const out: string[] = [];
	const {machine, config} = results;
	out.push(`gateway-tui bench — ${results.date} — ${machine.nproc} cores (${machine.cpu}), Node ${machine.node}, ${machine.memoryGb} GB`);
	out.push(`Load average (1 min): ${machine.loadAtStart.toFixed(2)} before the bench started, ${machine.loadAtEnd.toFixed(2)} at its end (it adds about 2 itself); a high first figure means other work shared the cores and the figures are noisier.`);
	out.push('');
	const rounds = Number(config.rounds ?? 1);
	out.push(`Throughput and latency — non-stream unless marked; ${Number(config.durationMs) / 1000} s per row in ${rounds} round${rounds === 1 ? '' : 's'} that take the rows in turn, each after ${Number(config.warmupMs) / 1000} s of warm-up.`);
	out.push('Added latency is over direct at the same connections (latencies of all rounds pooled); "vs bare" is req/s over the bare relay (translated and anthropic-client rows: over its passthrough), the median of the per-round ratios, "rounds" their lowest and highest.');
	out.push('CPU µs/req: the CPU time of the process under test, all its threads, per request (from /proc, all rounds) — steadier than req/s on a shared host; the load generator and the fake provider use the same two cores.');
	const rows = results.throughput.map(row => {
		const {target, mode, result} = row;
		const direct = reference(results, 'direct', mode, result.connections);
		const bare = throughputRatio(row, findRow(results, 'bare relay', referenceMode(mode), result.connections));
		const isDirect = target === 'direct';
		return [
			target,
			mode,
			String(result.connections),
			fixed(result.rps, 0),
			fixed(result.p50Ms),
			fixed(result.p99Ms),
			fixed(row.cpuUsPerRequest, 1),
			isDirect || !direct ? '' : signed(result.p50Ms - direct.p50Ms),
			isDirect || !direct ? '' : signed(result.p99Ms - direct.p99Ms),
			isDirect || target === 'bare relay' || !bare ? '' : `${bare.ratio.toFixed(2)}×`,
			isDirect || target === 'bare relay' || !bare || bare.low === bare.high ? '' : `${bare.low.toFixed(2)}–${bare.high.toFixed(2)}`,
			result.errors === 0 ? '0' : `${result.errors} (${(result.firstError ?? '').slice(0, 60)})`,
		];
	});
	out.push(table(['target', 'mode', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', '+p50 ms', '+p99 ms', 'vs bare', 'rounds', 'errors'], rows));
	const ui = results.throughput.filter(row => row.target === 'TUI' && typeof row.uiCpuUsPerRequest === 'number' && typeof row.cpuUsPerRequest === 'number' && row.cpuUsPerRequest > 0);
	if (ui.length > 0) {
		const share = (row: ThroughputRow) => `${row.mode} @${row.result.connections} ${fixed(row.uiCpuUsPerRequest, 1)} (${((100 * (row.uiCpuUsPerRequest ?? 0)) / (row.cpuUsPerRequest ?? 1)).toFixed(1)} %)`;
		out.push(`The TUI's UI thread (its main thread: React, Ink, the terminal; the gateway serves on a worker thread), CPU µs a request and its share of the TUI's: ${ui.map(share).join('; ')}.`);
	}
	out.push('');
	if (results.streams.length > 0) {
		const streamRounds = Number(config.streamRounds ?? 1);
		out.push(`Concurrent slow streams — ${config.slowChunks} chunks ${config.slowIntervalMs} ms apart, started evenly over ${Number(config.streamRampMs)} ms, stopped at ${Number(config.streamCapMs) / 1000} s; ${streamRounds} round${streamRounds === 1 ? '' : 's'} of each count that take the rows in turn.`);
		out.push('completed: the fewest of any round; wall s: the median round; "vs direct" and "vs bare": the median of the per-round wall ratios, "rounds" the lowest and highest over direct; first byte: every round\'s streams pooled; peak RSS: the highest round.');
		const streamRows = results.streams.map(row => {
			const {target, mode, result, peakRssMb, listenDrops} = row;
			const direct = results.streams.find(item => item.target === 'direct' && item.result.streams === result.streams);
			const bare = results.streams.find(item => item.target === 'bare relay' && item.result.streams === result.streams);
			const isDirect = target === 'direct';
			const overDirect = isDirect ? undefined : wallRatio(row, direct);
			const overBare = target === 'serve' ? wallRatio(row, bare) : undefined;
			return [
				target,
				isDirect ? 'openai endpoint' : mode,
				String(result.streams),
				`${result.completed}${result.capped ? ' (capped)' : ''}`,
				fixed(result.wallSeconds),
				overDirect ? `${overDirect.ratio.toFixed(2)}×` : '',
				overDirect && overDirect.low !== overDirect.high ? `${overDirect.low.toFixed(2)}–${overDirect.high.toFixed(2)}` : '',
				overBare ? `${overBare.ratio.toFixed(2)}×` : '',
				fixed(result.firstByteP50Ms),
				fixed(result.firstByteP99Ms),
				isDirect || !direct ? '' : signed(result.firstByteP99Ms - direct.result.firstByteP99Ms),
				overBare && bare ? signed(result.firstByteP99Ms - bare.result.firstByteP99Ms) : '',
				fixed(peakRssMb, 1),
				listenDrops === null ? '-' : String(listenDrops),
				(result.firstError ?? '').slice(0, 60),
			];
		});
		out.push(table(['target', 'mode', 'streams', 'completed', 'wall s', 'vs direct', 'rounds', 'vs bare', '1st byte p50', 'p99 ms', '+p99 ms', '+p99 bare', 'peak RSS MB', 'SYN drops', 'first error'], streamRows));
		out.push('vs bare / +p99 bare: serve against the bare relay in the same run. SYN drops: connections the kernel dropped for a full listen queue during the run (machine-wide, all rounds); each costs its client a 1 s retry.');
		out.push('');
	}
	if (results.large.length > 0) {
		const bytes = Number(config.largeBytes ?? 0);
		out.push(`Large requests — a conversation of ${config.largeTurns} turns (${(bytes / 1024).toFixed(0)} KB of JSON, a coding agent's context) at ${config.largeConnections} connections, ${Number(config.largeMs) / 1000} s per row in ${rounds} round${rounds === 1 ? '' : 's'}, each after a warm-up; no target of its own.`);
		out.push('CPU µs/req: the CPU time of the process under test, all its threads, per request (from /proc); "vs bare" is req/s over the bare relay, as above. The bare relay parses the body and encodes it again; passed through, the gateway forwards the client\'s bytes.');
		const largeRows = results.large.map(row => {
			const base = results.large.find(item => item.target === 'bare relay' && item.mode === referenceMode(row.mode));
			const ratio = row.target === 'serve' ? throughputRatio(row, base) : undefined;
			return [
				row.target,
				row.mode,
				fixed(row.result.rps, 0),
				fixed(row.result.p50Ms),
				fixed(row.result.p99Ms),
				fixed(row.cpuUsPerRequest, 0),
				ratio ? `${ratio.ratio.toFixed(2)}×` : '',
				ratio && ratio.low !== ratio.high ? `${ratio.low.toFixed(2)}–${ratio.high.toFixed(2)}` : '',
				row.result.errors === 0 ? '0' : `${row.result.errors} (${(row.result.firstError ?? '').slice(0, 60)})`,
			];
		});
		out.push(table(['target', 'mode', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'vs bare', 'rounds', 'errors'], largeRows));
		out.push('');
	}
	const {start, memory} = results;
	out.push(`Start${start.withExtraCaCerts ? ' (without NODE_EXTRA_CA_CERTS)' : ''}: serve ${startTimes(start.serveMs)} to "listening"; keys list ${startTimes(start.keysListMs)}; Node's own start (node -e 0) ${startTimes(start.nodeMs)}.`);
	if (start.tui) out.push(`TUI start in tmux (100×30, a home with two channels and a key; no target): spawn → first frame ${startTimes(start.tui.firstFrameMs)}, → its address on screen ${startTimes(start.tui.addressMs)}; the first start, with no code cache yet (it compiles the UI and the core from source, then caches them), ${start.tui.coldFirstFrameMs.toFixed(0)} and ${start.tui.coldAddressMs.toFixed(0)} ms.`);
	const extra = start.withExtraCaCerts;
	if (extra) out.push(`Start with NODE_EXTRA_CA_CERTS=${extra.file} as inherited (${extra.certificates ?? 'an unreadable file of'} certificates, which Node parses with its own at every start, before any code of the process runs): serve ${startTimes(extra.serveMs)}; keys list ${startTimes(extra.keysListMs)}; node -e 0 ${startTimes(extra.nodeMs)}. The targets are judged without it: the variable costs every Node process alike.`);
	out.push(`Memory: idle RSS 2 s after start: serve ${fixed(memory.serveIdleMb, 1)} MB, TUI ${fixed(memory.tuiIdleMb, 1)} MB (the bare relay: ${fixed(memory.bareIdleMb, 1)} MB); settled (BENCH_IDLE_SETTLE_MS after start): serve ${fixed(memory.serveSettledMb, 1)} MB, TUI ${fixed(memory.tuiSettledMb, 1)} MB; serve RSS ${rssAfter(memory.afterRequests)}; TUI RSS ${rssAfter(memory.tuiAfterRequests)}.`);
	out.push(`After load (CPU time of the whole process, all threads): serve after ${cpuAfter(memory.afterRequests)}; TUI after ${cpuAfter(memory.tuiAfterRequests)}; the bare relay idles at ${fixed(memory.bareIdleCpuMsPerS, 1)} ms a second. The second after a batch holds the last usage flush; the idle figure is the background work left (the usage flush's timer, the memory trim 30 s after the last request, the TUI's clock) — a store still writing the load's records would show there.`);
	for (const note of results.notes) out.push(`Note: ${note}`);
	out.push('');
	out.push('Targets (from the project issues; a FAIL is reported, it does not fail the run). "bare relay": the reference measured against the same target, where it has one:');
	const width = Math.max(...results.checks.map(item => item.name.length));
	for (const item of results.checks) {
		const verdict = item.pass === null ? ' -- ' : item.pass ? 'PASS' : 'FAIL';
		const relay = item.relay ? `; bare relay ${item.relay.measured}, ${item.relay.pass ? 'within' : 'missing'} it` : '';
		out.push(`  ${verdict}  ${item.name.padEnd(width)}  ${item.measured.padStart(12)}  (target ${item.target}${relay})`);
	}
	const failed = results.checks.filter(item => item.pass === false);
	const passed = results.checks.filter(item => item.pass === true).length;
	const stackMisses = failed.filter(item => item.relay && !item.relay.pass).length;
	out.push(`  ${passed} passed, ${failed.length} failed${stackMisses ? ` (the bare relay misses ${stackMisses} of those ${failed.length} targets itself)` : ''}, ${results.checks.length - passed - failed.length} not measured.`);
	return out.join('\n');
}
