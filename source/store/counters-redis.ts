/**
 * Key-limit counters in Redis: one hash per key (`gateway-tui:limits:<key id>`), read, rolled over,
 * checked and written by one Lua script, which Redis runs atomically — so 50 requests from several
 * gateways at once against `--rpm 10` admit exactly 10, in one round trip each. The script is sent
 * by its SHA-1 (EVALSHA) and only in full when the server does not know it yet (NOSCRIPT, e.g.
 * after a restart).
 *
 * Spend is kept with HINCRBYFLOAT, Redis's own decimal arithmetic, rather than Lua's numbers
 * (which `tostring` would cut to 14 digits). The hash expires a day after its longest window ends,
 * so keys deleted long ago leave nothing behind; a total budget never expires.
 */
import {createHash} from 'node:crypto';
import type {LimitUse} from '../base/periods.js';
import type {Admission, CounterLimits, CounterWindows, SharedCounters} from './counters.js';

const script = `
local key, mode = KEYS[1], ARGV[1]
local ms, ds, sp, ss, keep = tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
local h = redis.call('HMGET', key, 'ms', 'mr', 'mt', 'ds', 'dr', 'dt', 'sp', 'ss', 'su')
local cms, mr, mt = tonumber(h[1]) or 0, tonumber(h[2]) or 0, tonumber(h[3]) or 0
local cds, dr, dt = tonumber(h[4]) or 0, tonumber(h[5]) or 0, tonumber(h[6]) or 0
local csp, css, su = h[7] or '', tonumber(h[8]) or 0, h[9] or '0'
if ms > cms then cms, mr, mt = ms, 0, 0 end
if ds > cds then cds, dr, dt = ds, 0, 0 end
if sp ~= csp then csp, css, su = sp, ss, '0' elseif ss > css then css, su = ss, '0' end
local admitted = 1
local function over(limit, used) return limit ~= '' and used >= tonumber(limit) end
if mode == 'admit' then
  if over(ARGV[7], tonumber(su)) or over(ARGV[8], mr) or over(ARGV[9], dr) or over(ARGV[10], mt) or over(ARGV[11], dt) then
    admitted = 0
  else
    mr, dr = mr + 1, dr + 1
  end
elseif mode == 'add' then
  mt, dt = mt + tonumber(ARGV[7]), dt + tonumber(ARGV[7])
elseif mode == 'seed' then
  mr, dr, mt, dt = math.max(mr, tonumber(ARGV[7])), math.max(dr, tonumber(ARGV[8])), math.max(mt, tonumber(ARGV[9])), math.max(dt, tonumber(ARGV[10]))
  if tonumber(ARGV[11]) > tonumber(su) then su = ARGV[11] end
end
redis.call('HSET', key, 'ms', cms, 'mr', mr, 'mt', mt, 'ds', cds, 'dr', dr, 'dt', dt, 'sp', csp, 'ss', css, 'su', su)
if mode == 'add' then su = redis.call('HINCRBYFLOAT', key, 'su', ARGV[8]) end
if keep > 0 then redis.call('PEXPIRE', key, keep) else redis.call('PERSIST', key) end
return {admitted, mr, dr, mt, dt, tostring(su)}
`;

const sha = createHash('sha1').update(script).digest('hex');

/** The two commands used, as node-redis's client offers them (its own generic types are not needed here). */
export type ScriptClient = {
	evalSha(sha1: string, options: {keys: string[]; arguments: string[]}): Promise<unknown>;
	eval(script: string, options: {keys: string[]; arguments: string[]}): Promise<unknown>;
};

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

export function redisCounters(client: ScriptClient): SharedCounters {
	const run = async (keyId: string, mode: 'admit' | 'add' | 'seed', windows: CounterWindows, extra: string[]): Promise<Admission> => {
		const options = {
			keys: [`gateway-tui:limits:${keyId}`],
			arguments: [mode, String(windows.minuteStart), String(windows.dayStart), windows.spendPeriod, String(windows.spendStart), String(Math.max(0, Math.ceil(windows.keepMs))), ...extra],
		};
		let reply: unknown;
		try {
			reply = await client.evalSha(sha, options);
		} catch (error) {
			if (!/NOSCRIPT/.test(String((error as Error).message))) throw error;
			reply = await client.eval(script, options);
		}
		return parseReply(reply);
	};
	return {
		admit: (keyId, windows, limits: CounterLimits) => run(keyId, 'admit', windows, [text(limits.budgetUsd), text(limits.rpm), text(limits.rpd), text(limits.tpm), text(limits.tpd)]),
		add: async (keyId, windows, tokens, costUsd) => (await run(keyId, 'add', windows, [String(Math.round(tokens)), String(costUsd)])).use,
		seed: async (keyId, windows, use: LimitUse) => (await run(keyId, 'seed', windows, [use.rpm, use.rpd, use.tpm, use.tpd, use.spendUsd].map(String))).use,
		// The client belongs to the store's backend, which closes it.
		close: async () => {},
	};
}

function parseReply(reply: unknown): Admission {
	if (!Array.isArray(reply) || reply.length !== 6) throw new Error(`unexpected answer from the limits script: ${JSON.stringify(reply)}`);
	const [admitted, rpm, rpd, tpm, tpd, spend] = reply.map(Number) as [number, number, number, number, number, number];
	return {admitted: admitted === 1, use: {rpm, rpd, tpm, tpd, spendUsd: spend}};
}
