/**
 * `npm run bench` end to end, in miniature: every process it starts (the fake provider, the bare
 * relay, `serve` twice, the TUI in tmux, the CLI), every section it measures, and every target it
 * judges — so a change that breaks the bench (a CLI flag, the TUI's first screen, a report field)
 * fails here instead of in the next person's benchmark run. Rows of a fraction of a second and a
 * few dozen streams: nothing here is timed, and whether a target passes is not asserted, only that
 * each was measured and the load ran without errors.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFile, spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {rootCertificates} from 'node:tls';
import {fileURLToPath} from 'node:url';
import type {Results} from './report.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hasTmux = spawnSync('tmux', ['-V']).status === 0;

test('the bench runs every section and measures every target (tiny settings)', {skip: process.platform !== 'linux' && 'the bench reads /proc: Linux only', timeout: 240_000}, async () => {
	const dir = mkdtempSync(join(tmpdir(), 'gateway-tui-bench-smoke-'));
	const out = join(dir, 'run.json');
	// Two real roots: the starts are measured with and without the variable, as on a machine that sets it.
	const caFile = join(dir, 'extra-ca.pem');
	writeFileSync(caFile, rootCertificates.slice(0, 2).join('\n'));
	try {
		const env: NodeJS.ProcessEnv = {
			...process.env,
			BENCH_DURATION_MS: '300',
			BENCH_ROUNDS: '2',
			BENCH_WARMUP_MS: '50',
			BENCH_PAUSE_MS: '50',
			BENCH_PRIME_MS: '100',
			BENCH_CONNECTIONS: '8',
			BENCH_STREAMS: '20,40',
			BENCH_SLOW_CHUNKS: '3',
			BENCH_SLOW_INTERVAL_MS: '50',
			BENCH_STREAM_RAMP_MS: '50',
			BENCH_STREAM_ROUNDS: '2',
			BENCH_RSS_REQUESTS: '100,200',
			BENCH_RSS_SETTLE_MS: '0',
			BENCH_IDLE_SETTLE_MS: '2100',
			BENCH_LARGE_TURNS: '40',
			BENCH_LARGE_MS: '300',
			BENCH_STARTS: '1',
			BENCH_KEYS_LIST_RUNS: '1',
			BENCH_TUI: hasTmux ? '1' : '0',
			BENCH_TUI_STARTS: '1',
			BENCH_OUT: out,
			NODE_EXTRA_CA_CERTS: caFile,
		};
		const {code, stdout, stderr} = await new Promise<{code: number | null; stdout: string; stderr: string}>(resolve => {
			execFile(process.execPath, ['--import', 'tsx', join(root, 'test', 'bench', 'run.ts')], {cwd: root, env, timeout: 220_000, maxBuffer: 16 * 1024 * 1024}, (error, stdout, stderr) => {
				resolve({code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr});
			});
		});
		assert.equal(code, 0, `the bench failed:\n${stderr.slice(-3000)}`);
		const results = JSON.parse(readFileSync(out, 'utf8')) as Results;

		// Throughput: direct, the bare relay, serve (and the TUI; each passed through, translated and from an Anthropic client) at 1 and 8 connections, streamed and not, without an error.
		const targets = new Set(results.throughput.map(row => row.target));
		assert.deepEqual([...targets].sort(), (hasTmux ? ['TUI', 'bare relay', 'direct', 'serve'] : ['bare relay', 'direct', 'serve']).sort());
		assert.equal(results.throughput.length, hasTmux ? 24 : 15);
		for (const row of results.throughput) {
			assert.equal(row.result.errors, 0, `${row.target} ${row.mode} @${row.result.connections}: ${row.result.firstError}`);
			assert.ok(row.result.requests > 0, `${row.target} ${row.mode} @${row.result.connections} sent nothing`);
			assert.equal(row.roundRps?.length, 2, `${row.target} ${row.mode}: one figure per round`);
			// The TUI's rows also read its UI thread's CPU, a part of the process's (the two read one after the other: a 10 ms tick apart at most).
			if (row.target === 'TUI') assert.ok(typeof row.uiCpuUsPerRequest === 'number' && row.uiCpuUsPerRequest >= 0 && row.uiCpuUsPerRequest <= (row.cpuUsPerRequest ?? 0) + 10_000 / row.result.requests, `${row.mode}: UI ${row.uiCpuUsPerRequest} of ${row.cpuUsPerRequest}`);
			else assert.equal(row.uiCpuUsPerRequest, undefined);
		}
		if (hasTmux) assert.match(stdout, /The TUI's UI thread \(its main thread[^\n]*: passthrough @1 [\d.]+ \([\d.]+ %\)/);
		// Slow streams: both sizes, each target, all complete.
		assert.equal(results.streams.length, 8);
		for (const row of results.streams) {
			assert.equal(row.result.completed, row.result.streams, `${row.target} ${row.mode} ${row.result.streams}: ${row.result.firstError}`);
			assert.equal(row.roundWalls?.length, 2, `${row.target} ${row.mode} ${row.result.streams}: one wall time per round`);
		}
		// Large requests: direct, the bare relay and serve (passed through and translated), streamed and not; CPU read for the processes under test.
		assert.deepEqual(results.large.map(row => `${row.target} ${row.mode}`), ['direct passthrough', 'direct passthrough stream', 'bare relay passthrough', 'bare relay passthrough stream', 'serve passthrough', 'serve translated', 'serve passthrough stream', 'serve translated stream']);
		for (const row of results.large) {
			assert.equal(row.result.errors, 0, `large ${row.target} ${row.mode}: ${row.result.firstError}`);
			assert.ok(row.result.requests > 0, `large ${row.target} ${row.mode} sent nothing`);
			if (row.target === 'direct') assert.equal(row.cpuUsPerRequest, null);
			else assert.ok(Number.isFinite(row.cpuUsPerRequest), `large ${row.target} ${row.mode}: CPU ${row.cpuUsPerRequest}`);
		}
		assert.match(stdout, /Large requests — a conversation of 40 turns \(\d+ KB of JSON/);
		// Start, memory.
		assert.equal(results.start.serveMs.length, 1);
		assert.equal(results.start.keysListMs.length, 1);
		assert.equal(results.start.nodeMs.length, 1);
		const extra = results.start.withExtraCaCerts;
		assert.deepEqual(extra && {file: extra.file, certificates: extra.certificates, runs: [extra.serveMs.length, extra.keysListMs.length, extra.nodeMs.length]}, {file: caFile, certificates: 2, runs: [1, 1, 1]});
		assert.match(stdout, /Start \(without NODE_EXTRA_CA_CERTS\): serve \d+ ms \(median \d+\) to "listening"; keys list \d+ ms \(median \d+\); Node's own start \(node -e 0\) \d+ ms/);
		assert.ok(stdout.includes(`Start with NODE_EXTRA_CA_CERTS=${caFile} as inherited (2 certificates`), 'the inherited starts printed');
		// The TUI's start (with tmux): once without a code cache, then once with it; its first frame comes before its address.
		if (hasTmux) {
			const tui = results.start.tui;
			assert.ok(tui && tui.firstFrameMs.length === 1 && tui.addressMs.length === 1, JSON.stringify(tui));
			for (const [frame, address] of [[tui.coldFirstFrameMs, tui.coldAddressMs], [tui.firstFrameMs[0]!, tui.addressMs[0]!]] as const) assert.ok(frame > 0 && address >= frame, `first frame ${frame} ms, address ${address} ms`);
			assert.match(stdout, /TUI start in tmux \(100×30[^\n]*: spawn → first frame \d+ ms \(median \d+\), → its address on screen \d+ ms \(median \d+\); the first start, with no code cache yet [^\n]*\d+ and \d+ ms\./);
		} else assert.equal(results.start.tui, null);
		assert.ok((results.memory.serveSettledMb ?? 0) > 0 && (results.memory.bareIdleMb ?? 0) > 0);
		assert.deepEqual(results.memory.afterRequests.map(row => [row.requests, row.errors]), [[100, 0], [200, 0]]);
		if (hasTmux) assert.deepEqual(results.memory.tuiAfterRequests.map(row => [row.requests, row.errors]), [[100, 0], [200, 0]]);
		// CPU after each batch: measured (no idle wait here, so no per-second idle figure) and printed.
		for (const row of [...results.memory.afterRequests, ...results.memory.tuiAfterRequests]) {
			assert.ok(Number.isFinite(row.tailCpuMs) && row.tailCpuMs >= 0, `CPU after ${row.requests} requests: ${row.tailCpuMs}`);
			assert.equal(row.idleCpuMsPerS, null);
		}
		assert.match(stdout, /After load \(CPU time[^\n]*serve after 100 requests: \d+ ms in the second after the last answer/);

		// Every target of the issue, each measured (the TUI's only with tmux), and the same list printed.
		assert.equal(results.checks.length, 29);
		for (const check of results.checks) {
			if (!hasTmux && check.name.startsWith('TUI')) continue;
			assert.notEqual(check.measured, 'not measured', check.name);
			assert.equal(typeof check.pass, 'boolean', check.name);
		}
		for (const check of results.checks) assert.ok(stdout.includes(check.name), `printed: ${check.name}`);
		assert.match(stdout, /\d+ passed, \d+ failed/);
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}
});
