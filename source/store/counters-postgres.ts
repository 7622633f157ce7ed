/**
 * Key-limit counters in PostgreSQL: one row per key in `public.gateway_tui_limits`, changed by one
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` per call. The conflicting row is locked for the
 * statement, and a concurrent statement waits and then sees the new counts, so checking and
 * counting a request is atomic across gateways without an explicit transaction — one round trip.
 *
 * The counters have a small pool of their own with short time-outs: a hung server must not hold
 * the requests waiting for admission, and slow admissions must not starve the store's own pool
 * (usage flushes, key reloads), nor the other way round.
 */
import pg from 'pg';
import type {LimitUse} from '../base/periods.js';
import {admitsFromZero, type Admission, type CounterWindows, type SharedCounters} from './counters.js';

export const limitsTable = 'public.gateway_tui_limits';

const createTable = `CREATE TABLE IF NOT EXISTS ${limitsTable} (
	key_id VARCHAR(255) PRIMARY KEY,
	minute_start BIGINT NOT NULL, minute_requests BIGINT NOT NULL, minute_tokens BIGINT NOT NULL,
	day_start BIGINT NOT NULL, day_requests BIGINT NOT NULL, day_tokens BIGINT NOT NULL,
	spend_period TEXT NOT NULL, spend_start BIGINT NOT NULL, spend_usd DOUBLE PRECISION NOT NULL,
	admitted BOOLEAN NOT NULL
)`;

// $1 key id, $2 minute start, $3 day start, $4 spend period, $5 spend start; then per statement.
// The existing row's counts, rolled over to the newest window (a lagging clock never goes back).
const minuteKept = 'c.minute_start >= $2::bigint';
const dayKept = 'c.day_start >= $3::bigint';
const spendKept = 'c.spend_period = $4::text AND c.spend_start >= $5::bigint';
const rolled = {
	mr: `(CASE WHEN ${minuteKept} THEN c.minute_requests ELSE 0 END)`,
	mt: `(CASE WHEN ${minuteKept} THEN c.minute_tokens ELSE 0 END)`,
	dr: `(CASE WHEN ${dayKept} THEN c.day_requests ELSE 0 END)`,
	dt: `(CASE WHEN ${dayKept} THEN c.day_tokens ELSE 0 END)`,
	su: `(CASE WHEN ${spendKept} THEN c.spend_usd ELSE 0 END)`,
};
const windowsSet = `minute_start = GREATEST(c.minute_start, $2::bigint), day_start = GREATEST(c.day_start, $3::bigint),
	spend_period = $4::text, spend_start = CASE WHEN c.spend_period = $4::text THEN GREATEST(c.spend_start, $5::bigint) ELSE $5::bigint END`;

function upsert(values: string, set: string): string {
	return `INSERT INTO ${limitsTable} AS c VALUES ($1, $2::bigint, ${values})
ON CONFLICT (key_id) DO UPDATE SET ${windowsSet}, ${set}
RETURNING admitted, minute_requests, day_requests, minute_tokens, day_tokens, spend_usd`;
}

