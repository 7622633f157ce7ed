/**
 * The shared store going away under two real gateways, one failing open (the default) and one
 * failing closed (GATEWAY_TUI_LIMITS_FAIL=closed), with requests in flight: the store is cut
 * (connections dropped, new ones refused), then restored, then hung (connected, but silent — the
 * case a time-out is for), then restored again. Keys without limits are served throughout; a key
 * with limits is served by the open gateway and refused with a 503 by the closed one; no answer
 * takes longer than the time-out by much; both print a warning naming the store (password masked)
 * when counting stops and when it resumes; neither crashes.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createKey} from '../../source/services/keys.js';
import {postgresMissing, postgresPassword, redisMissing, redisPassword, startPostgres, startRedis} from '../helpers/servers.js';
import {startCluster, within, type Cluster} from './cluster.js';
import {startTcpGate, type TcpGate} from './tcp-gate.js';

type Timed = {status: number; ms: number; message: string; startedAt: number};

async function timedAsk(cluster: Cluster, index: number, secret: string): Promise<Timed> {
	const started = Date.now();
	const answer = await cluster.ask(index, secret);
	const message = (answer.body as {error?: {message?: string}}).error?.message ?? '';
	return {status: answer.status, ms: Date.now() - started, message, startedAt: started};
}

/** Requests from 4 loops (each key through each gateway) until `stop` resolves; every answer is kept. */
function traffic(cluster: Cluster, secrets: {limited: string; free: string}, stop: Promise<void>): Promise<Array<Timed & {gateway: number; key: string}>> {
	let stopped = false;
	void stop.then(() => (stopped = true));
	const loops = [0, 1].flatMap(gateway =>
		(['limited', 'free'] as const).map(async key => {
			const seen: Array<Timed & {gateway: number; key: string}> = [];
			while (!stopped) seen.push({...(await timedAsk(cluster, gateway, secrets[key])), gateway, key});
			return seen;
		}),
	);
	return Promise.all(loops).then(all => all.flat());
}

const stores = [
	{name: 'redis', skip: redisMissing ?? false, password: redisPassword, start: startRedis},
	{name: 'postgres', skip: postgresMissing ?? false, password: postgresPassword, start: startPostgres},
] as const;

/** The same URL through the gate's port. */
const via = (url: string, port: number) => url.replace(/:\d+\//, `:${port}/`);

for (const kind of stores) {
	test(`${kind.name} going away mid-traffic: open serves, closed refuses with a 503, both warn, nothing hangs or crashes`, {skip: kind.skip, timeout: 120_000}, async t => {
		const server = await kind.start();
		const direct = kind.name === 'redis' ? (server as Awaited<ReturnType<typeof startRedis>>).url(0) : await (server as Awaited<ReturnType<typeof startPostgres>>).freshUrl();
		const gate: TcpGate = await startTcpGate(server.port);
		const url = via(direct, gate.port);
		const cluster = await startCluster(url, {envOf: index => ({GATEWAY_TUI_LIMITS_FAIL: index === 0 ? 'open' : 'closed'})});
		try {
			const limited = await createKey(cluster.store, {name: 'limited', rpm: '1000'});
			const free = await createKey(cluster.store, {name: 'free'});
			await within(1500, 'both gateways know the keys', async () => (await cluster.ask(0, free.secret)).status === 200 && (await cluster.ask(1, free.secret)).status === 200);
			for (const index of [0, 1]) assert.equal((await cluster.ask(index, limited.secret)).status, 200);

			await t.test('cut: the open gateway counts alone, the closed one refuses limited keys at once', async () => {
				let end = () => {};
				const answers = traffic(cluster, {limited: limited.secret, free: free.secret}, new Promise<void>(resolve => (end = resolve)));
				await new Promise(resolve => setTimeout(resolve, 300));
				await gate.cut();
				const cutAt = Date.now();
				await new Promise(resolve => setTimeout(resolve, 2500));
				end();
				const all = await answers;
				assert.ok(all.every(answer => answer.ms < 2500), `slowest: ${Math.max(...all.map(answer => answer.ms))} ms`);
				// Requests sent once the gateways have seen the connections drop.
				const late = all.filter(answer => answer.startedAt > cutAt + 300);
				assert.ok(late.filter(answer => answer.key === 'free').every(answer => answer.status === 200), 'keys without limits are served');
				assert.ok(late.filter(answer => answer.key === 'limited' && answer.gateway === 0).every(answer => answer.status === 200), 'open: served');
				const closed = late.filter(answer => answer.key === 'limited' && answer.gateway === 1);
				assert.ok(closed.length > 0 && closed.every(answer => answer.status === 503), closed.map(answer => answer.status).join(' '));
				assert.match(closed[0]!.message, /The limits of the virtual key "limited" cannot be checked: the gateway's shared store is unreachable, and this gateway refuses requests of keys with limits until it answers again\. Try again shortly/);
				t.diagnostic(`${late.length} answers in the 2.2 s after the cut`);
				await within(3000, 'both gateways warn', async () => cluster.gateways.every(gateway => /warning: Key limits cannot be counted in the shared store: The store .*:\*\*\*\*@127\.0\.0\.1:\d+.* failed while/.test(gateway.stderr())));
				assert.match(cluster.gateways[0]!.stderr(), /this gateway counts key limits on its own \(GATEWAY_TUI_LIMITS_FAIL=open\)/);
				assert.match(cluster.gateways[1]!.stderr(), /this gateway refuses requests of keys with limits with a 503 \(GATEWAY_TUI_LIMITS_FAIL=closed\)/);
			});

			await t.test('restored: limits are counted in the store again, and both say so', async () => {
				await gate.restore();
				await within(8000, 'the closed gateway admits again', async () => (await cluster.ask(1, limited.secret)).status === 200);
				// The open gateway finds the store back on its next request of a limited key.
				await within(3000, 'both warn that counting resumed', async () => (await cluster.ask(0, limited.secret)).status === 200 && cluster.gateways.every(gateway => /The shared store answers again: key limits are counted across all gateways on it again\./.test(gateway.stderr())));
			});

			await t.test('hung: answers come within the time-out (1 s), open serves, closed refuses', async () => {
				gate.hang();
				const [open, closed, freeAnswer] = await Promise.all([timedAsk(cluster, 0, limited.secret), timedAsk(cluster, 1, limited.secret), timedAsk(cluster, 0, free.secret)]);
				assert.deepEqual([open.status, closed.status, freeAnswer.status], [200, 503, 200]);
				assert.ok(open.ms < 2500 && closed.ms < 2500, `open ${open.ms} ms, closed ${closed.ms} ms`);
				assert.ok(freeAnswer.ms < 500, `a key without limits waits for nothing (${freeAnswer.ms} ms)`);
				await gate.restore();
				await within(8000, 'the closed gateway admits again', async () => (await cluster.ask(1, limited.secret)).status === 200);
			});

			for (const [index, gateway] of cluster.gateways.entries()) {
				assert.equal(gateway.child.exitCode, null, `gateway ${index} still runs: ${gateway.stderr()}`);
				assert.ok(!gateway.stderr().includes(kind.password) && !gateway.stdout().includes(kind.password), 'the password never shows');
			}
		} finally {
			// A failed step may leave the store hung: let it answer, so the gateways can close.
			await gate.restore();
			await cluster.close();
			await gate.close();
			await server.stop();
		}
	});
}