// admit: $6 budget, $7 rpm, $8 rpd, $9 tpm, $10 tpd (NULL: no limit), $11 whether a fresh row admits.
const under = (limit: string, used: string) => `(${limit}::float8 IS NULL OR ${used} < ${limit}::float8)`;
const ok = `(${under('$6', rolled.su)} AND ${under('$7', rolled.mr)} AND ${under('$8', rolled.dr)} AND ${under('$9', rolled.mt)} AND ${under('$10', rolled.dt)})`;
const one = (condition: string) => `(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
const admitSql = upsert(
	`${one('$11::boolean')}, 0, $3::bigint, ${one('$11::boolean')}, 0, $4::text, $5::bigint, 0, $11::boolean`,
	`minute_requests = ${rolled.mr} + ${one(ok)}, minute_tokens = ${rolled.mt}, day_requests = ${rolled.dr} + ${one(ok)}, day_tokens = ${rolled.dt}, spend_usd = ${rolled.su}, admitted = ${ok}`,
);
// add: $6 tokens, $7 USD.
const addSql = upsert(
	'0, $6::bigint, $3::bigint, 0, $6::bigint, $4::text, $5::bigint, $7::float8, true',
	`minute_requests = ${rolled.mr}, minute_tokens = ${rolled.mt} + $6::bigint, day_requests = ${rolled.dr}, day_tokens = ${rolled.dt} + $6::bigint, spend_usd = ${rolled.su} + $7::float8, admitted = true`,
);
// seed: $6 rpm, $7 rpd, $8 tpm, $9 tpd, $10 USD.
const seedSql = upsert(
	'$6::bigint, $8::bigint, $3::bigint, $7::bigint, $9::bigint, $4::text, $5::bigint, $10::float8, true',
	`minute_requests = GREATEST(${rolled.mr}, $6::bigint), minute_tokens = GREATEST(${rolled.mt}, $8::bigint), day_requests = GREATEST(${rolled.dr}, $7::bigint), day_tokens = GREATEST(${rolled.dt}, $9::bigint), spend_usd = GREATEST(${rolled.su}, $10::float8), admitted = true`,
);

/** unique_violation, duplicate_object (the table's row type), duplicate_table. */
const concurrentCreate: ReadonlySet<string> = new Set(['23505', '42710', '42P07']);

/**
 * Whether a `CREATE TABLE IF NOT EXISTS` failed only because another process created the table at
 * the same moment: PostgreSQL checks for the table before it waits on the catalog, so the later of
 * two fails — with a unique violation or "already exists" — and the table is there once it does.
 */
export function isConcurrentCreate(error: unknown): boolean {
	return concurrentCreate.has((error as {code?: string}).code ?? '');
}

type Row = {admitted: boolean; minute_requests: string; day_requests: string; minute_tokens: string; day_tokens: string; spend_usd: number};

export function postgresCounters(url: string, timeoutMs: number): SharedCounters {
	const pool = new pg.Pool({connectionString: url, max: 8, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, statement_timeout: timeoutMs, idleTimeoutMillis: 10_000});
	// An idle connection whose server went away is reported here; the next query reports it to its caller.
	pool.on('error', () => {});
	let ready: Promise<void> | undefined;
	const prepare = () =>
		(ready ??= pool.query(createTable).then(
			() => {},
			(error: unknown) => {
				// Two gateways creating the table at once (see isConcurrentCreate): the table exists.
				if (isConcurrentCreate(error)) return;
				ready = undefined;
				throw error;
			},
		));
	const run = async (sql: string, keyId: string, windows: CounterWindows, extra: readonly unknown[]): Promise<Admission> => {
		await prepare();
		const {rows} = await pool.query<Row>(sql, [keyId, windows.minuteStart, windows.dayStart, windows.spendPeriod, windows.spendStart, ...extra]);
		const row = rows[0];
		if (!row) throw new Error('the limits statement returned no row');
		const use: LimitUse = {rpm: Number(row.minute_requests), rpd: Number(row.day_requests), tpm: Number(row.minute_tokens), tpd: Number(row.day_tokens), spendUsd: Number(row.spend_usd)};
		return {admitted: row.admitted, use};
	};
	const orNull = (value: number | undefined) => value ?? null;
	return {
		admit: (keyId, windows, limits) => run(admitSql, keyId, windows, [orNull(limits.budgetUsd), orNull(limits.rpm), orNull(limits.rpd), orNull(limits.tpm), orNull(limits.tpd), admitsFromZero(limits)]),
		add: async (keyId, windows, tokens, costUsd) => (await run(addSql, keyId, windows, [Math.round(tokens), costUsd])).use,
		seed: async (keyId, windows, use) => (await run(seedSql, keyId, windows, [use.rpm, use.rpd, use.tpm, use.tpd, use.spendUsd])).use,
		close: async () => {
			await pool.end().catch(() => {});
		},
	};
}
